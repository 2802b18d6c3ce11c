/**
 * `sitePool`, checked where the emulator starts (the CLI's `--site-pool` too, in
 * test/cli/emulator-command.test.ts): a size that is not a whole number from 0 to 64 is refused
 * before anything is opened, instead of a pool that would make a million key pairs.
 */
import { expect, it } from 'vitest';
import { startEmulator } from '../../../emulator/index.js';

it.each([-1, 1.5, 65, Number.NaN, 1_000_000])(
  'startEmulator refuses sitePool %s, saying what it takes',
  async (size) => {
    await expect(startEmulator({ port: 0, memory: true, sitePool: size })).rejects.toThrow(
      `sitePool must be a whole number from 0 to 64 (got ${size})`,
    );
  },
);

it('takes 0 and 64', async () => {
  for (const size of [0, 64]) {
    const emulator = await startEmulator({ port: 0, memory: true, sitePool: size });
    await emulator.close();
  }
});
