/**
 * Durability: an emulator in a child process acknowledges writes, is killed with SIGKILL in the
 * middle of them, restarts on the same data directory, and still has every acknowledged write.
 * On the engine `SITEKIT_ENGINE` names; wasm holds no file (./engine-choice.test.ts checks it
 * refuses a data folder).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bannerDetails } from '../../../scripts/emulator-banner.mjs';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';
import { testEngine, testEngineHoldsFiles } from '../../helpers/engine.js';

const dataDir = mkdtempSync(join(tmpdir(), 'sitekit-durability-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts `sitekit emulator` on the data dir in a child process; resolves with its connection details. */
function startChild(): Promise<{
  child: ChildProcess;
  exited: Promise<unknown>;
  url: string;
  apiKey: string;
  siteId: string;
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'cli/main.ts', 'emulator', '--port', '0', '--data-dir', dataDir, '--engine', testEngine],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.push(child);
  // Listened to from the start: a killed child's exit may come before anyone waits for it.
  const exited = once(child, 'exit');
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${output}`)), 30_000);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const details = bannerDetails(output);
      if (details) {
        clearTimeout(timer);
        resolve({ child, exited, ...details });
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited (${code}): ${output}`)));
  });
}

const holdsFiles = await testEngineHoldsFiles();

describe('durability', () => {
  it.skipIf(!holdsFiles)('keeps every acknowledged write across a SIGKILL', { timeout: 120_000 }, async () => {
    const first = await startChild();
    const admin = createClient({
      baseUrl: first.url,
      auth: ApiKeyStrategy({ apiKey: first.apiKey, siteId: first.siteId }),
      retry: false,
      timeoutMs: 10_000,
    });
    await admin.collections.createDataCollection({
      _id: 'Ledger',
      permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });

    const acknowledged: string[] = [];
    let next = 0;
    let killed = false;
    // Four writers at once, so writes are in flight when the process dies.
    const writer = async () => {
      while (next < 1000) {
        const id = `entry-${next++}`;
        try {
          await admin.items.insert('Ledger', { _id: id, amount: next });
          acknowledged.push(id);
          if (acknowledged.length == 400 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch {
          if (killed) return;
          throw new Error(`write ${id} failed before the kill`);
        }
      }
    };
    await Promise.all([writer(), writer(), writer(), writer()]);
    expect(killed).toBe(true);
    await first.exited;

    const second = await startChild();
    expect(second.apiKey).toBe(first.apiKey);
    const again = createClient({
      baseUrl: second.url,
      auth: ApiKeyStrategy({ apiKey: second.apiKey, siteId: second.siteId }),
    });
    const stored = new Set<string>();
    for await (const item of again.items.query('Ledger').limit(1000).all()) stored.add(item._id);
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(acknowledged.length).toBeGreaterThanOrEqual(400);
    expect(lost).toEqual([]);
    second.child.kill('SIGTERM');
  });
});
