/**
 * Filter composition: every example of the service's filter rules, through every surface that
 * builds filters (items.filter(), item queries, aggregations, member queries).
 */
import { describe, expect, it } from 'vitest';
import type { FilterOperators } from '../../../src/data/types.js';
import { capturePosts, useNock } from '../../helpers/capture.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();

/** Any builder with the filter operators (a filter, an item query, a member query). */
type Builder = FilterOperators<Record<string, unknown>, Builder>;

/** A fresh standalone filter, for the arguments of and/or/not. */
const q = (): Builder => client.items.filter() as unknown as Builder;

/** Each rule that holds on every surface: how the conditions are added, and the exact filter object it must give. */
const EXAMPLES: [string, (builder: Builder) => Builder, object][] = [
  ['no condition → {}', (b) => b, {}],
  ['one condition is that condition', (b) => b.eq('title', 'Jaws'), { title: 'Jaws' }],
  [
    'distinct fields merge into one object',
    (b) => b.eq('title', 'Jaws').gt('year', 1970),
    { title: 'Jaws', year: { $gt: 1970 } },
  ],
  [
    'a repeated field merges nothing',
    (b) => b.gt('year', 1970).lt('year', 2000),
    { $and: [{ year: { $gt: 1970 } }, { year: { $lt: 2000 } }] },
  ],
  ['a.or(b) → {$or: [a, b]}', (b) => b.eq('a', 1).eq('b', 2).or(q().eq('c', 3)), { $or: [{ a: 1, b: 2 }, { c: 3 }] }],
  [
    '$or in $or is flattened',
    (b) => b.eq('a', 1).or(q().eq('b', 2)).or(q().eq('c', 3)),
    { $or: [{ a: 1 }, { b: 2 }, { c: 3 }] },
  ],
  ['a.and(b) → the conjunction of both', (b) => b.eq('a', 1).and(q().eq('b', 2)), { a: 1, b: 2 }],
  [
    '$and in $and is flattened',
    (b) => b.gt('a', 1).and(q().gt('a', 0).lt('a', 9)),
    { $and: [{ a: { $gt: 1 } }, { a: { $gt: 0 } }, { a: { $lt: 9 } }] },
  ],
  [
    'not: $not takes an array of one filter',
    (b) => b.eq('a', 1).not(q().eq('b', 2)),
    { $and: [{ a: 1 }, { $not: [{ b: 2 }] }] },
  ],
  [
    'operator objects come after the merged field conditions',
    (b) => b.not(q().eq('a', 1)).eq('b', 2).eq('c', 3),
    { $and: [{ b: 2, c: 3 }, { $not: [{ a: 1 }] }] },
  ],
  [
    'one plain object keeps its place: .eq(a).or(b).eq(c)',
    (b) => b.eq('a', 1).or(q().eq('b', 2)).eq('c', 3),
    { $and: [{ $or: [{ a: 1 }, { b: 2 }] }, { c: 3 }] },
  ],
  [
    'two plain objects merge and move before the operator objects',
    (b) => b.eq('a', 1).or(q().eq('b', 2)).eq('c', 3).eq('d', 4),
    { $and: [{ c: 3, d: 4 }, { $or: [{ a: 1 }, { b: 2 }] }] },
  ],
  ['isEmpty(f) → {f: null}', (b) => b.isEmpty('poster'), { poster: null }],
  ['isNotEmpty(f) → {f: {$ne: null}}', (b) => b.isNotEmpty('poster'), { poster: { $ne: null } }],
  ['an undefined value is sent as null', (b) => b.eq('a', undefined).ne('b', undefined), { a: null, b: { $ne: null } }],
  [
    'between → two conditions on one field',
    (b) => b.between('year', 1970, 1980),
    { $and: [{ year: { $gte: 1970 } }, { year: { $lt: 1980 } }] },
  ],
];

/**
 * The rules where the start matters: a standalone filter starts from the empty conjunction
 * (`{$and: []}`), which `or`, `and` and `not` leave out; the query builders start from `{}`, which
 * stays (wire.md). Each: the chain, the standalone filter's result, the query builders' result.
 */
const START_EXAMPLES: [string, (builder: Builder) => Builder, object, object][] = [
  [
    'or on an empty builder (a $or of one stays)',
    (b) => b.or(q().eq('c', 3)),
    { $or: [{ c: 3 }] },
    { $or: [{}, { c: 3 }] },
  ],
  [
    'two ors on an empty builder',
    (b) => b.or(q().eq('c', 3), q().eq('d', 4)),
    { $or: [{ c: 3 }, { d: 4 }] },
    { $or: [{}, { c: 3 }, { d: 4 }] },
  ],
  [
    'or on an empty builder, then a condition: {} matches everything, so the query selects c = 3',
    (b) => b.or(q().eq('b', 2)).eq('c', 3),
    { $and: [{ $or: [{ b: 2 }] }, { c: 3 }] },
    { $and: [{ $or: [{}, { b: 2 }] }, { c: 3 }] },
  ],
  ['not alone', (b) => b.not(q().eq('a', 1)), { $not: [{ a: 1 }] }, { $and: [{}, { $not: [{ a: 1 }] }] }],
  [
    "not first, then a condition (one plain object in the filter, two with the query's {}: those merge and move first)",
    (b) => b.not(q().eq('a', 1)).eq('b', 2),
    { $and: [{ $not: [{ a: 1 }] }, { b: 2 }] },
    { $and: [{ b: 2 }, { $not: [{ a: 1 }] }] },
  ],
  ['and on an empty builder', (b) => b.and(q().eq('a', 1)), { a: 1 }, { a: 1 }],
  [
    'and of a repeated field on an empty builder',
    (b) => b.and(q().gt('a', 1).lt('a', 9)),
    { $and: [{ a: { $gt: 1 } }, { a: { $lt: 9 } }] },
    { $and: [{}, { a: { $gt: 1 } }, { a: { $lt: 9 } }] },
  ],
];

/**
 * Member queries follow the official client's generic query builder (@wix/sdk-runtime): one flat
 * `$and` of the conditions, nothing merged, empty operands left out, `$not` holding an object.
 */
const MEMBER_EXAMPLES: [string, (builder: Builder) => Builder, object][] = [
  ['no condition → {}', (b) => b, {}],
  ['one condition is that condition', (b) => b.eq('title', 'Jaws'), { title: 'Jaws' }],
  [
    'distinct fields do not merge',
    (b) => b.eq('title', 'Jaws').gt('year', 1970),
    { $and: [{ title: 'Jaws' }, { year: { $gt: 1970 } }] },
  ],
  [
    'a.or(b) → {$or: [a, b]}',
    (b) => b.eq('a', 1).eq('b', 2).or(q().eq('c', 3)),
    { $or: [{ $and: [{ a: 1 }, { b: 2 }] }, { c: 3 }] },
  ],
  [
    '$or in $or is spliced',
    (b) => b.eq('a', 1).or(q().eq('b', 2)).or(q().eq('c', 3)),
    { $or: [{ a: 1 }, { b: 2 }, { c: 3 }] },
  ],
  ['or on an empty query is the other filter', (b) => b.or(q().eq('c', 3)), { c: 3 }],
  [
    '$and in $and is spliced',
    (b) => b.gt('a', 1).and(q().gt('a', 0).lt('a', 9)),
    { $and: [{ a: { $gt: 1 } }, { a: { $gt: 0 } }, { a: { $lt: 9 } }] },
  ],
  ['not alone: {$not: filter}', (b) => b.not(q().eq('a', 1)), { $not: { a: 1 } }],
  [
    'not after conditions keeps them',
    (b) => b.eq('a', 1).not(q().eq('b', 2)),
    { $and: [{ a: 1 }, { $not: { b: 2 } }] },
  ],
  [
    'eq, or, eq keeps the call order',
    (b) => b.eq('a', 1).or(q().eq('b', 2)).eq('c', 3),
    { $and: [{ $or: [{ a: 1 }, { b: 2 }] }, { c: 3 }] },
  ],
  [
    'between → two conditions on one field',
    (b) => b.between('year', 1970, 1980),
    { $and: [{ year: { $gte: 1970 } }, { year: { $lt: 1980 } }] },
  ],
];

useNock();

describe('filter composition', () => {
  it.each(EXAMPLES)('items.filter(): %s', (_, add, filter) => {
    expect(add(q()).toFilter()).toStrictEqual(filter);
  });

  it.each(EXAMPLES)('item query: %s', async (_, add, filter) => {
    const { bodies } = capturePosts('/wix-data/v2/items/query', { dataItems: [] });
    const query = add(client.items.query('Movies') as unknown as Builder) as unknown as { find(): Promise<unknown> };
    await query.find();
    expect(bodies[0].query.filter ?? {}).toStrictEqual(filter);
  });

  it.each(START_EXAMPLES)('items.filter(), from the empty conjunction: %s', (_, add, filter) => {
    expect(add(q()).toFilter()).toStrictEqual(filter);
  });

  it.each(START_EXAMPLES)('item query, from {}: %s', async (_, add, __, filter) => {
    const { bodies } = capturePosts('/wix-data/v2/items/query', { dataItems: [] });
    const query = add(client.items.query('Movies') as unknown as Builder) as unknown as { find(): Promise<unknown> };
    await query.find();
    expect(bodies[0].query.filter).toStrictEqual(filter);
  });

  it.each(EXAMPLES)('aggregation filter: %s', async (_, add, filter) => {
    const { bodies } = capturePosts('/wix-data/v2/items/aggregate', { results: [] });
    await client.items.aggregate('Movies').filter(add(q())).having(add(q())).run();
    expect(bodies[0].initialFilter ?? {}).toStrictEqual(filter);
    expect(bodies[0].finalFilter ?? {}).toStrictEqual(filter);
  });

  it.each(MEMBER_EXAMPLES)('member query (the generic builder): %s', async (_, add, filter) => {
    const { bodies } = capturePosts('/members/v1/members/query', { members: [] });
    const query = add(client.members.queryMembers() as unknown as Builder) as unknown as { find(): Promise<unknown> };
    await query.find();
    expect(bodies[0].query.filter ?? {}).toStrictEqual(filter);
  });

  it('aggregation: repeated filter() calls compose as and() does', async () => {
    const { bodies } = capturePosts('/wix-data/v2/items/aggregate', { results: [] });
    await client.items.aggregate('Movies').filter(q().eq('a', 1)).filter({ b: 2 }).filter(q().gt('a', 0)).run();
    expect(bodies[0].initialFilter).toStrictEqual(q().eq('a', 1).and({ b: 2 }).and(q().gt('a', 0)).toFilter());
    expect(bodies[0].initialFilter).toStrictEqual({ $and: [{ a: 1, b: 2 }, { a: { $gt: 0 } }] });
  });

  it('isEmpty matches explicit nulls: it is never sent as $exists', () => {
    expect(JSON.stringify(q().isEmpty('f').toFilter())).toBe('{"f":null}');
  });
});
