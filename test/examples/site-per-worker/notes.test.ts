/**
 * README.md's "one site per test worker" recipe: each test file (vitest runs files in parallel
 * workers) makes its own site in the one emulator of the global setup, so the files never see each
 * other's data, clock or fault rules. `movies.test.ts` does the same with the same ids, at the same
 * time.
 */
// README:start
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';
import { createSite, type EmulatorSite } from '../../../emulator/index.js';

let site: EmulatorSite;
beforeAll(async () => {
  // This worker's own site, made from the demo template: its data, clock, fault rules, request log.
  site = await createSite(inject('emulatorUrl'), { from: 'demo' });
});
afterAll(() => site.remove());

const admin = () =>
  createClient({
    baseUrl: site.info.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
  });

it('writes an item no other worker sees', async () => {
  await admin().items.insert('Movies', { _id: 'mine', title: 'Only in this worker' });
  expect((await admin().items.get('Movies', 'mine'))?.title).toBe('Only in this worker');
});

it("moves this site's clock and faults this site only", async () => {
  await site.clock.advance(3600);
  await site.faults.add({ operation: 'items.query', status: 503, times: 1 });
  const page = await admin().items.query('Movies').find(); // retried by the client
  expect(page.items.length).toBeGreaterThan(0);
});
// README:end
