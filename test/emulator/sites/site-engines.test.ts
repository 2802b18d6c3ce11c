/**
 * Sites on every storage engine that loads here, in-process (`createEmulator()`, no socket), and
 * kept on disk: a restart opens the sites made before it, with their data and keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, startEmulator, type EmulatorSite } from '../../../emulator/index.js';
import { ENGINE_NAMES } from '../../../emulator/store/engine-names.js';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';
import { engineIfAvailable, testEngine, testEngineHoldsFiles } from '../../helpers/engine.js';

const available = (
  await Promise.all(ENGINE_NAMES.map(async (name) => ((await engineIfAvailable(name)) ? name : undefined)))
).filter((name) => name !== undefined);

const directory = mkdtempSync(join(tmpdir(), 'sitekit-sites-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The site's API-key client, through `fetch` when given (an in-process emulator's). */
const adminOf = (site: EmulatorSite, fetch?: typeof globalThis.fetch) =>
  createClient({
    baseUrl: site.info.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
    ...(fetch ? { fetch } : {}),
  });

describe.each(available)('on %s', (engine) => {
  it('a demo site and an empty one, each with its own data', async () => {
    const emulator = await startEmulator({ port: 0, memory: true, engine });
    try {
      const [demo, empty] = await Promise.all([emulator.createSite(), emulator.createSite({ from: 'empty' })]);
      expect(demo.info.engine).toBe(engine);
      await adminOf(demo).items.insert('Movies', { _id: 'extra', title: 'Extra' });
      const defaultAdmin = createClient({
        baseUrl: emulator.url,
        auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
      });
      const defaultCount = await defaultAdmin.items.query('Movies').count();
      expect(await adminOf(demo).items.query('Movies').count()).toBe(defaultCount + 1);
      expect((await adminOf(empty).collections.listDataCollections()).collections).toEqual([]);
    } finally {
      await emulator.close();
    }
  });
});

describe('in-process', () => {
  it('createEmulator().createSite() makes a site served through emulator.fetch', async () => {
    const emulator = await createEmulator({ engine: testEngine });
    try {
      const site = await emulator.createSite();
      const admin = adminOf(site, emulator.fetch);
      await admin.items.insert('Movies', { _id: 'in-process', title: 'In process' });
      expect((await admin.items.get('Movies', 'in-process'))?.title).toBe('In process');
      await site.clock.advance(60);
      expect((await site.clock.now()).offsetSeconds).toBe(60);
      expect((await emulator.clock.now()).offsetSeconds).toBe(0);
      await site.remove();
    } finally {
      await emulator.close();
    }
  });
});

describe.runIf(await testEngineHoldsFiles())('on disk', () => {
  it('a restart keeps the sites made before it: same ids, keys and data', async () => {
    const dataDir = join(directory, 'restart');
    const first = await startEmulator({ port: 0, dataDir, engine: testEngine });
    const site = await first.createSite();
    await adminOf(site).items.insert('Movies', { _id: 'kept', title: 'Kept' });
    await first.close();

    const second = await startEmulator({ port: 0, dataDir, engine: testEngine });
    try {
      expect(second.info.siteId).toBe(first.info.siteId);
      const { sites } = await second.control.call('listSites');
      expect(sites.map((listed) => listed.siteId)).toContain(site.info.siteId);
      const admin = createClient({
        baseUrl: second.url,
        auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
      });
      expect((await admin.items.get('Movies', 'kept'))?.title).toBe('Kept');
      await second.control.call('deleteSite', { params: { siteId: site.info.siteId } });
    } finally {
      await second.close();
    }
    const third = await startEmulator({ port: 0, dataDir, engine: testEngine });
    try {
      expect((await third.control.call('listSites')).sites).toHaveLength(1);
    } finally {
      await third.close();
    }
  });
});
