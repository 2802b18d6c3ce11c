/**
 * The query builder shared by item queries (`items.query(collectionId)`) and member queries, and
 * the reads it shares with the direct forms of `items.count` and `items.distinct`.
 */
import { operations as O } from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { combine, filterOps, str, unwrap } from './filter.js';
import { D, exec, pageOps, pages, type PageState } from './paging.js';
import type { ItemsQueryBuilder, PagedResult } from './types.js';

/** A query's state: conditions (`c`), sort, paging, fields (`f`), included references (`i`). */
export interface QueryState extends PageState {
  c: readonly unknown[];
  f?: string[];
  i?: string[];
}

/**
 * An immutable query: the filter and paging operators, `find`/`all` over `find(state, options)`,
 * and the `extra` methods of the kind of query.
 */
export function queryBuilder(find: (s: QueryState, options?: object) => Promise<PagedResult<unknown>>, extra: (s: QueryState, set: (c: Partial<QueryState>) => unknown) => object = () => ({})) {
  const b = (s: QueryState): any => {
    const set = (changes: Partial<QueryState>) => b({ ...s, ...changes });
    return {
      ...filterOps(s.c, (c) => set({ c })),
      ...pageOps(s, set),
      ...extra(s, set),
      find: (options?: object) => find(s, options),
      async *all(options?: object) {
        yield* (await find(s, options)).all();
      },
    };
  };
  return b({ c: [], s: [], k: 0 });
}

/** Counts the items matching `options.filter` (a builder or a filter object). */
export const countItems = async (t: Transport, id: string, options?: { filter?: unknown }): Promise<number> =>
  (await exec(t, O.count, { [D]: id, filter: unwrap(options?.filter) }, options)) ?? 0;

/** The distinct values of `field` among the items matching `options.filter`, as a paged result. */
export function distinctPages(t: Transport, id: string, field: unknown, options: any, l: number | undefined, k: number): Promise<PagedResult<unknown>> {
  const head = { [D]: id, fieldName: str(field) };
  return pages(t, O.queryDistinctValues, { ...head, filter: unwrap(options?.filter) }, head, (r) => r.distinctValues, l, k, options);
}

/** An immutable item query over collection `id`. */
export const itemsQuery = (t: Transport, id: string): ItemsQueryBuilder =>
  queryBuilder(
    (s, options) =>
      pages(t, O.queryDataItems, { [D]: id, query: { filter: combine(s.c, 1), sort: s.s[0] && s.s, fields: s.f }, includeReferences: s.i }, { [D]: id }, (r) => r.dataItems, s.l, s.k, options, 'query'),
    (s, set) => ({
      fields: (...f: unknown[]) => set({ f: f.map((x) => str(x)) }),
      include: (...i: unknown[]) => set({ i: i.map((x) => str(x)) }),
      count: (options?: object) => countItems(t, id, { ...options, filter: combine(s.c, 1) }),
      distinct: async (field: unknown, options?: object) =>
        distinctPages(t, id, field, { ...options, filter: combine(s.c, 1), order: s.s.find((x) => x.fieldName == field)?.order }, s.l, s.k),
    }),
  );
