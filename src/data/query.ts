/** The query builder shared by item queries (`items.query(collectionId)`) and member queries. */
import { DATA_QUERY_RULES, FilterMethods, QUERY_START, type FilterRules, type FilterTree } from './filter.js';
import { limitOf, skipOf, sortedBy, type PageState } from './paging.js';
import type * as M from '../../generated/models.js';

/** What a query builder keeps: its filter tree and paging, and the item query's projection. */
export interface QueryState extends PageState {
  /** The filter built so far, before normalisation (`toFilter()` normalises it). */
  readonly filterTree: FilterTree;
  /** The fields to return (`query.fields`). */
  readonly fields?: readonly string[];
  /** The reference fields whose items are returned in full, each with its limit when given (`includeReferences`). */
  readonly includedReferences?: readonly M.IncludedReference[];
}

/** A query with no condition, no sort and no paging; its filter starts from `{}`, as the official builders' does. */
export const EMPTY_QUERY: QueryState = { filterTree: QUERY_START, sort: [], skip: 0 };

/**
 * The filter operators plus sort and paging over an immutable query state. Every method returns
 * `withState(changes)`: a new builder; this one never changes.
 */
export abstract class QueryMethods<Self> extends FilterMethods<Self> {
  constructor(
    protected readonly state: QueryState,
    rules: FilterRules = DATA_QUERY_RULES,
  ) {
    super(state.filterTree, rules);
  }

  /** The builder of this one's state with `changes` applied. */
  protected abstract withState(changes: Partial<QueryState>): Self;

  protected withTree(filterTree: FilterTree): Self {
    return this.withState({ filterTree });
  }
  /** Sorts by the fields, ascending, after any earlier sort. */
  ascending(...fields: string[]): Self {
    return this.withState({ sort: sortedBy(this.state.sort, fields, 'ASC') });
  }
  /** Sorts by the fields, descending, after any earlier sort. */
  descending(...fields: string[]): Self {
    return this.withState({ sort: sortedBy(this.state.sort, fields, 'DESC') });
  }
  /** Page size: a positive integer (default 50). */
  limit(limit: number): Self {
    return this.withState({ limit: limitOf(limit) });
  }
  /** Number of results to skip: a non-negative integer (default 0). */
  skip(skip: number): Self {
    return this.withState({ skip: skipOf(skip) });
  }
}
