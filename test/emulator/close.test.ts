/**
 * Closing: an emulator started and closed at once leaves no background work able to crash the
 * host process (it once did: an uncaught ENOENT from the TUS file store's directory creation).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { inBackground } from '../../emulator/background.js';

const run = promisify(execFile);

describe('close', () => {
  it('startEmulator({memory: true}) then close() at once, five times: the process lives on', {
    timeout: 60_000,
  }, async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'test/emulator/fixtures/quick-close.ts'],
      { timeout: 50_000 },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: error.stdout ?? '',
      stderr: `exit ${error.code}: ${error.stderr ?? ''}`,
    }));
    expect(stderr).not.toMatch(/ENOENT|exit/);
    expect(stdout.trim()).toBe('survived');
  });

  it('background work that fails settles with a logged error, not an unhandled rejection', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(
        inBackground(Promise.reject(new Error('receiver gone')), 'webhook delivery'),
      ).resolves.toBeUndefined();
      expect(logged).toHaveBeenCalledWith(
        '[sitekit emulator] webhook delivery failed:',
        expect.objectContaining({ message: 'receiver gone' }),
      );
    } finally {
      logged.mockRestore();
    }
  });
});
