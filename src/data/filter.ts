/**
 * The one filter language shared by every builder (item queries, aggregations, member queries,
 * `items.filter()`): operator methods that append a condition to an immutable list, and the
 * conversion of that list to the service's filter object. Conditions stay in the public form
 * (`Date` values); the namespace that sends them converts them to the wire form.
 */
import { RequestError } from '../errors/index.js';
import type { FilterBuilder } from './types.js';

/** A filter object in the service's query language, e.g. `{year: {$gt: 1970}}`. */
export type Cond = Record<string, unknown>;

/** Throws our client-side error: bad input is refused before any request. */
export const bad = (message: string, field?: string): never => {
  throw new RequestError(message, { field });
};

/** `name` itself when it is a non-empty string; else RequestError naming `field`. */
export const str = (name: unknown, field = 'field'): string =>
  typeof name == 'string' && name ? name : bad(field + ' must be a non-empty string', field);

/** The filter object of a builder (anything with `toFilter()`), or the plain filter object itself. */
export const unwrap = (f: any): Cond | undefined => (typeof f?.toFilter == 'function' ? f.toFilter() : f);

/**
 * One filter from a list of conditions (builders, filter objects or nothing): the condition for
 * one, `$and` for several, `{}` (or `undefined` with `omit`, so a request leaves it out) for none.
 */
export const combine = (conds: readonly unknown[], omit?: 1): Cond | undefined => {
  const c = conds.map(unwrap).filter((x) => x && Object.keys(x).length);
  return c.length > 1 ? { $and: c } : c[0] ?? (omit ? undefined : {});
};

/**
 * The operator methods over a condition list, plus `toFilter()`: each returns `set(newList)`,
 * never changing `conds`. `ge`/`le` are the official spellings of `gte`/`lte`.
 */
export function filterOps<B>(conds: readonly unknown[], set: (conds: unknown[]) => B): Record<string, (...a: any[]) => unknown> {
  const add = (field: unknown, op: string, value: unknown) => set([...conds, { [str(field)]: op ? { [op]: value } : value }]);
  const ops: Record<string, (...a: any[]) => unknown> = {
    toFilter: () => combine(conds),
    eq: (f, v) => add(f, '', v),
    between: (f, from, to) => (from == null || to == null ? bad('between needs two bounds', 'between') : add(f, '', { $gte: from, $lt: to })),
    exists: (f, v) => (typeof v == 'boolean' ? add(f, '$exists', v) : bad('exists needs a boolean', 'exists')),
    isEmpty: (f) => add(f, '$exists', false),
    isNotEmpty: (f) => add(f, '$exists', true),
    and: (...fs) => set([...conds, ...fs]),
    or: (...fs) => {
      const parts = [conds, ...fs.map((f) => [f])].map((c) => combine(c, 1)).filter((c) => c);
      return set(parts.length > 1 ? [{ $or: parts }] : parts);
    },
    not: (...fs) => set([...conds, { $not: combine(fs) }]),
  };
  for (const op of ['ne', 'gt', 'ge', 'gte', 'lt', 'le', 'lte', 'contains', 'startsWith', 'endsWith'])
    ops[op] = (f, v) => add(f, '$' + op.replace(/^([gl])e$/, '$1te'), v);
  for (const op of ['hasSome', 'hasAll', 'in'])
    ops[op] = (f, ...v) => {
      const list = v.length == 1 && Array.isArray(v[0]) ? v[0] : v;
      return op != 'in' && !list.length ? bad(op + ' needs values', op) : add(f, '$' + op, list);
    };
  return ops;
}

/** A standalone, immutable filter builder (`items.filter()`). */
export const filterBuilder = (conds: readonly unknown[] = []): FilterBuilder => filterOps(conds, filterBuilder) as any;
