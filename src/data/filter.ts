/**
 * The one filter language shared by every builder (item queries, aggregations, member queries,
 * `items.filter()`): operator methods that append a condition to an immutable list, and the
 * conversion of that list to the service's filter object. Conditions stay in the public form
 * (`Date` values); the namespace that sends them converts them to the wire form.
 */
import { RequestError } from '../errors/index.js';
import type { FilterBuilder } from './types.js';

/** `Array.isArray`, under a short name. */
export const { isArray } = Array;

/** A filter object in the service's query language, e.g. `{year: {$gt: 1970}}`. */
export type Cond = Record<string, unknown>;

/**
 * Throws our client-side error for `field`, message `<field> must be <expected>` (e.g. `limit must
 * be a positive integer`): bad input is refused before any request.
 */
export const bad = (field: string, expected: string): never => {
  throw new RequestError(field + ' must be ' + expected, { field });
};

/** `name` itself when it is a non-empty string; else RequestError naming `field`. */
export const str = (name: unknown, field = 'field'): string => (typeof name == 'string' && name ? name : bad(field, 'a non-empty string'));

/** Field names, each checked by {@link str}. */
export const strs = (names: unknown[]): string[] => names.map((x) => str(x));

/** The filter object of a builder (anything with `toFilter()`), or the plain filter object itself. */
export const unwrap = (f: any): Cond | undefined => (typeof f?.toFilter == 'function' ? f.toFilter() : f);

/** The non-empty filter objects of a list of conditions (builders, filter objects or nothing). */
const list = (conds: readonly unknown[]): Cond[] => conds.map(unwrap).filter((x) => x && Object.keys(x).length) as Cond[];

/**
 * One filter from a list of conditions: the condition for one, `$and` for several, `undefined`
 * (so a request leaves it out) for none.
 */
export const combine = (conds: readonly unknown[]): Cond | undefined => {
  const c = list(conds);
  return c[1] ? { $and: c } : c[0];
};

/**
 * The operator methods over a condition list, plus `toFilter()`: each returns `set(newList)`,
 * never changing `conds`. `ge`/`le` are the official spellings of `gte`/`lte`.
 */
export const filterOps = <B>(conds: readonly unknown[], set: (conds: unknown[]) => B): Record<string, (...a: any[]) => unknown> => {
  const add = (field: unknown, value: unknown) => set([...conds, { [str(field)]: value }]);
  const ops: Record<string, (...a: any[]) => unknown> = {
    toFilter: () => combine(conds) ?? {},
    eq: add,
    between: (f, from, to) => (from == null || to == null ? bad('between', 'given two bounds') : add(f, { $gte: from, $lt: to })),
    isEmpty: (f) => ops.exists!(f, false),
    isNotEmpty: (f) => ops.exists!(f, true),
    and: (...fs) => set([...conds, ...fs]),
    or: (...fs) => {
      const parts = list([combine(conds), ...fs]);
      return set(parts[1] ? [{ $or: parts }] : parts);
    },
    not: (...fs) => set([...conds, { $not: combine(fs) ?? {} }]),
  };
  // `{field: {$<op>: value}}`; hasSome, hasAll and in take their values as an array or as the
  // remaining arguments, at least one for hasSome and hasAll; exists takes a boolean.
  for (const op of 'ne gt ge gte lt le lte contains startsWith endsWith hasSome hasAll in exists'.split(' '))
    ops[op] = (f, ...v) => {
      const value = (op[0] == 'h' || op == 'in') && (1 in v || !isArray(v[0])) ? v : v[0];
      return (op[0] == 'h' ? value.length : op[1] != 'x' || typeof value == 'boolean')
        ? add(f, { ['$' + op.replace(/^([gl])e$/, '$1te')]: value })
        : bad(op, op[0] == 'h' ? 'given values' : 'given a boolean');
    };
  return ops;
};

/** A standalone, immutable filter builder (`items.filter()`). */
export const filterBuilder = (conds: readonly unknown[] = []): FilterBuilder => filterOps(conds, filterBuilder) as any;
