/** The query builder shared by item queries (`items.query(collectionId)`) and member queries. */
import { FilterMethods } from './filter.js';
import { limitOf, skipOf, sortedBy, type PageState } from './paging.js';
import type { FilterObject } from './types.js';

/** What a query builder keeps: its conditions and paging, and the item query's projection. */
export interface QueryState extends PageState {
  readonly conditions: readonly FilterObject[];
  /** The fields to return (`query.fields`). */
  readonly fields?: readonly string[];
  /** The reference fields whose items are returned in full (`includeReferences`). */
  readonly includedReferences?: readonly string[];
}

/** A query with no condition, no sort and no paging. */
export const EMPTY_QUERY: QueryState = { conditions: [], sort: [], skip: 0 };

/**
 * The filter operators plus sort and paging over an immutable query state. Every method returns
 * `withState(changes)`: a new builder; this one never changes.
 */
export abstract class QueryMethods<Self> extends FilterMethods<Self> {
  constructor(protected readonly state: QueryState) {
    super(state.conditions);
  }

  /** The builder of this one's state with `changes` applied. */
  protected abstract withState(changes: Partial<QueryState>): Self;

  protected withConditions(conditions: readonly FilterObject[]): Self {
    return this.withState({ conditions });
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
