/**
 * The `members` namespace: the methods generated from the schema, plus the `queryMembers()`
 * builder (the shared filter language over the member query endpoint).
 */
import type * as IO from '../../generated/io.js';
import type * as M from '../../generated/models.js';
import { namespaceOperations, type MembersOperations } from '../../generated/namespaces.js';
import * as O from '../../generated/operations.js';
import type { CallOptions } from '../types.js';
import { combine, unwrap } from '../data/filter.js';
import { PAGE_SIZE, pages } from '../data/paging.js';
import { queryBuilder } from '../data/query.js';
import type { FilterLike, FilterOperators, PagedResult, PagingOperators } from '../data/types.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';
import { toWire } from '../wire/index.js';

/** Options of `queryMembers()`. */
export interface QueryMembersOptions {
  /** Predefined sets of fields to return (default `PUBLIC`). */
  fieldsets?: M.MemberFieldset[];
  /** Free-text search over member fields. */
  search?: M.MemberSearch;
}

/**
 * An immutable member query. Fields use the public names (`_id`, `_createdDate`, `profile.nickname`);
 * paging is always sent, `{offset: 0, limit: 50}` by default.
 */
export interface MembersQueryBuilder extends FilterOperators<M.Member, MembersQueryBuilder>, PagingOperators<M.Member, MembersQueryBuilder> {
  /** Runs the query: one page of members. */
  find(options?: CallOptions): Promise<PagedResult<M.Member>>;
  /** Every matching member, page after page. */
  all(options?: CallOptions): AsyncIterableIterator<M.Member>;
}

/** Every method of `client.members`. The bulk-by-filter methods also take a filter builder. */
export interface MembersApi extends Omit<MembersOperations, 'bulkApproveMembers' | 'bulkBlockMembers' | 'bulkDeleteMembersByFilter'> {
  /**
   * Starts an immutable member query builder.
   *
   * @example
   * ```ts
   * const page = await client.members.queryMembers({ fieldsets: ['FULL'] }).eq('status', 'PENDING').find();
   * ```
   */
  queryMembers(options?: QueryMembersOptions): MembersQueryBuilder;
  /** Starts an asynchronous job that approves all members matching a filter. Elevated. */
  bulkApproveMembers(filter: FilterLike, options?: CallOptions): Promise<IO.BulkApproveMembersResponse>;
  /** Starts an asynchronous job that blocks all members matching a filter. Elevated. */
  bulkBlockMembers(filter: FilterLike, options?: CallOptions): Promise<IO.BulkBlockMembersResponse>;
  /** Starts an asynchronous job that deletes all members matching a filter. Elevated. */
  bulkDeleteMembersByFilter(filter: FilterLike, options?: Omit<IO.BulkDeleteMembersByFilterRequest, 'filter'> & CallOptions): Promise<IO.BulkDeleteMembersByFilterResponse>;
}

// The members service names entity fields `id`, `createdDate`, `updatedDate`: an entity transform
// renames the public `_id`... keys at every depth of a filter.
const wireFilter = (f: unknown): any => toWire(unwrap(f), { $entity: true });

/** Creates `client.members` over a transport. */
export const membersNamespace = (t: Transport): MembersApi => {
  const ops = namespaceOperations.members!;
  const api = bindOperations<Record<string, (...a: any[]) => unknown>>(t, ops);
  // The bulk-by-filter methods (first argument `filter`) also take a filter builder.
  for (const { id, args } of ops)
    if (args?.[0] == 'filter') {
      const method = api[id]!;
      api[id] = (filter: unknown, ...rest: unknown[]) => method(wireFilter(filter), ...rest);
    }
  api.queryMembers = (options?: QueryMembersOptions) =>
    queryBuilder((s, call) =>
      pages(
        t,
        O.queryMembers,
        {},
        // Sort fields are renamed like filter keys.
        { ...options, query: { filter: wireFilter(combine(s.c)), sort: s.s[0] && s.s.map((x) => ({ ...x, fieldName: Object.keys(wireFilter({ [x.fieldName]: 0 }))[0]! })) } },
        (r) => r.members,
        // Paging is always sent: the page size is the limit, 50 by default.
        { l: s.l ?? PAGE_SIZE, k: s.k },
        call,
        'query',
      ),
    );
  return api as unknown as MembersApi;
};
