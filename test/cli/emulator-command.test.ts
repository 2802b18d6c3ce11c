/**
 * `sitekit-sdk emulator` prints, besides its URL and keys, the demo member's credentials, and they
 * sign in (a new user should not have to find them in the emulator's README); a port in use is
 * said in words; `--control-origin` lets a named page use the control API, and no other.
 */
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import { createClient, OAuthStrategy } from '../../src/index.js';

/** A test runner's page the command names with --control-origin (issue 31, item 1). */
const NAMED_ORIGIN = 'http://localhost:5173';

const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'cli/main.ts', 'emulator', '--port', '0', '--memory', '--control-origin', NAMED_ORIGIN],
  { stdio: ['ignore', 'pipe', 'pipe'] },
);
afterAll(() => {
  child.kill('SIGTERM');
});

/** The start-up banner, once it names the URL and the client id. */
const banner = new Promise<string>((resolve, reject) => {
  let output = '';
  child.stderr.on('data', (chunk) => (output += chunk));
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (/client id:.*\n/.test(output) && /console:.*\n/.test(output)) resolve(output);
  });
  child.on('exit', (code) => reject(new Error(`emulator exited (${code}): ${output}`)));
});

it('prints the demo member’s email and password, and they sign in', { timeout: 60_000 }, async () => {
  const output = await banner;
  const credentials = /sign in:\s+(\S+@\S+) \/ (\S+)/.exec(output);
  expect(credentials, output).not.toBeNull();
  const [, email, password] = credentials!;
  const url = /listening on (\S+)/.exec(output)![1]!;
  const clientId = /client id:\s+(\S+)/.exec(output)![1]!;
  const visitor = createClient({ baseUrl: url, auth: OAuthStrategy({ clientId }) });
  expect((await visitor.auth.login({ email: email!, password: password! })).loginState).toBe('SUCCESS');
});

it('a port in use says to pass another with --port, not a stack trace', { timeout: 60_000 }, async () => {
  const url = /listening on (\S+)/.exec(await banner)![1]!;
  const port = Number(new URL(url).port);
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
  expect(await runCommand(['emulator', '--port', String(port), '--memory'], io)).toBe(1);
  expect(stderr).toBe(
    `Port ${port} is in use (another emulator, or another server). Pass another with --port, e.g. --port ${port + 1}, or --port 0 for any free one.\n`,
  );
});

it('--control-origin lets that origin use the control API, not another local page', { timeout: 60_000 }, async () => {
  const url = /listening on (\S+)/.exec(await banner)![1]!;
  const exportFrom = (origin: string) => fetch(`${url}/_emulator/export`, { headers: { origin } });
  const named = await exportFrom(NAMED_ORIGIN);
  expect(named.status).toBe(200);
  expect(named.headers.get('access-control-allow-origin')).toBe(NAMED_ORIGIN);
  expect((await exportFrom('http://localhost:5174')).status).toBe(403);
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
  expect(await runCommand(['emulator', '--port', '0', '--memory', '--control-origin', 'localhost:5173'], io)).toBe(1);
  expect(stderr).toContain('localhost:5173 is not an origin');
});

it('--site-pool takes a whole number of key pairs to make ahead, and says so when it is not one', async () => {
  for (const bad of ['-1', 'eight', '65', '1.5']) {
    let stderr = '';
    const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
    expect(await runCommand(['emulator', '--port', '0', '--memory', `--site-pool=${bad}`], io)).toBe(2);
    expect(stderr).toContain(`--site-pool must be a whole number from 0 to 64 (got ${bad})`);
  }
});

it('the running emulator makes sites on demand, each with its own keys', { timeout: 60_000 }, async () => {
  const url = /listening on (\S+)/.exec(await banner)![1]!;
  const made = await Promise.all(
    Array.from({ length: 3 }, () =>
      fetch(`${url}/_emulator/sites`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: 'empty' }),
      }).then(async (response) => ({ status: response.status, body: await response.json() })),
    ),
  );
  expect(made.map((site) => site.status)).toEqual([201, 201, 201]);
  expect(new Set(made.map((site) => site.body.publicKey)).size).toBe(3);
  expect(new Set(made.map((site) => site.body.apiKey)).size).toBe(3);
});
