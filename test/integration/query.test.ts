/**
 * The filter language, sorting and paging against the emulator, through the SDK's query builder:
 * each operator and composition form against hand-checked results on a small fixture.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;

/** The fixture: ids a..f, chosen so that each operator's type rules show. */
const THINGS = [
  { _id: 'a', name: 'Apple', n: 5, tags: ['red', 'fruit'], when: new Date('2020-01-01T00:00:00Z'), flag: true },
  { _id: 'b', name: 'apple pie', n: '5', tags: ['sweet'], when: new Date('2021-06-15T12:00:00Z'), flag: false },
  { _id: 'c', name: 'Banana', n: 10, tags: ['yellow', 'fruit'], flag: true, extra: null },
  { _id: 'd', name: 'Text', n: 2.5, tags: [], note: '' },
  { _id: 'e', name: 'text', n: -1, when: new Date('2019-12-31T00:00:00Z') },
  { _id: 'f', n: 7, address: { city: 'Lisbon' } },
];

beforeAll(async () => {
  emulator = await startEmulator();
  await emulator.admin.collections.createDataCollection({
    _id: 'Things',
    permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
  });
  const result = await emulator.admin.items.bulkInsert('Things', THINGS);
  expect(result.inserted).toBe(THINGS.length);
});
afterAll(() => emulator?.close());

const things = () => emulator.admin.items.query('Things');
const filter = () => emulator.admin.items.filter();
/** The ids a query finds, sorted, so the test states the set. */
const ids = async (query: { find(): Promise<{ items: { _id: string }[] }> }) =>
  (await query.find()).items.map((item) => item._id).sort();

describe('each operator, type-exact', () => {
  it.each([
    ['eq number does not match the string "5"', () => things().eq('n', 5), ['a']],
    ['eq string does not match the number 5', () => things().eq('n', '5'), ['b']],
    ['eq on an array field matches an element', () => things().eq('tags', 'fruit'), ['a', 'c']],
    ['eq boolean', () => things().eq('flag', true), ['a', 'c']],
    ['ne keeps items without the field', () => things().ne('name', 'Apple'), ['b', 'c', 'd', 'e', 'f']],
    ['ne on an array field: no element equal', () => things().ne('tags', 'fruit'), ['b', 'd', 'e', 'f']],
    ['gt number ignores strings', () => things().gt('n', 4), ['a', 'c', 'f']],
    ['ge', () => things().ge('n', 5), ['a', 'c', 'f']],
    ['lt', () => things().lt('n', 5), ['d', 'e']],
    ['le', () => things().le('n', 5), ['a', 'd', 'e']],
    ['gt string by code unit ("Text" < "text")', () => things().gt('name', 'Text'), ['b', 'e']],
    ['contains, case-insensitive', () => things().contains('name', 'APP'), ['a', 'b']],
    ['startsWith, case-insensitive', () => things().startsWith('name', 'te'), ['d', 'e']],
    ['endsWith, case-insensitive', () => things().endsWith('name', 'PIE'), ['b']],
    ['hasSome', () => things().hasSome('tags', ['fruit', 'sweet']), ['a', 'b', 'c']],
    ['hasSome is case-sensitive', () => things().hasSome('tags', ['Fruit']), []],
    ['hasAll', () => things().hasAll('tags', ['red', 'fruit']), ['a']],
    ['in', () => things().in('n', [5, 10]), ['a', 'c']],
    ['isEmpty: missing or null', () => things().isEmpty('note'), ['a', 'b', 'c', 'e', 'f']],
    ['isNotEmpty counts the empty string', () => things().isNotEmpty('note'), ['d']],
    ['exists true tests presence, even of null', () => things().exists('extra', true), ['c']],
    ['exists false', () => things().exists('when', false), ['c', 'd', 'f']],
    ['dates compare chronologically', () => things().gt('when', new Date('2020-01-01T00:00:00Z')), ['b']],
    [
      'between dates (upper bound excluded)',
      () => things().between('when', new Date('2019-12-31T00:00:00Z'), new Date('2021-06-15T12:00:00Z')),
      ['a', 'e'],
    ],
    ['eq date', () => things().eq('when', new Date('2020-01-01T00:00:00Z')), ['a']],
    ['nested field', () => things().eq('address.city', 'Lisbon'), ['f']],
  ] as const)('%s', async (_name, build, expected) => {
    expect(await ids(build() as never)).toEqual(expected);
  });
});

describe('composition', () => {
  it('merges plain conditions on different fields', async () => {
    expect(await ids(things().eq('flag', true).gt('n', 6))).toEqual(['c']);
  });
  it('keeps two conditions on one field apart ($and)', async () => {
    expect(await ids(things().gt('n', 0).lt('n', 6))).toEqual(['a', 'd']);
  });
  it('or', async () => {
    expect(await ids(things().eq('name', 'Apple').or(filter().eq('name', 'Banana')))).toEqual(['a', 'c']);
  });
  it('a conjunction or-ed with another condition', async () => {
    expect(await ids(things().eq('flag', true).gt('n', 6).or(filter().eq('n', -1)))).toEqual(['c', 'e']);
  });
  it('not keeps items where the negated condition is unknown', async () => {
    expect(await ids(things().not(filter().eq('flag', true)))).toEqual(['b', 'd', 'e', 'f']);
  });
  it('not with another condition', async () => {
    expect(await ids(things().not(filter().eq('flag', true)).gt('n', 0))).toEqual(['d', 'f']);
  });
  it('and of filters', async () => {
    expect(await ids(things().and(filter().hasSome('tags', ['fruit']), filter().lt('n', 6)))).toEqual(['a']);
  });
  it('accepts the raw wire forms: $not as an object and as an array of one, nested $and/$or', async () => {
    const raw = async (wireFilter: Record<string, unknown>) =>
      (await emulator.admin.items.query('Things', { filter: wireFilter })).items.map((item) => item._id).sort();
    expect(await raw({ $not: { flag: true } })).toEqual(['b', 'd', 'e', 'f']);
    expect(await raw({ $not: [{ flag: true }] })).toEqual(['b', 'd', 'e', 'f']);
    expect(await raw({ $or: [{ $and: [{ n: { $gt: 0 } }, { n: { $lt: 6 } }] }, { name: 'Banana' }] })).toEqual([
      'a',
      'c',
      'd',
    ]);
  });
});

describe('sorting', () => {
  const order = async (query: { find(): Promise<{ items: { _id: string }[] }> }) =>
    (await query.find()).items.map((item) => item._id);
  it('numbers before strings, ascending', async () => {
    expect(await order(things().ascending('n'))).toEqual(['e', 'd', 'a', 'f', 'c', 'b']);
  });
  it('items without the field rank lowest (ties by _id)', async () => {
    expect(await order(things().ascending('when'))).toEqual(['c', 'd', 'f', 'e', 'a', 'b']);
    expect(await order(things().descending('when'))).toEqual(['b', 'a', 'e', 'c', 'd', 'f']);
  });
  it('strings by code unit', async () => {
    expect(await order(things().isNotEmpty('name').ascending('name'))).toEqual(['a', 'c', 'd', 'b', 'e']);
  });
  it('several keys apply in order', async () => {
    expect(await order(things().descending('flag').ascending('n').limit(3))).toEqual(['a', 'c', 'b']);
  });
});

describe('paging', () => {
  it('offset paging: pages, hasNext, totalCount, next and prev', async () => {
    const first = await things().ascending('n').limit(4).find({ returnTotalCount: true });
    expect(first.items.map((item) => item._id)).toEqual(['e', 'd', 'a', 'f']);
    expect(first.totalCount).toBe(6);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(second.items.map((item) => item._id)).toEqual(['c', 'b']);
    expect(second.hasNext()).toBe(false);
    expect((await second.prev()).items.map((item) => item._id)).toEqual(['e', 'd', 'a', 'f']);
  });

  it('all() walks every page', async () => {
    const seen: string[] = [];
    for await (const item of things().ascending('n').limit(2).all()) seen.push(item._id);
    expect(seen).toEqual(['e', 'd', 'a', 'f', 'c', 'b']);
  });

  it('cursor paging: the next cursor alone carries the query', async () => {
    const first = await emulator.admin.items.query('Things', {
      filter: { n: { $gt: 0 } },
      sort: [{ fieldName: 'n', order: 'DESC' }],
      cursorPaging: { limit: 2 },
    });
    expect(first.items.map((item) => item._id)).toEqual(['c', 'f']);
    expect(first.pagingMetadata).toMatchObject({ count: 2, hasNext: true, cursors: { next: expect.any(String) } });
    const second = await emulator.admin.items.query('Things', {
      cursorPaging: { limit: 2, cursor: first.pagingMetadata!.cursors!.next! },
    });
    expect(second.items.map((item) => item._id)).toEqual(['a', 'd']);
    expect(second.pagingMetadata).toMatchObject({ hasNext: false });
  });

  it('the official client GET form (.r=) answers like the POST form', async () => {
    const request = {
      dataCollectionId: 'Things',
      query: { filter: { flag: true }, sort: [{ fieldName: 'n', order: 'ASC' }], paging: { limit: 1 } },
    };
    const response = await emulator.fetch(
      `/wix-data/v2/items/query?.r=${Buffer.from(JSON.stringify(request)).toString('base64url')}`,
      { headers: { authorization: emulator.info.apiKey } },
    );
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.dataItems.map((item: { id: string }) => item.id)).toEqual(['a']);
    expect(body.pagingMetadata).toEqual({ count: 1, offset: 0, hasNext: true });
  });

  it('without a sort, newest first, ties by _id', async () => {
    await emulator.admin.collections.createDataCollection({
      _id: 'Ordered',
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    for (const id of ['x1', 'x2', 'x3']) {
      await emulator.admin.items.insert('Ordered', { _id: id });
      await emulator.clock.advance(1); // each one a second later, without waiting
    }
    await emulator.clock.reset();
    expect((await emulator.admin.items.query('Ordered').find()).items.map((item) => item._id)).toEqual([
      'x3',
      'x2',
      'x1',
    ]);
  });
});

describe('count, distinct, aggregate', () => {
  it('count with a filter', async () => {
    expect(await things().hasSome('tags', ['fruit']).count()).toBe(2);
    expect(await emulator.admin.items.count('Things', { filter: { n: { $gt: 0 } } })).toBe(4);
  });

  it('distinct values, array elements included, type-exact', async () => {
    const tags = await things().distinct('tags');
    expect(tags.items).toEqual(['fruit', 'red', 'sweet', 'yellow']);
    const numbers = await things().distinct('n');
    expect(numbers.items).toEqual([-1, 2.5, 5, 7, 10, '5']);
  });

  it('distinct, direct form: filter, order and paging', async () => {
    const first = await emulator.admin.items.distinct('Things', 'tags', {
      filter: { flag: true },
      paging: { limit: 2 },
    });
    expect(first.items).toEqual(['fruit', 'red']);
    expect(first.hasNext()).toBe(true);
    expect((await first.next()).items).toEqual(['yellow']);
    const descending = await emulator.admin.items.distinct('Things', 'name', { order: 'DESC', paging: { limit: 2 } });
    expect(descending.items).toEqual(['text', 'apple pie']);
  });

  it('aggregate: several grouping fields, paging with hasNext on the wire', async () => {
    const page = await emulator.admin.items
      .aggregate('Things')
      .filter(filter().exists('flag', true))
      .group('flag', 'n')
      .count()
      .descending('flag')
      .ascending('n')
      .limit(2)
      .run();
    expect(page.items).toEqual([
      { flag: true, n: 5, count: 1, _id: { flag: true, n: 5 } },
      { flag: true, n: 10, count: 1, _id: { flag: true, n: 10 } },
    ]);
    const body = {
      dataCollectionId: 'Things',
      aggregation: {
        groupingFields: ['flag'],
        operations: [{ resultFieldName: 'total', sum: { itemFieldName: 'n' } }],
      },
      sort: [{ fieldName: 'total', order: 'DESC' }],
      paging: { limit: 1 },
      returnTotalCount: true,
    };
    const response = await emulator.fetch('/wix-data/v2/items/aggregate', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // Groups: flag true (5 + 10), missing flag (2.5 - 1 + 7; "5" is not a number), flag false (no numbers).
    expect(await response.json()).toEqual({
      // The group's values wrapped in _id, as the service sends them (the official client's unwrapAggregationId reads this).
      results: [{ _id: { flag: true }, total: 15 }],
      pagingMetadata: { count: 1, offset: 0, total: 3, tooManyToCount: false, hasNext: true },
    });
  });

  it('get with fields returns only those (and _id)', async () => {
    const response = await emulator.fetch('/wix-data/v2/items/a?dataCollectionId=Things&fields=name', {
      headers: { authorization: emulator.info.apiKey },
    });
    expect((await response.json()).dataItem).toEqual({
      id: 'a',
      dataCollectionId: 'Things',
      data: { _id: 'a', name: 'Apple' },
    });
  });

  it('aggregate: group, operations, final filter, sort', async () => {
    const movies = emulator.admin.items.aggregate('Movies');
    const result = await movies
      .group('director')
      .count()
      .avg('rating')
      .having(filter().gt('count', 29))
      .descending('count')
      .run();
    expect(result.items.length).toBeGreaterThan(0);
    for (const row of result.items) expect(row.count as number).toBeGreaterThan(29);
    const total = await emulator.admin.items.aggregate('Movies').count().sum('year').run();
    expect(total.items[0]).toMatchObject({ count: 300 });
  });
});
