/**
 * Choosing the storage engine (issue 29, item 1): `auto` takes node:sqlite where Node has it, else
 * better-sqlite3 when it loads, else wasm; an engine that cannot hold the data folder is refused at
 * start with the way out; the banner and `/_emulator/info` name the engine; node:sqlite's
 * ExperimentalWarning never reaches the user's output, and no other warning is held back.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator, StoreEngineError } from '../../../emulator/index.js';
import { chooseEngine } from '../../../emulator/store/choose-engine.js';
import { engineIfAvailable, testEngine } from '../../helpers/engine.js';

const directory = mkdtempSync(join(tmpdir(), 'sitekit-engine-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Runs `node --import tsx <args>` here; resolves with its output once `done` matches it (or it exits). */
function runNode(args: string[], done: RegExp): Promise<{ stdout: string; stderr: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const stop = () => void child.kill('SIGTERM');
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (done.test(stdout)) resolve({ stdout, stderr, stop });
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) =>
      done.test(stdout) ? resolve({ stdout, stderr, stop }) : reject(new Error(`exited ${code}: ${stdout}${stderr}`)),
    );
  });
}

const nodeSqliteHere = await engineIfAvailable('node:sqlite');

describe('the engine option', () => {
  it('auto takes node:sqlite where Node has it, else better-sqlite3 when it loads, else wasm', async () => {
    const expected = nodeSqliteHere
      ? 'node:sqlite'
      : (await engineIfAvailable('better-sqlite3'))
        ? 'better-sqlite3'
        : 'wasm';
    expect((await chooseEngine('auto')).name).toBe(expected);
    expect((await chooseEngine()).name).toBe(expected);
  });

  it('an unknown engine is refused with the ones there are', async () => {
    await expect(startEmulator({ port: 0, memory: true, engine: 'sqlite4' as never })).rejects.toThrow(
      expect.objectContaining({
        name: 'StoreEngineError',
        code: 'ENGINE_UNKNOWN',
        message: 'engine must be one of auto, node:sqlite, better-sqlite3, wasm (got sqlite4)',
      }),
    );
  });

  it('wasm refuses a data folder at start, saying how to keep data on disk, and creates nothing', async () => {
    const dataDir = join(directory, 'refused');
    const start = startEmulator({ port: 0, dataDir, engine: 'wasm' });
    await expect(start).rejects.toBeInstanceOf(StoreEngineError);
    await expect(start).rejects.toThrow(
      expect.objectContaining({
        code: 'ENGINE_MEMORY_ONLY',
        message: expect.stringMatching(/Node 22 or later.*install better-sqlite3.*--memory/),
      }),
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it.skipIf(nodeSqliteHere)('node:sqlite on a Node without it names the version it needs', async () => {
    await expect(chooseEngine('node:sqlite')).rejects.toThrow(
      expect.objectContaining({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('Node 22.13 or later') }),
    );
  });

  it('/_emulator/info and the start banner name the engine; no ExperimentalWarning in the output', {
    timeout: 60_000,
  }, async () => {
    const expected = (await chooseEngine(testEngine)).name;
    const { stdout, stderr, stop } = await runNode(
      ['cli/main.ts', 'emulator', '--port', '0', '--memory', '--engine', testEngine],
      /console:.*\n/,
    );
    try {
      expect(stdout).toMatch(new RegExp(`engine: +${expected}\\n`));
      const url = /listening on (\S+)/.exec(stdout)![1]!;
      expect(await (await fetch(`${url}/_emulator/info`)).json()).toMatchObject({ engine: expected });
      expect(stderr).not.toContain('Warning');
    } finally {
      stop();
    }
  });

  it.skipIf(!nodeSqliteHere)(
    'holds back node:sqlite’s ExperimentalWarning only: other warnings still show',
    {
      timeout: 60_000,
    },
    async () => {
      const script = [
        "const { loadNodeSqlite } = await import('./emulator/store/engines/node-sqlite.ts');",
        'loadNodeSqlite().open(null).close();',
        "process.emitWarning('another feature is experimental', 'ExperimentalWarning');",
        "process.on('exit', () => console.log('done'));",
      ].join('\n');
      const { stderr } = await runNode(['--input-type=module', '-e', script], /done/);
      expect(stderr).not.toContain('SQLite');
      expect(stderr).toContain('ExperimentalWarning: another feature is experimental');
    },
  );
});
