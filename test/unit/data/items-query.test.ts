/** items.query builder: the exact wire encoding of every method, terminals, direct forms, immutability, bad input. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { BASE, capturePosts, useNock } from '../../helpers/capture.js';
import { isRequestError, RequestError } from '../../../src/errors/index.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();
const items = client.items;

const capture = (path: string, reply: object = {}) => capturePosts(path, reply);

useNock();

/** The filter a builder puts on the wire. */
async function filterOf(q: { find(): Promise<unknown> }) {
  const { bodies } = capture('/wix-data/v2/items/query', { dataItems: [] });
  await q.find();
  return bodies[0].query.filter;
}

describe('filter operators: one wire encoding each', () => {
  const q = () => items.query('Movies');
  const d = new Date('1975-06-20T00:00:00.000Z');
  const cases: [string, () => { find(): Promise<unknown> }, unknown][] = [
    ['eq', () => q().eq('year', 1975), { year: 1975 }],
    ['ne', () => q().ne('year', 1975), { year: { $ne: 1975 } }],
    ['gt', () => q().gt('year', 1975), { year: { $gt: 1975 } }],
    ['ge', () => q().ge('year', 1975), { year: { $gte: 1975 } }],
    ['gte', () => q().gte('year', 1975), { year: { $gte: 1975 } }],
    ['lt', () => q().lt('year', 1975), { year: { $lt: 1975 } }],
    ['le', () => q().le('year', 1975), { year: { $lte: 1975 } }],
    ['lte', () => q().lte('year', 1975), { year: { $lte: 1975 } }],
    [
      'between: two conditions on one field',
      () => q().between('year', 1970, 1980),
      { $and: [{ year: { $gte: 1970 } }, { year: { $lt: 1980 } }] },
    ],
    ['contains', () => q().contains('title', 'aw'), { title: { $contains: 'aw' } }],
    ['startsWith', () => q().startsWith('title', 'Ja'), { title: { $startsWith: 'Ja' } }],
    ['endsWith', () => q().endsWith('title', 'ws'), { title: { $endsWith: 'ws' } }],
    ['hasSome (varargs)', () => q().hasSome('tags', 'a', 'b'), { tags: { $hasSome: ['a', 'b'] } }],
    ['hasSome (array)', () => q().hasSome('tags', ['a', 'b']), { tags: { $hasSome: ['a', 'b'] } }],
    ['hasAll', () => q().hasAll('tags', ['a', 'b']), { tags: { $hasAll: ['a', 'b'] } }],
    ['in', () => q().in('year', [1975, 1977]), { year: { $in: [1975, 1977] } }],
    ['exists true', () => q().exists('poster', true), { poster: { $exists: true } }],
    ['exists false', () => q().exists('poster', false), { poster: { $exists: false } }],
    ['isEmpty: null (missing or null)', () => q().isEmpty('poster'), { poster: null }],
    ['isNotEmpty: $ne null', () => q().isNotEmpty('poster'), { poster: { $ne: null } }],
    ['Date value → $date', () => q().lt('released', d), { released: { $lt: { $date: '1975-06-20T00:00:00.000Z' } } }],
    [
      'Date in between → $date',
      () => q().between('released', d, d),
      { $and: [{ released: { $gte: { $date: d.toISOString() } } }, { released: { $lt: { $date: d.toISOString() } } }] },
    ],
    ['two conditions on distinct fields → one object', () => q().eq('a', 1).gt('b', 2), { a: 1, b: { $gt: 2 } }],
    [
      'two conditions on one field → $and',
      () => q().gt('a', 1).lt('a', 2),
      { $and: [{ a: { $gt: 1 } }, { a: { $lt: 2 } }] },
    ],
    ['and(filter builder)', () => q().eq('a', 1).and(items.filter().eq('b', 2)), { a: 1, b: 2 }],
    ['and(plain object)', () => q().and({ b: { $gt: 2 } }), { b: { $gt: 2 } }],
    ['or', () => q().eq('a', 1).or(items.filter().eq('b', 2)), { $or: [{ a: 1 }, { b: 2 }] }],
    [
      'or on an empty query',
      () => q().or(items.filter().eq('b', 2), items.filter().eq('c', 3)),
      { $or: [{}, { b: 2 }, { c: 3 }] },
    ],
    ['or with a query', () => q().eq('a', 1).or(items.query('Movies').eq('b', 2)), { $or: [{ a: 1 }, { b: 2 }] }],
    [
      'not: an array of one filter',
      () => q().eq('a', 1).not(items.filter().eq('b', 2)),
      { $and: [{ a: 1 }, { $not: [{ b: 2 }] }] },
    ],
    ['nested path', () => q().eq('director.name', 'Spielberg'), { 'director.name': 'Spielberg' }],
  ];
  it.each(cases)('%s', async (_, build, filter) => {
    expect(await filterOf(build())).toEqual(filter);
  });

  it('no condition: no filter on the wire', async () => {
    const { bodies } = capture('/wix-data/v2/items/query', { dataItems: [] });
    await items.query('Movies').find();
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', query: {} });
  });
});

describe('sort, paging, projection', () => {
  const body = async (q: { find(o?: object): Promise<unknown> }, options?: object) => {
    const { bodies } = capture('/wix-data/v2/items/query', { dataItems: [] });
    await q.find(options);
    return bodies[0];
  };

  it('ascending/descending take several fields, in call order', async () => {
    const b = await body(items.query('Movies').ascending('year', 'title').descending('rating'));
    expect(b.query.sort).toEqual([
      { fieldName: 'year', order: 'ASC' },
      { fieldName: 'title', order: 'ASC' },
      { fieldName: 'rating', order: 'DESC' },
    ]);
  });

  it('limit → paging {limit, offset: 0}', async () => {
    expect((await body(items.query('Movies').limit(10))).query.paging).toEqual({ limit: 10, offset: 0 });
  });

  it('skip alone → paging {offset}', async () => {
    expect((await body(items.query('Movies').skip(20))).query.paging).toEqual({ offset: 20 });
  });

  it('skip(0) and no limit → no paging', async () => {
    expect((await body(items.query('Movies').skip(0))).query).toEqual({});
  });

  it('fields → query.fields; include → includeReferences', async () => {
    const b = await body(items.query('Movies').fields('title', 'year').include('director'));
    expect(b.query.fields).toEqual(['title', 'year']);
    expect(b.includeReferences).toEqual([{ field: 'director' }]);
  });

  it('include(...fields, limit): the limit on each of those fields; later calls add to earlier ones', async () => {
    const b = await body(items.query('Movies').include('actors', 'crew', 2).include('director'));
    expect(b.includeReferences).toEqual([
      { field: 'actors', limit: 2 },
      { field: 'crew', limit: 2 },
      { field: 'director' },
    ]);
    expect(() => items.query('Movies').include('actors', 0)).toThrow(RequestError);
  });

  it('the whole body, with find options at the top level and call options off the wire', async () => {
    const b = await body(
      items.query('Movies').eq('year', 1975).descending('title').limit(5).skip(10).fields('title').include('director'),
      {
        consistentRead: true,
        returnTotalCount: true,
        timeoutMs: 5000,
        signal: new AbortController().signal,
      },
    );
    expect(b).toEqual({
      dataCollectionId: 'Movies',
      query: {
        filter: { year: 1975 },
        sort: [{ fieldName: 'title', order: 'DESC' }],
        paging: { limit: 5, offset: 10 },
        fields: ['title'],
      },
      includeReferences: [{ field: 'director' }],
      consistentRead: true,
      returnTotalCount: true,
    });
  });

  it('find() returns public items (ids, $date → Date)', async () => {
    capture('/wix-data/v2/items/query', {
      dataItems: [
        {
          id: 'a',
          dataCollectionId: 'Movies',
          data: { _id: 'a', title: 'Jaws', released: { $date: '1975-06-20T00:00:00.000Z' } },
        },
      ],
      pagingMetadata: { count: 1, offset: 0, total: 1 },
    });
    const page = await items.query('Movies').find();
    expect(page.items).toEqual([{ _id: 'a', title: 'Jaws', released: new Date('1975-06-20T00:00:00.000Z') }]);
  });
});

describe('terminals count() and distinct()', () => {
  it('count() sends {dataCollectionId, filter} and resolves the number', async () => {
    const { bodies } = capture('/wix-data/v2/items/count', { totalCount: 7 });
    expect(await items.query('Movies').gt('year', 1970).count({ consistentRead: true })).toBe(7);
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', filter: { year: { $gt: 1970 } }, consistentRead: true });
  });

  it('distinct(field) sends {dataCollectionId, fieldName, filter, order, paging} and pages the values', async () => {
    const { bodies } = capture('/wix-data/v2/items/query-distinct-values', {
      distinctValues: ['Drama', 'Horror', { $date: '2020-01-01T00:00:00.000Z' }],
      pagingMetadata: { count: 3, total: 3 },
    });
    const r = await items.query('Movies').gt('year', 1970).ascending('genre').limit(10).distinct('genre');
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      fieldName: 'genre',
      filter: { year: { $gt: 1970 } },
      order: 'ASC',
      paging: { limit: 10, offset: 0 },
    });
    expect(r.items).toEqual(['Drama', 'Horror', new Date('2020-01-01T00:00:00.000Z')]);
    expect(r.totalCount).toBe(3);
  });
});

describe('direct forms', () => {
  it('query(collectionId, {filter, sort, paging, fields}) → {items, pagingMetadata}', async () => {
    const meta = { count: 1, offset: 0, total: 9 };
    const { bodies } = capture('/wix-data/v2/items/query', {
      dataItems: [{ id: 'a', data: { _id: 'a', n: 1 } }],
      pagingMetadata: meta,
    });
    const r = await items.query('Movies', {
      filter: { released: { $gt: new Date('2000-01-01T00:00:00.000Z') } },
      sort: [{ fieldName: 'n', order: 'ASC' }],
      paging: { limit: 1, offset: 0 },
      fields: ['n'],
    });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      query: {
        filter: { released: { $gt: { $date: '2000-01-01T00:00:00.000Z' } } },
        sort: [{ fieldName: 'n', order: 'ASC' }],
        paging: { limit: 1, offset: 0 },
        fields: ['n'],
      },
    });
    expect(r).toEqual({ items: [{ _id: 'a', n: 1 }], pagingMetadata: meta });
  });

  it('query(collectionId, {filter: builder, cursorPaging})', async () => {
    const { bodies } = capture('/wix-data/v2/items/query', {});
    const r = await items.query('Movies', {
      filter: items.filter().eq('a', 1),
      cursorPaging: { limit: 2, cursor: 'c1' },
    });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      query: { filter: { a: 1 }, cursorPaging: { limit: 2, cursor: 'c1' } },
    });
    expect(r).toEqual({ items: [], pagingMetadata: undefined });
  });

  it('count(collectionId, {filter}) takes a plain filter or a builder', async () => {
    const { bodies } = capture('/wix-data/v2/items/count', { totalCount: 3 });
    expect(await items.count('Movies', { filter: items.filter().eq('a', 1) })).toBe(3);
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', filter: { a: 1 } });
    const second = capture('/wix-data/v2/items/count', { totalCount: 0 });
    expect(await items.count('Movies')).toBe(0);
    expect(second.bodies[0]).toEqual({ dataCollectionId: 'Movies' });
  });

  it('distinct(collectionId, field, {filter, paging})', async () => {
    const { bodies } = capture('/wix-data/v2/items/query-distinct-values', {
      distinctValues: [1975],
      pagingMetadata: { total: 1 },
    });
    const r = await items.distinct('Movies', 'year', { filter: { a: 1 }, paging: { limit: 5, offset: 5 } });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      fieldName: 'year',
      filter: { a: 1 },
      paging: { limit: 5, offset: 5 },
    });
    expect([...r]).toEqual([1975]);
    expect(r.currentPage).toBe(1);
  });
});

describe('items.filter()', () => {
  it('builds a standalone filter', () => {
    expect(items.filter().eq('a', 1).toFilter()).toEqual({ a: 1 });
    expect(items.filter().toFilter()).toEqual({});
    expect(items.filter().eq('a', 1).or(items.filter().eq('b', 2)).not({ c: 3 }).toFilter()).toEqual({
      $and: [{ $or: [{ a: 1 }, { b: 2 }] }, { $not: [{ c: 3 }] }],
    });
  });
});

describe('immutability', () => {
  it('every builder method returns a new builder; the old one is unchanged', async () => {
    const base = items.query('Movies').eq('a', 1);
    const narrower = base.gt('b', 2).limit(3).ascending('a');
    expect(narrower).not.toBe(base);
    expect(base.toFilter()).toEqual({ a: 1 });
    expect(narrower.toFilter()).toEqual({ a: 1, b: { $gt: 2 } });
    const { bodies } = capture('/wix-data/v2/items/query', { dataItems: [] });
    await base.find();
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', query: { filter: { a: 1 } } });
  });

  it('branches from one builder do not share state', () => {
    const f = items.filter().eq('a', 1);
    const x = f.eq('b', 2);
    const y = f.eq('c', 3);
    expect(x.toFilter()).toEqual({ a: 1, b: 2 });
    expect(y.toFilter()).toEqual({ a: 1, c: 3 });
  });

  it('never mutates the caller’s values', async () => {
    const date = new Date('2000-01-01T00:00:00.000Z');
    const tags = Object.freeze(['a', 'b']);
    const filter = Object.freeze({ when: Object.freeze({ $gt: date }) });
    const query = Object.freeze({
      filter,
      sort: Object.freeze([Object.freeze({ fieldName: 'a', order: 'ASC' as const })]),
    });
    capture('/wix-data/v2/items/query', { dataItems: [] });
    capture('/wix-data/v2/items/query', { dataItems: [] });
    await items.query('Movies').hasSome('tags', tags).and(filter).find();
    await items.query('Movies', query);
    expect(tags).toEqual(['a', 'b']);
    expect(filter.when.$gt).toBe(date);
    expect(date.toISOString()).toBe('2000-01-01T00:00:00.000Z');
  });
});

describe('bad input → RequestError before any request', () => {
  const q = () => items.query('Movies') as any;
  const sync: [string, () => unknown][] = [
    ['limit(0)', () => q().limit(0)],
    ['limit(-1)', () => q().limit(-1)],
    ['limit(1.5)', () => q().limit(1.5)],
    ['limit("10")', () => q().limit('10')],
    ['skip(-1)', () => q().skip(-1)],
    ['skip(0.5)', () => q().skip(0.5)],
    ['exists without its boolean', () => q().exists('a')],
    ['exists("a", "yes")', () => q().exists('a', 'yes')],
    ['hasSome with no values', () => q().hasSome('a')],
    ['hasSome([])', () => q().hasSome('a', [])],
    ['hasAll([])', () => q().hasAll('a', [])],
    ['between without its upper bound', () => q().between('a', 1)],
    ['between without its lower bound', () => q().between('a', undefined, 2)],
    ['an empty field name', () => q().eq('', 1)],
    ['a non-string sort field', () => q().ascending(1)],
    ['query("")', () => items.query('')],
    ['query(42)', () => items.query(42 as never)],
    ['filter().eq(undefined)', () => (items.filter() as any).eq(undefined, 1)],
  ];
  it.each(sync)('%s throws', (_, run) => {
    const { scope } = capture('/wix-data/v2/items/query', { dataItems: [] });
    expect(run).toThrow(RequestError);
    expect(scope.isDone()).toBe(false);
  });

  const rejections: [string, () => Promise<unknown>][] = [
    ['count("")', () => items.count('')],
    ['query(null, {...})', () => items.query(null as never, {})],
    ['get("", id)', () => items.get('', 'x')],
    ['insert(undefined, item)', () => items.insert(undefined as never, {})],
    ['distinct paging.limit 0', () => items.distinct('Movies', 'a', { paging: { limit: 0 } })],
    ['distinct without a field', () => items.distinct('Movies', '')],
    ['query().distinct("")', () => items.query('Movies').distinct('' as never)],
  ];
  it.each(rejections)('%s rejects', async (_, run) => {
    const scope = nock(BASE).post(/.*/).reply(200, {}).get(/.*/).reply(200, {});
    const error = await run().catch((e: unknown) => e);
    expect(isRequestError(error)).toBe(true);
    expect((error as RequestError).code).toBe('INVALID_REQUEST');
    expect(scope.isDone()).toBe(false);
    expect(scope.pendingMocks()).toHaveLength(2);
  });

  it('names the field at fault', () => {
    expect(() => q().limit(0)).toThrow(
      expect.objectContaining({ field: 'limit', message: expect.stringContaining('limit must be a positive integer') }),
    );
    expect(() => items.query('')).toThrow(expect.objectContaining({ field: 'dataCollectionId' }));
  });
});
