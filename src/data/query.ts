/**
 * The immutable builder pattern, and the query builder shared by item queries
 * (`items.query(collectionId)`) and member queries.
 */
import { filterOps } from './filter.js';
import { pageOps, type PageState } from './paging.js';
import type { PagedResult } from './types.js';

/** A query's state: conditions (`c`), sort, paging, fields (`f`), included references (`i`). */
export interface QueryState extends PageState {
  c: readonly unknown[];
  f?: string[];
  i?: string[];
}

/**
 * An immutable builder: the methods `methods(state, set)` make for `state`, where `set(changes)`
 * returns the builder of the changed state (the state itself is never changed).
 */
export const build = <S>(state: S, methods: (s: S, set: (changes: Partial<S>) => any) => object): any =>
  methods(state, (changes) => build({ ...state, ...changes }, methods));

/**
 * An immutable query: the filter and paging operators, `find`/`all` over `find(state, options)`,
 * and the `extra` methods of the kind of query.
 */
export const queryBuilder = (find: (s: QueryState, options?: object) => Promise<PagedResult<unknown>>, extra?: (s: QueryState, set: (c: Partial<QueryState>) => unknown) => object) =>
  build<QueryState>({ c: [], s: [], k: 0 }, (s, set) => ({
    ...filterOps(s.c, (c) => set({ c })),
    ...pageOps(s, set),
    ...extra?.(s, set),
    find: (options?: object) => find(s, options),
    async *all(options?: object) {
      yield* (await find(s, options)).all();
    },
  }));
