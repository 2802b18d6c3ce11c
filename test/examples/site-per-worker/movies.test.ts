/**
 * The other file of the "one site per test worker" recipe: it writes the same id as `notes.test.ts`,
 * in parallel, and each file still reads only its own item.
 */
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';
import { createSite, type EmulatorSite } from '../../../emulator/index.js';

let site: EmulatorSite;
beforeAll(async () => {
  site = await createSite(inject('emulatorUrl'));
});
afterAll(() => site.remove());

it('writes the same id and reads its own item back', async () => {
  const admin = createClient({
    baseUrl: site.info.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
  });
  await admin.items.insert('Movies', { _id: 'mine', title: 'Only in the movies worker' });
  expect((await admin.items.get('Movies', 'mine'))?.title).toBe('Only in the movies worker');
  // Its own clock: the other file's move is not here.
  expect((await site.clock.now()).offsetSeconds).toBe(0);
});
