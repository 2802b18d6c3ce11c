/**
 * Many sites in one emulator (issue 30): sites made on demand from the demo template or empty,
 * each found as the platform finds it (API key and `wix-site-id`, a token's site, a client id),
 * each with its own data, clock, fault rules and request log; a key or token of one site refused on
 * another; the default site as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorSite } from '../../../emulator/index.js';
import { ApiKeyStrategy, OAuthStrategy, createClient, isApplicationError } from '../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { callJson } from '../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** An elevated client of a site. */
const adminOf = (info: { url: string; apiKey: string; siteId: string }) =>
  createClient({ baseUrl: info.url, auth: ApiKeyStrategy({ apiKey: info.apiKey, siteId: info.siteId }), retry: false });

/** A request of the token endpoint as any client sends it (JSON, no credentials); the site is found by its client id. */
const tokenRequest = (body: Record<string, unknown>) => callJson(emulator, 'POST', '/oauth2/token', { body });

/** A raw call of the platform API with an API key and a site id. */
const countMovies = (apiKey: string, siteId?: string) =>
  emulator.fetch('/wix-data/v2/items/count', {
    method: 'POST',
    headers: {
      authorization: apiKey,
      'content-type': 'application/json',
      ...(siteId ? { 'wix-site-id': siteId } : {}),
    },
    body: JSON.stringify({ dataCollectionId: 'Movies' }),
  });

describe('sites on demand', () => {
  it('POST /_emulator/sites answers 201 with the connection details; GET lists it; DELETE removes it', async () => {
    const made = await emulator.fetch('/_emulator/sites', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: 'empty' }),
    });
    expect(made.status).toBe(201);
    const info = (await made.json()) as {
      siteId: string;
      apiKey: string;
      clientId: string;
      publicKey: string;
      url: string;
    };
    expect(info).toEqual({
      siteId: expect.any(String),
      apiKey: expect.stringMatching(/^emulator\./),
      clientId: expect.any(String),
      publicKey: expect.stringContaining('BEGIN PUBLIC KEY'),
      url: emulator.url,
      engine: emulator.info.engine,
    });
    expect(info.siteId).not.toBe(emulator.info.siteId);
    expect(info.apiKey).not.toBe(emulator.info.apiKey);
    expect(info.publicKey).not.toBe(emulator.info.publicKey);

    const { sites } = await emulator.control.call('listSites');
    expect(sites[0]).toEqual({ siteId: emulator.info.siteId, default: true });
    expect(sites).toContainEqual({ siteId: info.siteId, default: false });

    // An empty site has no collections; the default site still has the demo's.
    expect((await adminOf(info).collections.listDataCollections()).collections).toEqual([]);
    expect((await emulator.admin.collections.listDataCollections()).collections!.length).toBeGreaterThan(0);

    await emulator.control.call('deleteSite', { params: { siteId: info.siteId } });
    expect((await emulator.control.call('listSites')).sites.map((site) => site.siteId)).not.toContain(info.siteId);
    // Its key now reaches no site.
    expect((await countMovies(info.apiKey, info.siteId)).status).toBe(404);
  });

  it('the default site cannot be deleted; an unknown site is a 404, for DELETE and for x-sitekit-site', async () => {
    const deleteDefault = await emulator.fetch(`/_emulator/sites/${emulator.info.siteId}`, {
      method: 'DELETE',
      headers: { 'x-sitekit-emulator': '1' },
    });
    expect(deleteDefault.status).toBe(409);
    const deleteUnknown = await emulator.fetch('/_emulator/sites/no-such-site', {
      method: 'DELETE',
      headers: { 'x-sitekit-emulator': '1' },
    });
    expect(deleteUnknown.status).toBe(404);
    const unknownHeader = await emulator.fetch('/_emulator/clock', { headers: { 'x-sitekit-site': 'no-such-site' } });
    expect(unknownHeader.status).toBe(404);
    expect(await unknownHeader.json()).toMatchObject({
      details: { applicationError: { code: 'SITE_NOT_FOUND' } },
    });
  });

  it('8 sites made at once from the demo template have distinct ids and keys, and the demo data', async () => {
    const sites = await Promise.all(Array.from({ length: 8 }, () => emulator.createSite({ from: 'demo' })));
    try {
      for (const key of ['siteId', 'apiKey', 'clientId', 'publicKey'] as const)
        expect(new Set([emulator.info[key], ...sites.map((site) => site.info[key])]).size).toBe(9);
      const demoCount = await emulator.admin.items.query('Movies').count();
      for (const site of sites) expect(await adminOf(site.info).items.query('Movies').count()).toBe(demoCount);
    } finally {
      await Promise.all(sites.map((site) => site.remove()));
    }
  });

  it('8 parallel clients each see only their own writes', async () => {
    const sites = await Promise.all(Array.from({ length: 8 }, () => emulator.createSite({ from: 'empty' })));
    try {
      await Promise.all(
        sites.map(async (site, index) => {
          const admin = adminOf(site.info);
          await admin.collections.createDataCollection({ _id: 'Notes', fields: [{ key: 'text', type: 'TEXT' }] });
          for (let note = 0; note <= index; note++)
            await admin.items.insert('Notes', { text: `site ${index} note ${note}` });
        }),
      );
      for (const [index, site] of sites.entries()) {
        const { items } = await adminOf(site.info).items.query('Notes').find();
        expect(items).toHaveLength(index + 1);
        expect(items.every((item) => String(item.text).startsWith(`site ${index} `))).toBe(true);
      }
      await expect(emulator.admin.items.query('Notes').find()).rejects.toSatisfy(isApplicationError);
    } finally {
      await Promise.all(sites.map((site) => site.remove()));
    }
  });
});

describe('a site is found as the platform finds it', () => {
  let site: EmulatorSite;
  beforeAll(async () => {
    site = await emulator.createSite();
  });
  afterAll(() => site?.remove());

  it("a site's API key with its own site id (or none) reaches it; with another site's id it is refused", async () => {
    expect((await countMovies(site.info.apiKey, site.info.siteId)).status).toBe(200);
    expect((await countMovies(site.info.apiKey)).status).toBe(200);
    const crossed = await countMovies(site.info.apiKey, emulator.info.siteId);
    expect(crossed.status).toBe(403);
    expect(await crossed.json()).toMatchObject({ details: { applicationError: { code: 'PERMISSION_DENIED' } } });
    expect((await countMovies(emulator.info.apiKey, site.info.siteId)).status).toBe(403);
  });

  it('an API-key client with a site id no site has is refused, not answered from the default site', async () => {
    const response = await countMovies(emulator.info.apiKey, 'no-such-site');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: 'SITE_NOT_FOUND' } } });
    const client = createClient({
      baseUrl: emulator.url,
      auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: 'no-such-site' }),
      retry: false,
    });
    await expect(client.items.query('Movies').find()).rejects.toSatisfy(isApplicationError);
  });

  it("a visitor of a site's OAuth client works on that site; its token is refused with another site's id", async () => {
    const visitor = createClient({ baseUrl: emulator.url, auth: OAuthStrategy({ clientId: site.info.clientId }) });
    const admin = adminOf(site.info);
    await admin.items.insert('Movies', { title: 'Only on the new site' });
    // Movies are readable by anyone: the visitor reads this site's, with the new title.
    const { items } = await visitor.items.query('Movies').eq('title', 'Only on the new site').find();
    expect(items).toHaveLength(1);
    const token = visitor.auth.getTokens().accessToken.value;
    const crossed = await emulator.fetch('/wix-data/v2/items/count', {
      method: 'POST',
      headers: { authorization: token, 'wix-site-id': emulator.info.siteId, 'content-type': 'application/json' },
      body: JSON.stringify({ dataCollectionId: 'Movies' }),
    });
    expect(crossed.status).toBe(403);
    // Its refresh token with the default site's client: unknown there.
    const refresh = await tokenRequest({
      clientId: emulator.info.clientId,
      grantType: 'refresh_token',
      refreshToken: visitor.auth.getTokens().refreshToken.value,
    });
    expect(refresh.status).toBe(400);
  });

  it("a fault rule, a clock move and the request log of one site leave another's alone", async () => {
    await site.faults.add({ operation: 'count', status: 503 });
    await site.clock.advance(3600);
    try {
      expect((await countMovies(site.info.apiKey, site.info.siteId)).status).toBe(503);
      expect((await countMovies(emulator.info.apiKey, emulator.info.siteId)).status).toBe(200);
      expect((await site.clock.now()).offsetSeconds).toBe(3600);
      expect((await emulator.clock.now()).offsetSeconds).toBe(0);
      const siteLog = await site.requests({ operationId: 'count' });
      const defaultLog = await emulator.requests({ operationId: 'count' });
      expect(siteLog[0]?.status).toBe(503);
      expect(defaultLog[0]?.status).toBe(200);
      expect(await emulator.faults.list()).toEqual([]);
    } finally {
      await site.faults.clear();
      await site.clock.reset();
    }
  });

  it("a site's snapshots are its own: a restore brings back its items and leaves the other sites alone", async () => {
    const admin = adminOf(site.info);
    await admin.items.insert('Movies', { _id: 'snapped', title: 'As saved' });
    await site.snapshots.save('before');
    expect((await site.snapshots.list()).map((snapshot) => snapshot.name)).toContain('before');
    expect(await emulator.snapshots.list()).toEqual([]);
    await admin.items.update('Movies', { _id: 'snapped', title: 'Changed' });
    await emulator.admin.items.insert('Movies', { _id: 'default-only', title: 'On the default site' });
    await site.snapshots.restore('before');
    expect((await admin.items.get('Movies', 'snapped'))?.title).toBe('As saved');
    expect((await emulator.admin.items.get('Movies', 'default-only'))?.title).toBe('On the default site');
    await site.snapshots.remove('before');
    await emulator.admin.items.remove('Movies', 'default-only');
  });

  it("a site's storageState: its cookie on the site's path, as the emulator sets it; its tokens renew through the site's client", async () => {
    const state = await site.storageState({ email: 'ada@example.com' }, { appOrigin: 'http://localhost:5173' });
    expect(state.cookies[0]?.path).toBe(`/_sites/${site.info.siteId}`);
    const defaultState = await emulator.storageState({ email: 'ada@example.com' });
    expect(defaultState.cookies[0]?.path).toBe('/');
    const tokens = JSON.parse(state.origins[0]!.localStorage[0]!.value);
    const renewed = await tokenRequest({
      clientId: site.info.clientId,
      grantType: 'refresh_token',
      refreshToken: tokens.refreshToken.value,
    });
    expect(renewed.status).toBe(200);
  });

  it("a token request finds its site by the client id in its body: that site's fault rules apply to it, not another's", async () => {
    const grant = (clientId: string) => tokenRequest({ clientId, grantType: 'anonymous' });
    await site.faults.add({ path: '/oauth2/token', status: 503, times: 1 });
    try {
      expect((await grant(emulator.info.clientId)).status).toBe(200);
      expect((await grant(site.info.clientId)).status).toBe(503);
      expect((await grant(site.info.clientId)).status).toBe(200);
      // Newest first: the two of this test, in this site's log.
      const logged = await site.requests({ path: '/oauth2/token', limit: 2 });
      expect(logged.map((entry) => entry.status)).toEqual([200, 503]);
    } finally {
      await site.faults.clear();
    }
  });
});
