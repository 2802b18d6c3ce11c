/**
 * `--seed` / `startEmulator({seed})`: a seed file that is missing or not JSON stops the start with a
 * message naming the file, also when the data folder already holds a site (where the seed would not
 * be applied), instead of being ignored.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../helpers/emulator.js';

const folder = mkdtempSync(join(tmpdir(), 'sitekit-seed-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the seed file', () => {
  it('is refused when missing, naming it', async () => {
    await expect(startEmulator({ seed: join(folder, 'missing.json') })).rejects.toThrow(
      `seed file ${join(folder, 'missing.json')}: no such file`,
    );
  });

  it('is refused when missing even if the data folder already holds a site', async () => {
    const dataDir = join(folder, 'data');
    const first = await startEmulator({ memory: false, dataDir });
    await first.close();
    await expect(startEmulator({ memory: false, dataDir, seed: join(folder, 'gone.json') })).rejects.toThrow(
      'gone.json: no such file',
    );
  });

  it('is refused when it is not JSON', async () => {
    const broken = join(folder, 'broken.json');
    writeFileSync(broken, '{"collections": [');
    await expect(startEmulator({ seed: broken })).rejects.toThrow(`seed file ${broken} is not JSON`);
  });
});
