/**
 * The SQL filter translation against a reference: random filters over a fixed set of items with
 * mixed types, checked against a plain evaluator of the platform's query semantics (same-type
 * equality, any array element for eq, case-insensitive text operators, missing fields, $not).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';

type Value = unknown;
type Item = Record<string, Value> & { _id: string };

const DATES = ['2020-01-01T00:00:00.000Z', '2021-06-15T12:00:00.000Z', '2019-12-31T00:00:00.000Z'].map(($date) => ({
  $date,
}));
const SCALARS: Value[] = [0, 1, 5, -1, 2.5, '5', 'a', 'A', 'ab', 'Ba', 'b', '', true, false, null, ...DATES];
const FIELDS = ['f', 'g'];

/** Items: every scalar and some arrays in field f, a second field g, some items without either. */
const ITEMS: Item[] = [
  ...SCALARS.map((value, index) => ({ _id: `s${index}`, f: value, g: SCALARS[(index * 7) % SCALARS.length] })),
  { _id: 'arr1', f: ['a', 'b'], g: 1 },
  { _id: 'arr2', f: [1, 5], g: 'a' },
  { _id: 'arr3', f: [], g: null },
  { _id: 'arr4', f: ['A', 5, true] },
  { _id: 'none1' },
  { _id: 'none2', g: 'ab' },
];

const isDate = (value: Value): value is { $date: string } =>
  typeof value == 'object' && value !== null && !Array.isArray(value) && '$date' in value;
const kind = (value: Value) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : isDate(value) ? 'date' : typeof value;
const sameScalar = (left: Value, right: Value) =>
  kind(left) == kind(right) && (isDate(left) ? left.$date == (right as { $date: string }).$date : left === right);

/** The reference semantics of one operator on a stored value (`undefined`: the field is missing). */
function test(value: Value, operator: string, operand: Value): boolean {
  const equals = (target: Value) =>
    target === null
      ? value === undefined || value === null
      : Array.isArray(value)
        ? value.some((element) => sameScalar(element, target))
        : sameScalar(value, target);
  const scalarOf = (input: Value) => (isDate(input) ? input.$date : input);
  switch (operator) {
    case '$eq':
      return equals(operand);
    case '$ne':
      return operand === null ? !(value === undefined || value === null) : !equals(operand);
    case '$lt':
    case '$lte':
    case '$gt':
    case '$gte': {
      if (value === undefined || kind(value) != kind(operand) || !['number', 'string', 'date'].includes(kind(value)))
        return false;
      const [left, right] = [scalarOf(value) as number | string, scalarOf(operand) as number | string];
      return operator == '$lt'
        ? left < right
        : operator == '$lte'
          ? left <= right
          : operator == '$gt'
            ? left > right
            : left >= right;
    }
    case '$contains':
    case '$startsWith':
    case '$endsWith': {
      if (typeof value != 'string') return false;
      const [text, part] = [value.toLowerCase(), (operand as string).toLowerCase()];
      return operator == '$contains'
        ? text.includes(part)
        : operator == '$startsWith'
          ? text.startsWith(part)
          : text.endsWith(part);
    }
    case '$hasSome':
      return (operand as Value[]).some(equals);
    case '$hasAll':
      return (operand as Value[]).every(equals);
    case '$exists':
      return (value !== undefined) === operand;
    default:
      throw new Error(`no reference for ${operator}`);
  }
}

/** The reference evaluation of a whole filter. */
function matches(item: Item, filter: Record<string, Value>): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key == '$and') return (condition as Record<string, Value>[]).every((inner) => matches(item, inner));
    if (key == '$or') return (condition as Record<string, Value>[]).some((inner) => matches(item, inner));
    if (key == '$not') return !matches(item, (condition as Record<string, Value>[])[0]!);
    const isOperators =
      typeof condition == 'object' && condition !== null && !Array.isArray(condition) && !isDate(condition);
    if (!isOperators) return test(item[key], '$eq', condition);
    return Object.entries(condition as Record<string, Value>).every(([operator, operand]) =>
      test(item[key], operator, operand),
    );
  });
}

const scalar = fc.constantFrom(...SCALARS.filter((value) => value !== null));
const ordered = fc.constantFrom<Value>(0, 1, 5, 2.5, -1, '5', 'a', 'B', 'b', '', ...DATES);
const text = fc.constantFrom('a', 'A', 'B', 'b', '5', '');
const leaf = fc
  .tuple(
    fc.constantFrom(...FIELDS),
    fc.oneof(
      fc.constantFrom(null).map((value) => value as Value),
      scalar,
      fc.record({ $ne: fc.oneof(scalar, fc.constant(null)) }),
      fc.record({ $eq: scalar }),
      fc.oneof(
        fc.record({ $lt: ordered }),
        fc.record({ $lte: ordered }),
        fc.record({ $gt: ordered }),
        fc.record({ $gte: ordered }),
      ),
      fc.oneof(fc.record({ $contains: text }), fc.record({ $startsWith: text }), fc.record({ $endsWith: text })),
      fc.record({ $hasSome: fc.array(scalar, { minLength: 1, maxLength: 3 }) }),
      fc.record({ $hasAll: fc.array(scalar, { minLength: 1, maxLength: 2 }) }),
      fc.record({ $exists: fc.boolean() }),
    ),
  )
  .map(([field, condition]) => ({ [field]: condition }) as Record<string, Value>);

const filter: fc.Arbitrary<Record<string, Value>> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    leaf,
    fc.record({ $and: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ $or: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.tuple(tie('node')).map((inner) => ({ $not: inner })),
  ),
})).node as fc.Arbitrary<Record<string, Value>>;

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
  await emulator.admin.collections.createDataCollection({
    _id: 'Mixed',
    permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
  });
  const response = await emulator.fetch('/wix-data/v2/bulk/items/insert', {
    method: 'POST',
    headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ dataCollectionId: 'Mixed', dataItems: ITEMS.map((item) => ({ id: item._id, data: item })) }),
  });
  expect((await response.json()).bulkActionMetadata.totalSuccesses).toBe(ITEMS.length);
});
afterAll(() => emulator?.close());

describe('filters: SQL against the reference semantics', () => {
  it('random filters find exactly the items the reference finds', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(filter, async (wireFilter) => {
        const response = await emulator.fetch('/wix-data/v2/items/query', {
          method: 'POST',
          headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ dataCollectionId: 'Mixed', query: { filter: wireFilter, paging: { limit: 100 } } }),
        });
        const body = await response.json();
        expect(response.status, JSON.stringify(body)).toBe(200);
        const found = body.dataItems.map((item: { id: string }) => item.id).sort();
        const expected = ITEMS.filter((item) => matches(item, wireFilter))
          .map((item) => item._id)
          .sort();
        expect(found).toEqual(expected);
      }),
      { numRuns: 300, seed: 20261123 },
    );
  });
});
