/**
 * Snapshots are per site (issue 30, the held-out bar): a site's snapshot is listed on that site
 * only, and its restore brings back that site's items and members as saved while other sites,
 * the default one included, keep what they hold (`npm run bench -- snapshots` measures the time).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { EmulatorSite } from '../../../emulator/index.js';
import { ApiKeyStrategy, createClient, isApplicationError } from '../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
let first: EmulatorSite;
let second: EmulatorSite;
beforeAll(async () => {
  emulator = await startEmulator();
  first = await emulator.createSite({ from: 'demo' });
  second = await emulator.createSite({ from: 'demo' });
});
afterAll(() => emulator?.close());

/** An elevated client of a site. */
const adminOf = (site: { info: { url: string; apiKey: string; siteId: string } }) =>
  createClient({
    baseUrl: site.info.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
    retry: false,
  });

/** A site's movies and members, as an elevated client reads them. */
async function contents(site: { info: { url: string; apiKey: string; siteId: string } }) {
  const admin = adminOf(site);
  const movies = (await admin.items.query('Movies').find()).items;
  const members = (await admin.members.queryMembers({ fieldsets: ['FULL'] }).find()).items;
  return { movies, members };
}

it("restores one site's items and members as saved, and leaves the other sites alone", async () => {
  const saved = await contents(first);
  await first.snapshots.save('per-site');
  expect((await first.snapshots.list()).map((snapshot) => snapshot.name)).toEqual(['per-site']);
  // Another site's snapshots are its own: none there, and the name is unknown to it.
  expect(await second.snapshots.list()).toEqual([]);
  expect(await emulator.snapshots.list()).toEqual([]);

  const firstAdmin = adminOf(first);
  await firstAdmin.items.insert('Movies', { _id: 'after-save', title: 'After the save' });
  await firstAdmin.members.deleteMember(saved.members[0]!._id!);
  await adminOf(second).items.insert('Movies', { _id: 'second-only', title: 'Second site' });
  await emulator.admin.items.insert('Movies', { _id: 'default-only', title: 'Default site' });
  const secondBefore = await contents(second);
  const defaultBefore = await contents(emulator);

  await first.snapshots.restore('per-site');
  expect(await contents(first)).toEqual(saved);
  expect(await contents(second)).toEqual(secondBefore);
  expect(await contents(emulator)).toEqual(defaultBefore);

  const unknown = await second.snapshots.restore('per-site').catch((error: unknown) => error);
  expect(isApplicationError(unknown) && [unknown.status, unknown.code]).toEqual([404, 'SNAPSHOT_NOT_FOUND']);
});
