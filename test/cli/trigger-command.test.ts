/**
 * `sitekit-sdk emulator trigger` reports what the receivers answered: exit 0 when they took the
 * event (or refused a badly signed one), 1 naming the answer when a delivery failed, and what to
 * start when no emulator answers.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../cli/commands.js';
import type { CommandIo } from '../../cli/command-io.js';
import { closedOrigin } from '../helpers/closed-origin.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  emulator = await startEmulator();
  // /ok takes everything, /broken fails, /strict refuses every body (as an app refuses a bad signature).
  receiver = createServer(async (request, response) => {
    for await (const _ of request);
    const status = { '/ok': 204, '/broken': 500, '/strict': 401 }[request.url ?? ''] ?? 404;
    response.writeHead(status).end();
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator?.close();
  receiver?.close();
});

/** Runs `emulator trigger` with `args`; resolves with its exit code and what it wrote. */
async function trigger(...args: string[]) {
  const output = { stdout: '', stderr: '' };
  const io: CommandIo = {
    stdout: (text) => void (output.stdout += text),
    stderr: (text) => void (output.stderr += text),
    env: {},
  };
  const code = await runCommand(['emulator', 'trigger', 'wix.members.v1.member_updated', ...args], io);
  return { code, ...output };
}

describe('sitekit-sdk emulator trigger', () => {
  it('exits 0 with the receiver’s answer when it took the event', async () => {
    const run = await trigger('--forward-to', `${receiverUrl}/ok`, '--emulator', emulator.url);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Sent wix\.members\.v1\.member_updated of \S+ \(event \S+\) to http:\S+\/ok\.\n/);
    expect(run.stdout).toContain(`  ${receiverUrl}/ok: delivered (204)\n`);
  });

  it('exits 1 naming the answer when a delivery failed: an error status, or nothing listening', async () => {
    const broken = await trigger('--forward-to', `${receiverUrl}/broken`, '--emulator', emulator.url);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`  ${receiverUrl}/broken: failed: the receiver answered 500\n`);
    expect(broken.stderr).toContain(`every attempt: ${emulator.url}/_emulator/webhooks`);

    const nowhere = `${await closedOrigin()}/hooks`;
    const unanswered = await trigger('--forward-to', nowhere, '--emulator', emulator.url);
    expect(unanswered.code).toBe(1);
    expect(unanswered.stderr).toContain(`  ${nowhere}: failed: no answer from the receiver (ECONNREFUSED)\n`);
  });

  it('with --bad-signature, a refusal is the success and an acceptance the failure', async () => {
    const refused = await trigger(
      '--bad-signature',
      '--forward-to',
      `${receiverUrl}/strict`,
      '--emulator',
      emulator.url,
    );
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain(`  ${receiverUrl}/strict: refused (401), as a badly signed event must be\n`);
    const accepted = await trigger('--bad-signature', '--forward-to', `${receiverUrl}/ok`, '--emulator', emulator.url);
    expect(accepted.code).toBe(1);
    expect(accepted.stderr).toContain(`  ${receiverUrl}/ok: accepted a badly signed event (204)`);
  });

  it('with no emulator, says what to start instead of "fetch failed"', async () => {
    const nowhere = await closedOrigin();
    const run = await trigger('--emulator', nowhere);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `No emulator answers at ${nowhere}: start one (npx sitekit-sdk emulator), or name it with --emulator <url>.\n`,
    });
  });
});
