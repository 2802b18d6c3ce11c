/**
 * The official data client (`@wix/data`, unmodified) against the emulator: collections, items
 * CRUD and bulk, every filter operator with its results, offset and cursor paging, aggregate,
 * distinct, references (include with a limit, get, query-referenced with cursors), and a visitor's
 * permissions.
 */
import { collections, items } from '@wix/data';
import { beforeAll, describe, expect, it } from 'vitest';
import { requestOf, useOfficialHarness } from './harness.js';

const harness = useOfficialHarness();
const OPEN = { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } as const;

let admin: any;
beforeAll(async () => {
  admin = harness.admin({ items, collections });
  await admin.collections.createDataCollection({
    _id: 'Things',
    permissions: OPEN,
    fields: [
      { key: 'name', type: 'TEXT' },
      { key: 'n', type: 'NUMBER' },
      { key: 'tags', type: 'ARRAY' },
    ],
  });
  await admin.items.bulkInsert('Things', [
    { _id: 'a', name: 'Apple', n: 5, tags: ['fruit', 'red'], day: new Date('2024-01-02T00:00:00Z') },
    { _id: 'b', name: 'banana', n: 10, tags: ['fruit', 'yellow'], day: new Date('2024-03-01T00:00:00Z') },
    { _id: 'c', name: 'Cherry pie', n: -1, tags: ['sweet'], extra: null },
    { _id: 'd', name: 'date', n: 7 },
    { _id: 'e', n: 2.5, tags: [] },
  ]);
});

const ids = (found: { items: { _id: string }[] }) => found.items.map((item) => item._id).sort();
const things = () => admin.items.query('Things');

describe('collections', () => {
  it('create, get, list, delete', async () => {
    const created = await admin.collections.createDataCollection({
      _id: 'Scratch',
      fields: [{ key: 'x', type: 'TEXT' }],
    });
    expect(created._id).toBe('Scratch');
    expect((await admin.collections.getDataCollection('Scratch'))._id).toBe('Scratch');
    const list = await admin.collections.listDataCollections();
    expect(list.collections.map((collection: { _id: string }) => collection._id)).toEqual(
      expect.arrayContaining(['Scratch', 'Things']),
    );
    await admin.collections.deleteDataCollection('Scratch');
    await expect(admin.collections.getDataCollection('Scratch')).rejects.toBeDefined();
  });
});

describe('items', () => {
  it('insert, get, update, save, remove', async () => {
    const inserted = await admin.items.insert('Things', { _id: 'x1', name: 'Extra', n: 1 });
    expect(inserted).toMatchObject({ _id: 'x1', name: 'Extra', n: 1 });
    expect(inserted._createdDate).toBeInstanceOf(Date);
    expect(await admin.items.get('Things', 'x1')).toMatchObject({ name: 'Extra' });
    expect(await admin.items.update('Things', { _id: 'x1', name: 'Changed', n: 2 })).toMatchObject({ name: 'Changed' });
    expect(await admin.items.save('Things', { _id: 'x1', name: 'Saved', n: 3 })).toMatchObject({ name: 'Saved' });
    await admin.items.remove('Things', 'x1');
    expect(await admin.items.get('Things', 'x1')).toBeNull();
  });

  it('count, patch, truncate', async () => {
    expect(await things().gt('n', 0).count()).toBe(4);
    await admin.collections.createDataCollection({ _id: 'Counters', permissions: OPEN });
    await admin.items.insert('Counters', { _id: 'k', hits: 1, label: 'old' });
    const patched = await admin.items.patch('Counters', 'k').incrementField('hits', 2).setField('label', 'new').run();
    expect(patched).toMatchObject({ _id: 'k', hits: 3, label: 'new' });
    await admin.items.truncate('Counters');
    expect(await admin.items.query('Counters').count()).toBe(0);
  });

  it('bulk insert, update, save, remove', async () => {
    const inserted = await admin.items.bulkInsert('Things', [
      { _id: 'y1', n: 1 },
      { _id: 'y2', n: 2 },
    ]);
    expect(inserted).toMatchObject({ inserted: 2 });
    expect(await admin.items.bulkUpdate('Things', [{ _id: 'y1', n: 11 }])).toMatchObject({ updated: 1 });
    expect(
      await admin.items.bulkSave('Things', [
        { _id: 'y2', n: 22 },
        { _id: 'y3', n: 3 },
      ]),
    ).toMatchObject({
      inserted: 1,
      updated: 1,
    });
    expect(await admin.items.bulkRemove('Things', ['y1', 'y2', 'y3'])).toMatchObject({ removed: 3 });
    expect(await admin.items.get('Things', 'y3')).toBeNull();
  });
});

describe('every filter operator, with its results', () => {
  const cases: [string, () => any, string[]][] = [
    ['eq', () => things().eq('n', 5), ['a']],
    ['ne', () => things().ne('n', 5), ['b', 'c', 'd', 'e']],
    ['gt', () => things().gt('n', 5), ['b', 'd']],
    ['ge', () => things().ge('n', 5), ['a', 'b', 'd']],
    ['lt', () => things().lt('n', 2.5), ['c']],
    ['le', () => things().le('n', 2.5), ['c', 'e']],
    ['between', () => things().between('n', 2.5, 7), ['a', 'e']],
    ['startsWith, ignoring case', () => things().startsWith('name', 'a'), ['a']],
    ['endsWith, ignoring case', () => things().endsWith('name', 'PIE'), ['c']],
    ['contains, ignoring case', () => things().contains('name', 'AN'), ['b']],
    ['hasSome', () => things().hasSome('tags', ['red', 'sweet']), ['a', 'c']],
    ['hasAll', () => things().hasAll('tags', ['fruit', 'yellow']), ['b']],
    ['in', () => things().in('n', [5, 7]), ['a', 'd']],
    ['exists', () => things().exists('tags', false), ['d']],
    ['isEmpty', () => things().isEmpty('name'), ['e']],
    ['isNotEmpty', () => things().isNotEmpty('extra'), []],
    ['dates', () => things().gt('day', new Date('2024-02-01T00:00:00Z')), ['b']],
    ['or', () => things().eq('n', 5).or(admin.items.filter().eq('n', 7)), ['a', 'd']],
    ['and', () => things().gt('n', 0).and(admin.items.filter().lt('n', 6)), ['a', 'e']],
    ['not', () => things().not(admin.items.filter().gt('n', 0)), ['c']],
  ];
  it.each(cases)('%s', async (_, query, expected) => {
    expect(ids(await query().find())).toEqual(expected);
  });
});

describe('paging', () => {
  it('offset paging: limit, skip, next, totalCount', async () => {
    const first = await things().ascending('n').limit(2).find({ returnTotalCount: true });
    expect(first.items.map((item: { _id: string }) => item._id)).toEqual(['c', 'e']);
    expect(first.totalCount).toBe(5);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items.map((item: { _id: string }) => item._id)).toEqual(['a', 'd']);
    const skipped = await things().ascending('n').skip(4).find();
    expect(skipped.items.map((item: { _id: string }) => item._id)).toEqual(['b']);
    expect(skipped.hasNext()).toBe(false);
  });

  it('a query given as an object: paging and its metadata (the official client turns cursorPaging without a cursor into offset paging; query-referenced is the call that starts cursors, below)', async () => {
    const page = await admin.items.query('Things', {
      sort: [{ fieldName: 'n', order: 'ASC' }],
      paging: { limit: 2, offset: 2 },
    });
    expect(page.items.map((item: { _id: string }) => item._id)).toEqual(['a', 'd']);
    expect(page.pagingMetadata).toMatchObject({ count: 2, offset: 2, hasNext: true });
  });
});

describe('aggregate and distinct', () => {
  it('aggregate: groups come back with _id unwrapped by the official client', async () => {
    await admin.collections.createDataCollection({ _id: 'Sales', permissions: OPEN });
    await admin.items.bulkInsert('Sales', [
      { region: 'north', year: 2023, amount: 10 },
      { region: 'north', year: 2024, amount: 20 },
      { region: 'south', year: 2024, amount: 5 },
    ]);
    const one = await admin.items.aggregate('Sales').group('region').sum('amount').count().ascending('region').run();
    expect(one.items).toEqual([
      { _id: 'north', amountSum: 30, count: 2 },
      { _id: 'south', amountSum: 5, count: 1 },
    ]);
    const two = await admin.items
      .aggregate('Sales')
      .group('region', 'year')
      .max('amount')
      .descending('amountMax')
      .run();
    expect(two.items[0]).toEqual({ _id: { region: 'north', year: 2024 }, amountMax: 20 });
    const filtered = await admin.items
      .aggregate('Sales')
      .filter(admin.items.filter().gt('amount', 6))
      .group('year')
      .count()
      .having(admin.items.filter().gt('count', 0))
      .ascending('year')
      .run();
    expect(filtered.items).toEqual([
      { _id: 2023, count: 1 },
      { _id: 2024, count: 1 },
    ]);
  });

  it('distinct values, with a filter', async () => {
    const tags = await admin.items.distinct('Things', 'tags');
    expect(tags.values).toEqual(['fruit', 'red', 'sweet', 'yellow']);
    const positive = await admin.items.distinct('Things', 'n', { filter: { n: { $gt: 4 } } });
    expect(positive.values).toEqual([5, 7, 10]);
    const paged = await admin.items.distinct('Things', 'n', { paging: { limit: 2, offset: 1 } });
    expect(paged.values).toEqual([2.5, 5]);
    expect(paged.pagingMetadata).toMatchObject({ count: 2, hasNext: true });
  });
});

describe('references', () => {
  beforeAll(async () => {
    await admin.collections.createDataCollection({ _id: 'Actors', permissions: OPEN });
    await admin.collections.createDataCollection({
      _id: 'Films',
      permissions: OPEN,
      fields: [
        { key: 'title', type: 'TEXT' },
        { key: 'lead', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Actors' } } },
        {
          key: 'cast',
          type: 'MULTI_REFERENCE',
          typeMetadata: { multiReference: { referencedCollectionId: 'Actors' } },
        },
      ],
    });
    await admin.items.bulkInsert(
      'Actors',
      ['ann', 'bob', 'cy', 'dee'].map((id) => ({ _id: id, name: id.toUpperCase() })),
    );
    await admin.items.insert('Films', { _id: 'f1', title: 'One', lead: 'ann' });
    await admin.items.insert('Films', { _id: 'f2', title: 'Two', lead: 'bob' });
    await admin.items.insertReference('Films', 'cast', 'f1', ['ann', 'bob', 'cy', 'dee']);
    await admin.items.insertReference('Films', 'cast', 'f2', ['cy']);
  });

  it('isReferenced, and query include(field, limit): at most limit items per item', async () => {
    expect(await admin.items.isReferenced('Films', 'cast', 'f1', 'cy')).toBe(true);
    const found = await admin.items.query('Films').eq('_id', 'f1').include('cast', 2).find();
    expect(found.items[0].cast.map((actor: { _id: string }) => actor._id)).toEqual(['ann', 'bob']);
    const all = await admin.items.query('Films').eq('_id', 'f1').include('cast', 'lead').find();
    expect(all.items[0].cast).toHaveLength(4);
    expect(all.items[0].lead).toMatchObject({ _id: 'ann', name: 'ANN' });
  });

  it('get with includeReferences resolves them as the query does', async () => {
    const film = await admin.items.get('Films', 'f1', {
      includeReferences: [{ field: 'cast', limit: 3 }, { field: 'lead' }],
    });
    expect(film.cast.map((actor: { _id: string }) => actor._id)).toEqual(['ann', 'bob', 'cy']);
    expect(film.lead).toMatchObject({ _id: 'ann', name: 'ANN' });
  });

  it('queryReferencedItems (referringItemIds, plural) with cursor paging', async () => {
    const first = await admin.items.queryReferencedItems('Films', 'f1', 'cast', { cursorPaging: { limit: 3 } });
    expect(first.results.map((result: { item: { _id: string } }) => result.item._id)).toEqual(['ann', 'bob', 'cy']);
    expect(first.results[0].referringItemId).toBe('f1');
    const cursor = first.pagingMetadata.cursors.next;
    expect(typeof cursor).toBe('string');
    const rest = await admin.items.queryReferencedItems('Films', 'f1', 'cast', { cursorPaging: { limit: 3, cursor } });
    expect(rest.results.map((result: { item: { _id: string } }) => result.item._id)).toEqual(['dee']);
    expect(rest.pagingMetadata.cursors?.next).toBeUndefined();
    const sent = harness.sent.filter((request) => request.path.endsWith('/items/query-referenced'));
    expect(sent[0]!.body).toMatchObject({ referringItemIds: ['f1'], cursorPaging: { limit: 3 } });
  });

  it('queryReferencedItems of several referring items, offset paging', async () => {
    const page = await admin.items.queryReferencedItems('Films', ['f1', 'f2'], 'cast', { paging: { limit: 10 } });
    expect(page.results.map((result: any) => [result.referringItemId, result.item._id])).toEqual([
      ['f1', 'ann'],
      ['f1', 'bob'],
      ['f1', 'cy'],
      ['f1', 'dee'],
      ['f2', 'cy'],
    ]);
  });

  it('queryReferenced (the deprecated form): pages through next()', async () => {
    const first = await admin.items.queryReferenced('Films', 'f1', 'cast', { limit: 3 });
    expect(first.items.map((actor: { _id: string }) => actor._id)).toEqual(['ann', 'bob', 'cy']);
    expect(first.hasNext()).toBe(true);
    const next = await first.next();
    expect(next.items.map((actor: { _id: string }) => actor._id)).toEqual(['dee']);
  });
});

describe('a visitor', () => {
  it('reads an ANYONE collection, is refused an ADMIN one and writes to neither', async () => {
    await admin.collections.createDataCollection({
      _id: 'Private',
      permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    await admin.collections.createDataCollection({
      _id: 'ReadOnly',
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    await admin.items.insert('ReadOnly', { _id: 'r1', v: 1 });
    const visitor: any = harness.visitor({ items });
    expect(ids(await visitor.items.query('ReadOnly').find())).toEqual(['r1']);
    await expect(visitor.items.query('Private').find()).rejects.toMatchObject({
      details: { applicationError: { code: 'WDE0027' } },
    });
    await expect(visitor.items.insert('ReadOnly', { v: 2 })).rejects.toMatchObject({
      details: { applicationError: { code: 'WDE0027' } },
    });
  });

  it('queries go out as the official client sends them (GET with .r)', async () => {
    harness.sent.length = 0;
    await things().eq('n', 5).find();
    expect(harness.sent[0]).toMatchObject({ method: 'GET', path: '/wix-data/v2/items/query' });
    expect(requestOf(harness.sent[0]!).query.filter).toEqual({ n: 5 });
  });
});
