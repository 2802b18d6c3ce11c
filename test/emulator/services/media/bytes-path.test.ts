/**
 * Where a media file's bytes live: always a file inside the emulator's media folder, whatever id an
 * imported or seeded state gives it (`.` and `..` would otherwise name the folder or its parent).
 */
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesPath } from '../../../../emulator/services/media/file-store.js';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

describe('bytesPath', () => {
  it('keeps every id inside the media folder, as a name of its own', () => {
    const folder = dirname(bytesPath(emulator.context, 'plain-id'));
    for (const id of ['.', '..', '...', '../escape', '/etc/passwd', 'a\\b', ''])
      expect(dirname(bytesPath(emulator.context, id)), id).toBe(folder);
    expect(bytesPath(emulator.context, '..')).not.toBe(bytesPath(emulator.context, 'plain-id'));
    expect(bytesPath(emulator.context, '..')).not.toBe(folder);
    expect(bytesPath(emulator.context, '.')).not.toBe(folder);
  });
});
