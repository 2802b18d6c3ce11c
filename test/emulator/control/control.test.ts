/** The control API (reset, export/import, request log, seed file), events after commit, console files, CORS. */
import { get } from 'node:http';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../../emulator/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

const scratch = mkdtempSync(join(tmpdir(), 'sitekit-control-'));
const consoleDir = join(scratch, 'console');
mkdirSync(join(consoleDir, 'assets'), { recursive: true });
writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(join(consoleDir, 'assets', 'app-1234.js'), 'console.log("app")');

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ consoleDir });
});
afterAll(async () => {
  await emulator?.close();
  rmSync(scratch, { recursive: true, force: true });
});
const json = { 'content-type': 'application/json' };

describe('demo data', () => {
  it('Movies: 300 items of varied types, readable by anyone', async () => {
    const visitor = emulator.newVisitor();
    expect(await visitor.items.query('Movies').count()).toBe(300);
    const years = await visitor.items.query('Movies').limit(1000).distinct('year');
    expect(years.items.length).toBeGreaterThan(50);
    const [movie] = (await visitor.items.query('Movies').eq('_id', 'movie-001').find()).items;
    expect(movie).toMatchObject({
      title: expect.any(String),
      year: expect.any(Number),
      genres: expect.any(Array),
      inColor: expect.any(Boolean),
      details: { language: 'en' },
    });
    expect(movie!.releaseDate).toBeInstanceOf(Date);
    expect(await visitor.items.query('Movies').isEmpty('budget').count()).toBe(60);
  });
});

describe('reset, export, import', () => {
  it('export then import restores the state; reset brings back the demo data', async () => {
    const { admin } = emulator;
    await admin.collections.createDataCollection({
      _id: 'Kept',
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    await admin.items.insert('Kept', { _id: 'k1', when: new Date('2022-02-02T00:00:00Z') });
    const exported = await (await emulator.fetch('/_emulator/export')).json();
    expect(exported.format).toBe('sitekit-emulator-state');

    const reset = await emulator.fetch('/_emulator/reset', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ seed: false }),
    });
    expect(await reset.json()).toEqual({ reset: true, seeded: false });
    expect((await admin.collections.listDataCollections()).collections).toEqual([]);

    const imported = await emulator.fetch('/_emulator/import', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(exported),
    });
    expect(imported.status).toBe(200);
    expect(await admin.items.get('Kept', 'k1')).toMatchObject({ when: new Date('2022-02-02T00:00:00Z') });
    expect(await admin.items.query('Movies').count()).toBe(300);

    await emulator.fetch('/_emulator/reset', { method: 'POST', headers: json, body: '{}' });
    expect(await admin.items.query('Movies').count()).toBe(300);
    expect((await admin.collections.listDataCollections()).collections!.map((collection) => collection._id)).toEqual([
      'Movies',
    ]);
  });

  it('a malformed import is refused and changes nothing', async () => {
    const response = await emulator.fetch('/_emulator/import', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ tables: { nope: [], items: [{ bogus: 1 }] } }),
    });
    expect(response.status).toBe(400);
    const fields = (await response.json()).details.validationError.fieldViolations.map(
      (violation: { field: string }) => violation.field,
    );
    // The row also lacks every column an item needs.
    expect(fields).toEqual([
      'tables.items.0.bogus',
      'tables.items.0.collection_id',
      'tables.items.0.created_date',
      'tables.items.0.data',
      'tables.items.0.id',
      'tables.nope',
    ]);
    expect(await emulator.admin.items.query('Movies').count()).toBe(300);
  });

  it('a --seed file is loaded on first start instead of the demo data', async () => {
    const exported = await (await emulator.fetch('/_emulator/export')).json();
    exported.items.Movies = exported.items.Movies.slice(0, 3);
    const seedFile = join(scratch, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(exported));
    const seeded = await startEmulator({ seed: seedFile });
    try {
      expect(await seeded.admin.items.query('Movies').count()).toBe(3);
    } finally {
      await seeded.close();
    }
  });
});

describe('the export, version 2: the platform entities', () => {
  /** Every item of every collection, as the SDK reads them, by collection. */
  const allItems = async (client: TestEmulator['admin']) => {
    const { collections = [] } = await client.collections.listDataCollections();
    const items: Record<string, unknown[]> = {};
    for (const { _id } of collections)
      items[_id!] = (await client.items.query(_id!).ascending('_id').limit(1000).find()).items;
    return items;
  };

  it('holds items as objects per collection, no table or column names; a fresh emulator imports it with items equal', async () => {
    await emulator.admin.items.insert('Movies', { _id: 'exported-1', title: 'Exported', when: new Date(0) });
    const exported = await (await emulator.fetch('/_emulator/export')).json();
    expect(exported.version).toBeGreaterThanOrEqual(2);
    expect(exported.tables).toBeUndefined();
    expect(exported.items.Movies.find((item: { _id: string }) => item._id == 'exported-1')).toMatchObject({
      _id: 'exported-1',
      title: 'Exported',
      when: { $date: '1970-01-01T00:00:00.000Z' },
    });
    const text = JSON.stringify(exported);
    for (const column of ['collection_id', 'created_date', 'login_email', 'password_hash', 'referring_id'])
      expect(text).not.toContain(`"${column}"`);
    expect(exported.collections.map((collection: { id: string }) => collection.id)).toEqual(['Movies']);
    expect(exported.members.length).toBeGreaterThan(0);
    expect(exported.files.length).toBeGreaterThan(0);

    const fresh = await startEmulator();
    try {
      await fresh.reset({ seed: false });
      const imported = await fresh.control.call('importState', { body: exported });
      expect(imported.entities).toMatchObject({ collections: 1, members: exported.members.length });
      expect(await allItems(fresh.admin)).toEqual(await allItems(emulator.admin));
      const member = exported.members[0] as { id: string };
      expect((await fresh.admin.members.getMember(member.id))._id).toBe(member.id);
    } finally {
      await fresh.close();
      await emulator.admin.items.remove('Movies', 'exported-1');
    }
  });

  it('a version 1 file (tables of rows) still imports', async () => {
    const fixture = JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/state-version-1.json'), 'utf8'));
    const other = await startEmulator();
    try {
      expect((await other.control.call('importState', { body: fixture })).tables).toMatchObject({ items: 10 });
      expect(await other.admin.items.query('Movies').count()).toBe(10);
      expect((await other.control.call('exportState')).items.Movies).toHaveLength(10);
    } finally {
      await other.close();
    }
  });

  it('an item the store cannot keep is refused naming it, and nothing changes', async () => {
    const exported = await emulator.control.call('exportState');
    exported.items.Movies![2] = { title: 'no id' };
    const refused = await emulator.fetch('/_emulator/import', {
      method: 'POST',
      headers: json,
      body: JSON.stringify(exported),
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).details.validationError.fieldViolations[0].field).toBe('items.Movies.2._id');
    expect(await emulator.admin.items.query('Movies').count()).toBe(300);
  });
});

describe('request log', () => {
  it('lists requests newest first with method, path, status, duration and caller', async () => {
    await emulator.admin.items.get('Movies', 'movie-002');
    await emulator.fetch('/wix-data/v2/collections');
    const { requests } = await (await emulator.fetch('/_emulator/requests?limit=2')).json();
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/wix-data/v2/collections', status: 401 });
    // The request named no caller it could prove: the refusal says why instead.
    expect(requests[0].caller).toBeUndefined();
    expect(requests[0].decision).toMatchObject({ allowed: false, rule: '401 UNAUTHENTICATED' });
    expect(requests[1]).toMatchObject({
      method: 'GET',
      path: '/wix-data/v2/items/movie-002',
      operationId: 'get',
      status: 200,
      caller: { kind: 'elevated', authenticated: true },
      durationMs: expect.any(Number),
    });
  });
});

describe('domain events', () => {
  it('are handed to listeners after the write commits, never for a refused write', async () => {
    const seen: DomainEvent[] = [];
    let removed: () => void = () => undefined;
    const removal = new Promise<void>((resolve) => (removed = resolve));
    const unsubscribe = emulator.context.events.subscribe((event) => {
      seen.push(event);
      if (event.eventType == 'wix.data.v2.data_item_deleted') removed();
    });
    try {
      await emulator.admin.items.insert('Movies', { _id: 'evented', title: 'Events' });
      await emulator.admin.items.insert('Movies', { _id: 'evented' }).catch(() => undefined);
      await emulator.admin.items.remove('Movies', 'evented');
      // Listeners get events in commit order: an event of the refused write would be before this one.
      await removal;
      expect(seen.map((event) => event.eventType)).toEqual([
        'wix.data.v2.data_item_created',
        'wix.data.v2.data_item_deleted',
      ]);
      expect(seen[0]).toMatchObject({
        entityId: 'evented',
        createdEvent: { entity: { id: 'evented', dataCollectionId: 'Movies', data: { title: 'Events' } } },
        identity: { identityType: 'APP' },
      });
    } finally {
      unsubscribe();
    }
  });
});

describe('http details', () => {
  it('x-wix-consistent on writes; CORS for browser apps', async () => {
    const write = await emulator.fetch('/wix-data/v2/items', {
      method: 'POST',
      headers: { ...json, authorization: emulator.info.apiKey },
      body: JSON.stringify({ dataCollectionId: 'Movies', dataItem: { data: { title: 'c' } } }),
    });
    expect(write.headers.get('x-wix-consistent')).toMatch(/^\d+$/);
    const preflight = await emulator.fetch('/wix-data/v2/items/query', {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,x-wix-bi-gateway',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
  });

  it('CORS stops at this machine: a website may not read /_emulator/info; another local page neither, unless its origin is named', async () => {
    const from = (origin: string) => emulator.fetch('/_emulator/info', { headers: { origin } });
    expect((await from('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    expect((await from('http://127.0.0.1:3000')).headers.get('access-control-allow-origin')).toBeNull();
    await emulator.fetch('/_emulator/config', {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ config: { controlOrigins: ['http://127.0.0.1:3000'] } }),
    });
    try {
      expect((await from('http://127.0.0.1:3000')).headers.get('access-control-allow-origin')).toBe(
        'http://127.0.0.1:3000',
      );
    } finally {
      await emulator.fetch('/_emulator/config', {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ config: { controlOrigins: [] } }),
      });
    }
  });

  it('serves the built console: files with their types, index.html for client routes, 404 for missing files', async () => {
    const asset = await emulator.fetch('/assets/app-1234.js');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const route = await emulator.fetch('/collections/Movies');
    expect(route.headers.get('content-type')).toContain('text/html');
    expect(await route.text()).toContain('<title>console</title>');
    expect((await emulator.fetch('/missing.png')).status).toBe(404);
    // A path that climbs out of the console directory never reads the file it names (sent raw: fetch would normalise it).
    const climbed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      get(`${emulator.url}/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fld.so.conf`, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      }).on('error', reject);
    });
    expect(climbed).toEqual({ status: 404, body: 'Not Found' });
  });
});
