/**
 * Our query builder against the official one, chain by chain: the filter each puts on the wire
 * must be identical (the official client's own output, not a copy of it), and the two queries
 * must select the same items on the emulator. The chains: wire.md's examples of filter
 * composition, issue 19's items 6 to 8, and more (dates, every operator, and/or/not at each place).
 */
import { items as officialItems } from '@wix/data';
import { members as officialMembers } from '@wix/members';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, isRequestError } from '../../../src/index.js';
import { requestOf, useOfficialHarness } from './harness.js';

const harness = useOfficialHarness();

/** The filter operators both builders share (each builder's own methods, called the same way). */
interface Chainable {
  eq(field: string, value: unknown): Chainable;
  ne(field: string, value: unknown): Chainable;
  gt(field: string, value: unknown): Chainable;
  ge(field: string, value: unknown): Chainable;
  lt(field: string, value: unknown): Chainable;
  le(field: string, value: unknown): Chainable;
  between(field: string, from: unknown, to: unknown): Chainable;
  contains(field: string, text: string): Chainable;
  startsWith(field: string, text: string): Chainable;
  endsWith(field: string, text: string): Chainable;
  hasSome(field: string, values: unknown[]): Chainable;
  hasAll(field: string, values: unknown[]): Chainable;
  in(field: string, values: unknown[]): Chainable;
  exists(field: string, present: boolean): Chainable;
  isEmpty(field: string): Chainable;
  isNotEmpty(field: string): Chainable;
  or(other: Chainable): Chainable;
  and(other: Chainable): Chainable;
  not(other: Chainable): Chainable;
}

/** A chain: applied to a query builder, with `q()` making the standalone filters of its arguments. */
type Chain = (builder: Chainable, q: () => Chainable) => Chainable;

const DAY = new Date('2024-02-01T00:00:00.000Z');

const CHAINS: [string, Chain][] = [
  ['no condition', (b) => b],
  ['one condition', (b) => b.eq('title', 'Jaws')],
  ['distinct fields merge (wire.md)', (b) => b.eq('title', 'Jaws').gt('year', 1970)],
  ['a repeated field merges nothing (wire.md)', (b) => b.gt('year', 1970).lt('year', 2000)],
  ['eq, eq, or (wire.md)', (b, q) => b.eq('a', 1).eq('b', 2).or(q().eq('c', 3))],
  ['not, then eq (wire.md)', (b, q) => b.not(q().eq('a', 1)).eq('b', 2)],
  ['issue 19 item 6: eq, or, eq', (b, q) => b.eq('a', 1).or(q().eq('b', 2)).eq('c', 3)],
  ['issue 19 item 7: not alone', (b, q) => b.not(q().eq('a', 1))],
  ['issue 19 item 8: or first, then eq', (b, q) => b.or(q().eq('b', 2)).eq('c', 3)],
  ['or first, alone', (b, q) => b.or(q().eq('b', 2))],
  ['or, or on an empty query', (b, q) => b.or(q().eq('c', 3)).or(q().eq('d', 4))],
  ['or in or', (b, q) => b.eq('a', 1).or(q().eq('b', 2)).or(q().eq('c', 3))],
  ['and', (b, q) => b.eq('a', 1).and(q().eq('b', 2))],
  ['and on an empty query', (b, q) => b.and(q().gt('a', 1).lt('a', 9))],
  ['and in and', (b, q) => b.gt('a', 1).and(q().gt('a', 0).lt('a', 9))],
  [
    'eq, or, eq, eq: two plain objects merge and move first',
    (b, q) => b.eq('a', 1).or(q().eq('b', 2)).eq('c', 3).eq('d', 4),
  ],
  ['not of an or', (b, q) => b.eq('a', 1).not(q().eq('b', 2).or(q().eq('c', 3)))],
  ['not, not', (b, q) => b.not(q().eq('a', 1)).not(q().eq('b', 2))],
  ['or of an empty filter', (b, q) => b.eq('a', 1).or(q())],
  ['isEmpty, isNotEmpty', (b) => b.isEmpty('poster').isNotEmpty('title')],
  ['between (two conditions on one field)', (b) => b.between('year', 1970, 1980)],
  ['dates', (b) => b.gt('day', DAY).le('day', new Date('2024-12-31T00:00:00.000Z'))],
  [
    'every operator once',
    (b) =>
      b
        .ne('n', 3)
        .ge('m', 1)
        .le('k', 9)
        .contains('name', 'an')
        .startsWith('title', 'J')
        .endsWith('code', 'x')
        .hasSome('tags', ['red', 'sweet'])
        .hasAll('labels', ['a', 'b'])
        .in('grade', [1, 2])
        .exists('extra', true),
  ],
  ['a field twice among others', (b) => b.eq('a', 1).eq('b', 2).gt('a', 0)],
  [
    'nested or inside and inside or',
    (b, q) =>
      b.eq('a', 1).or(
        q()
          .eq('b', 2)
          .and(q().eq('c', 3).or(q().eq('d', 4))),
      ),
  ],
];

/** Filters that select something in the Things collection, for the results comparison. */
const RESULT_CHAINS: [string, Chain][] = [
  ['eq, or, eq', (b, q) => b.eq('n', 5).or(q().eq('n', 7)).eq('flag', true)],
  ['or first, then eq: {} matches all, so flag = true alone', (b, q) => b.or(q().eq('n', 5)).eq('flag', true)],
  ['not alone', (b, q) => b.not(q().gt('n', 4))],
  ['not, then eq', (b, q) => b.not(q().eq('n', 5)).eq('flag', true)],
  ['and on an empty query', (b, q) => b.and(q().gt('n', 0).lt('n', 8))],
  ['dates', (b) => b.gt('day', DAY)],
  ['or of and', (b, q) => b.eq('flag', false).or(q().gt('n', 6).lt('n', 20))],
  ['hasSome, isNotEmpty', (b) => b.hasSome('tags', ['red', 'sweet']).isNotEmpty('flag')],
];

let ours: ReturnType<typeof createClient>;
let official: any;
/** The bodies our SDK sent, in order. */
const oursSent: any[] = [];

beforeAll(async () => {
  const { emulator } = harness;
  const { apiKey, siteId } = emulator.info;
  ours = createClient({
    baseUrl: emulator.url,
    auth: ApiKeyStrategy({ apiKey, siteId }),
    fetch: async (input, init) => {
      if (typeof init?.body == 'string') oursSent.push(JSON.parse(init.body));
      return fetch(input, init);
    },
  });
  official = harness.admin({ items: officialItems, members: officialMembers });
  await ours.collections.createDataCollection({
    _id: 'Things',
    permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    fields: [
      { key: 'lead', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Things' } } },
      { key: 'cast', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Things' } } },
    ],
  });
  await ours.items.bulkInsert('Things', [
    { _id: 'a', n: 5, flag: true, tags: ['red'], day: new Date('2024-01-02T00:00:00Z') },
    { _id: 'b', n: 7, flag: false, tags: ['sweet', 'red'], day: new Date('2024-03-01T00:00:00Z') },
    { _id: 'c', n: 10, flag: true, day: new Date('2024-02-02T00:00:00Z') },
    { _id: 'd', n: -1, tags: [] },
    { _id: 'e', n: 12, flag: false },
  ]);
});

/** The filter our SDK sends for a chain (wire form), and the ids it selects. */
async function oursFor(chain: Chain) {
  oursSent.length = 0;
  const q = () => ours.items.filter() as unknown as Chainable;
  const query = chain(ours.items.query('Things') as unknown as Chainable, q) as unknown as {
    ascending(field: string): { find(): Promise<{ items: { _id: string }[] }> };
  };
  const found = await query.ascending('_id').find();
  const body = oursSent.find((sent) => sent.dataCollectionId == 'Things' && sent.query);
  // The official client always sends a filter ({} when empty); ours leaves an empty one out.
  return { filter: body?.query.filter ?? {}, ids: found.items.map((item) => item._id) };
}

/** The filter the official client sends for the same chain, and the ids it selects. */
async function officialFor(chain: Chain) {
  harness.sent.length = 0;
  const q = () => official.items.filter() as Chainable;
  const found = await (chain(official.items.query('Things'), q) as any).ascending('_id').find();
  const sent = harness.sent.find((request) => request.path == '/wix-data/v2/items/query');
  return { filter: requestOf(sent!).query.filter, ids: found.items.map((item: { _id: string }) => item._id) };
}

describe('our builder and the official one put the same filter on the wire', () => {
  it.each(CHAINS)('%s', async (_, chain) => {
    const [mine, theirs] = [await oursFor(chain), await officialFor(chain)];
    expect(mine.filter).toStrictEqual(theirs.filter);
  });

  it('standalone filters (items.filter()) too', () => {
    // Compared in the wire form: the official builder encodes a date as {$date} at once, ours when it sends.
    const json = (filter: unknown) =>
      JSON.parse(
        JSON.stringify(filter, function (this: Record<string, unknown>, key, value) {
          const original = this[key];
          return original instanceof Date ? { $date: original.toISOString() } : value;
        }),
      );
    for (const [name, chain] of CHAINS) {
      const mine = chain(
        ours.items.filter() as unknown as Chainable,
        () => ours.items.filter() as unknown as Chainable,
      );
      const theirs = chain(official.items.filter(), () => official.items.filter());
      expect(json((mine as unknown as { toFilter(): object }).toFilter()), name).toStrictEqual(
        json((theirs as unknown as { getFilterModel(): object }).getFilterModel()),
      );
    }
  });
});

describe('include(...fields, limit) sends the same includeReferences', () => {
  const INCLUDES: [string, (builder: any) => any][] = [
    ['one field', (b) => b.include('cast')],
    ['a limit', (b) => b.include('cast', 2)],
    ['two fields, one limit', (b) => b.include('cast', 'lead', 3)],
    ['two calls', (b) => b.include('cast', 2).include('lead')],
  ];
  it.each(INCLUDES)('%s', async (_, include) => {
    oursSent.length = 0;
    harness.sent.length = 0;
    await include(ours.items.query('Things')).find();
    await include(official.items.query('Things')).find();
    const mine = oursSent.find((sent) => sent.query)?.includeReferences;
    const theirs = requestOf(
      harness.sent.find((request) => request.path == '/wix-data/v2/items/query')!,
    ).includeReferences;
    expect(mine).toStrictEqual(theirs);
  });
});

describe('and select the same items on the emulator', () => {
  it.each(RESULT_CHAINS)('%s', async (_, chain) => {
    const [mine, theirs] = [await oursFor(chain), await officialFor(chain)];
    expect(mine.filter).toStrictEqual(theirs.filter);
    expect(mine.ids).toEqual(theirs.ids);
  });

  it('issue 19 item 8 selects every item with flag = true', async () => {
    const { ids } = await oursFor((b, q) => b.or(q().eq('n', 5)).eq('flag', true));
    expect(ids).toEqual(['a', 'c']);
  });
});

/**
 * Member queries: the official member query is its generic builder (@wix/sdk-runtime), which
 * composes differently from the data one (no merging, `$not` an object); ours follows it. The
 * arguments of or/and/not are member queries on both sides, as the official builder takes them.
 */
const MEMBER_CHAINS: [string, Chain][] = [
  ['no condition', (b) => b],
  ['eq', (b) => b.eq('profile.nickname', 'Ada')],
  ['two conditions', (b) => b.startsWith('loginEmail', 'a').eq('status', 'APPROVED')],
  ['system field names', (b) => b.ne('_id', 'nobody').gt('_createdDate', DAY)],
  ['or', (b, q) => b.startsWith('loginEmail', 'a').or(q().eq('status', 'PENDING'))],
  ['or first', (b, q) => b.or(q().eq('status', 'PENDING'))],
  [
    'or, or',
    (b, q) => b.eq('status', 'PENDING').or(q().startsWith('loginEmail', 'g')).or(q().startsWith('loginEmail', 'x')),
  ],
  [
    'eq, or, eq',
    (b, q) => b.startsWith('loginEmail', 'a').or(q().startsWith('loginEmail', 'g')).eq('status', 'APPROVED'),
  ],
  ['and', (b, q) => b.eq('status', 'APPROVED').and(q().startsWith('loginEmail', 'g').exists('profile', true))],
  ['not alone', (b, q) => b.not(q().eq('status', 'APPROVED'))],
  ['not of an or', (b, q) => b.not(q().eq('status', 'APPROVED').or(q().startsWith('loginEmail', 'p')))],
  ['in, isNotEmpty', (b) => b.in('status', ['APPROVED', 'PENDING']).isNotEmpty('loginEmail')],
  ['between', (b) => b.between('_createdDate', new Date('2000-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z'))],
];

describe('member queries: the same filter on the wire, the same members selected', () => {
  it.each(MEMBER_CHAINS)('%s', async (_, chain) => {
    oursSent.length = 0;
    const q = () => ours.members.queryMembers() as unknown as Chainable;
    const mine = (await (chain(q(), q) as any).find()).items.map((member: { _id: string }) => member._id).sort();
    const mineFilter = oursSent.find((sent) => sent.query)?.query.filter ?? {};

    harness.sent.length = 0;
    const theirQ = () => official.members.queryMembers() as Chainable;
    const theirs = (await (chain(theirQ(), theirQ) as any).find()).items
      .map((member: { _id: string }) => member._id)
      .sort();
    const theirFilter = harness.sent.find((request) => request.path == '/members/v1/members/query')!.body.query.filter;

    expect(mineFilter).toStrictEqual(theirFilter);
    expect(mine).toEqual(theirs);
  });

  it.each([
    ...MEMBER_CHAINS,
    [
      'sort, limit, skip',
      (b: Chainable) =>
        (b.eq('_id', 'a') as any).ascending('profile.nickname').descending('_createdDate').limit(3).skip(2),
    ],
  ] as [string, Chain][])("the builder's query: %s", (_, chain) => {
    const q = () => ours.members.queryMembers() as unknown as Chainable;
    const theirQ = () => official.members.queryMembers() as Chainable;
    expect((chain(q(), q) as any).query).toEqual((chain(theirQ(), theirQ) as any).query);
  });

  it('skipTo, which the official builder has but cannot run on a member query (TypeError), is a RequestError', () => {
    const q = ours.members.queryMembers().eq('status', 'APPROVED');
    expect(() => (official.members.queryMembers() as any).skipTo('c')).toThrow(TypeError);
    const error = (() => {
      try {
        q.skipTo('c');
      } catch (caught) {
        return caught;
      }
    })();
    expect(isRequestError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', field: 'cursor' });
  });

  it('the chains select members (the comparison is not of empty results only)', async () => {
    const q = () => ours.members.queryMembers() as unknown as Chainable;
    const found = await (q().or(q().eq('status', 'PENDING')) as any).find();
    expect(found.items.length).toBeGreaterThan(0);
  });
});
