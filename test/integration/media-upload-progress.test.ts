/**
 * A simple upload (one PUT, under the resumable threshold) reports progress as its bytes go out,
 * not only 0 % and 100 %: on Node by streaming the body (in browsers through XMLHttpRequest,
 * covered by the browser tests). A caller's own fetch still sends it as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, type UploadProgress } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const FIVE_MIB = 5 * 1024 * 1024;
const patterned = (size: number) => Uint8Array.from({ length: size }, (_, index) => (index * 31) % 251);

/** Uploads `data` in one PUT and returns the progress it reported. */
async function progressOf(data: Blob | Uint8Array, client = emulator.admin): Promise<UploadProgress[]> {
  const reports: UploadProgress[] = [];
  const file = await client.media.upload(data, {
    mimeType: 'application/octet-stream',
    fileName: 'progress.bin',
    resumable: false,
    onProgress: (progress) => reports.push(progress),
  });
  expect(file.sizeInBytes).toBe(String(FIVE_MIB));
  // The streamed body arrives as it was (a piece lost, repeated or reordered keeps the size).
  const stored = new Uint8Array(await (await fetch(file.url!)).arrayBuffer());
  expect(Buffer.compare(stored, patterned(FIVE_MIB))).toBe(0);
  return reports;
}

describe('simple upload progress', () => {
  for (const [kind, make] of [
    ['bytes', () => patterned(FIVE_MIB)],
    ['a Blob', () => new Blob([patterned(FIVE_MIB)])],
  ] as const) {
    it(`reports the bytes of ${kind} as they go out, increasing, from 0 to the total`, async () => {
      const reports = await progressOf(make());
      const loaded = reports.map((report) => report.loaded);
      expect(loaded[0]).toBe(0);
      expect(loaded.at(-1)).toBe(FIVE_MIB);
      expect(reports.every((report) => report.total === FIVE_MIB)).toBe(true);
      expect(loaded.filter((value) => value > 0 && value < FIVE_MIB).length).toBeGreaterThan(10);
      expect([...loaded].sort((left, right) => left - right)).toEqual(loaded);
      expect(new Set(loaded).size).toBe(loaded.length);
    });
  }

  it("sends through the caller's own fetch as it is: only the start and the end", async () => {
    const bodies: unknown[] = [];
    const client = createClient({
      baseUrl: emulator.url,
      auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
      fetch: (input, init) => {
        if (init?.method === 'PUT') bodies.push(init.body);
        return fetch(input, init);
      },
    });
    const reports = await progressOf(patterned(FIVE_MIB), client);
    expect(reports.map((report) => report.loaded)).toEqual([0, FIVE_MIB]);
    expect(bodies[0]).toBeInstanceOf(Uint8Array);
  });
});
