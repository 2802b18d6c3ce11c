/**
 * The emulator's write path does the least work per item: one transaction per request, one
 * statement per inserted item (the primary key refuses duplicates), collections and settings read
 * once and kept until they change, and those caches never outlive a rollback or a change made by
 * any statement (reset, import).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  findCollection,
  requireCollection,
  saveCollection,
} from '../../../../emulator/services/data/collection-store.js';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  await emulator.admin.collections.createDataCollection({
    _id: 'Fast',
    permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
  });
});
afterAll(() => emulator?.close());
afterEach(() => vi.restoreAllMocks());

/** Spies on the store's methods; each spy records the SQL it was given. */
function spyOnStore() {
  const { store } = emulator.context;
  return {
    transaction: vi.spyOn(store, 'transaction'),
    run: vi.spyOn(store, 'run'),
    get: vi.spyOn(store, 'get'),
  };
}
const sqlOf = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((call) => String(call[0]));

describe('emulator write path', () => {
  it('a bulk insert is one transaction and one INSERT per item, without a SELECT or savepoint per item', async () => {
    await emulator.admin.items.get('Fast', 'warm-up').catch(() => undefined);
    const spies = spyOnStore();
    const items = Array.from({ length: 20 }, (_, index) => ({ _id: `bulk-${index}`, n: index }));
    const result = await emulator.admin.items.bulkInsert('Fast', items);
    expect(result.insertedItemIds).toHaveLength(20);
    // The request's own transaction; a savepoint per item would be one more call each.
    expect(spies.transaction).toHaveBeenCalledTimes(1);
    expect(sqlOf(spies.run).filter((sql) => sql.startsWith('INSERT INTO items'))).toHaveLength(20);
    expect(sqlOf(spies.get).filter((sql) => sql.includes('FROM items'))).toEqual([]);
  });

  it('an existing id is refused by the primary key: WDE0074 for that entry, the others inserted', async () => {
    await emulator.admin.items.insert('Fast', { _id: 'taken', n: 1 });
    const result = await emulator.admin.items.bulkInsert('Fast', [
      { _id: 'fresh-1', n: 2 },
      { _id: 'taken', n: 3 },
      { _id: 'fresh-2', n: 4 },
    ]);
    expect(result.errors).toEqual([expect.objectContaining({ index: 1, code: 'WDE0074' })]);
    expect(await emulator.admin.items.get('Fast', 'taken')).toMatchObject({ n: 1 });
    expect(await emulator.admin.items.get('Fast', 'fresh-2')).toMatchObject({ n: 4 });
    const single = await emulator.admin.items.insert('Fast', { _id: 'taken', n: 5 }).catch((error: unknown) => error);
    expect(single).toMatchObject({ status: 409, code: 'WDE0074' });
  });

  it('reads the collection and the settings once, not on every request', async () => {
    await emulator.admin.items.get('Fast', 'taken');
    const spies = spyOnStore();
    for (let index = 0; index < 5; index++) await emulator.admin.items.get('Fast', 'taken');
    await emulator.admin.items.insert('Fast', { _id: 'one-more' });
    const reads = sqlOf(spies.get);
    expect(reads.filter((sql) => sql.includes('FROM collections'))).toEqual([]);
    expect(reads.filter((sql) => sql.includes('FROM config'))).toEqual([]);
  });

  it('sees a collection change at once, by the API or by any statement (import, reset)', async () => {
    const { admin } = emulator;
    const current = await admin.collections.getDataCollection('Fast');
    await admin.collections.updateDataCollection({
      ...current,
      permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    const refused = await emulator.visitor.items.get('Fast', 'taken').catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 403, code: 'WDE0027' });

    // Statements of their own, as the control API's import and reset make.
    const { store } = emulator.context;
    const row = store.get<{ id: string; body: string; created_date: string }>(
      'SELECT * FROM collections WHERE id = ?',
      ['Fast'],
    )!;
    store.run('DELETE FROM collections WHERE id = ?', ['Fast']);
    expect(findCollection(store, 'Fast')).toBeUndefined();
    const gone = await admin.items.get('Fast', 'taken').catch((error: unknown) => error);
    expect(gone).toMatchObject({ status: 404, code: 'WDE0025' });
    store.run('INSERT INTO collections (id, body, created_date) VALUES (?, ?, ?)', [
      row.id,
      row.body.replace('"read":"ADMIN"', '"read":"ANYONE"'),
      row.created_date,
    ]);
    expect(await emulator.visitor.items.get('Fast', 'taken')).toMatchObject({ _id: 'taken' });
  });

  it('forgets what a rolled-back transaction wrote, even when it was read inside it', () => {
    const { store } = emulator.context;
    const before = requireCollection(store, 'Movies');
    expect(() =>
      store.transaction(() => {
        saveCollection(store, { ...before, displayName: 'Never committed' });
        expect(requireCollection(store, 'Movies').displayName).toBe('Never committed');
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(requireCollection(store, 'Movies').displayName).toBe(before.displayName);
  });

  it("the request log does not hold a large request body (a bulk write's) until it is read", async () => {
    const items = Array.from({ length: 1000 }, (_, index) => ({ _id: `logged-${index}`, text: 'x'.repeat(100) }));
    await emulator.admin.items.bulkInsert('Fast', items);
    const requests = await emulator.requests({ limit: 1 });
    expect(requests[0]).toMatchObject({ operationId: 'bulkInsertDataItems' });
    expect(requests[0]!.requestBody).toMatch(/^\(\d+ bytes, not kept\)$/);
  });

  it('sees a setting change at once, and never one a rollback undid', async () => {
    const { config, store } = emulator.context;
    expect(config.get<string[]>('allowedCorsOrigins')).toEqual([]);
    config.update({ allowedCorsOrigins: ['https://app.example'] });
    expect(config.get<string[]>('allowedCorsOrigins')).toEqual(['https://app.example']);
    expect(() =>
      store.transaction(() => {
        config.update({ allowedCorsOrigins: ['https://other.example'] });
        expect(config.get<string[]>('allowedCorsOrigins')).toEqual(['https://other.example']);
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(config.get<string[]>('allowedCorsOrigins')).toEqual(['https://app.example']);
    config.update({ allowedCorsOrigins: [] });
  });
});
