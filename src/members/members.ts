/**
 * The `members` namespace: the methods generated from the schema, plus the `queryMembers()`
 * builder (the shared filter language over the member query endpoint).
 */
import type * as IO from '../../generated/io.js';
import type * as M from '../../generated/models.js';
import { namespaceOperations, type MembersOperations } from '../../generated/namespaces.js';
import { queryMembers } from '../../generated/operations/queryMembers.js';
import { GENERIC_QUERY_RULES, requestFilter } from '../data/filter.js';
import { RequestError } from '../errors/index.js';
import { fetchPages, firstPageRequest, PAGE_SIZE, type PageSource } from '../data/paging.js';
import { EMPTY_QUERY, QueryMethods, type QueryState } from '../data/query.js';
import type { FilterLike, FilterOperators, PagedResult, PagingOperators, QueryRequest } from '../data/types.js';
import type { Transport } from '../http/transport.js';
import { optionsObject } from '../input.js';
import { bindOperations } from '../invoke.js';
import type { CallOptions } from '../types.js';
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
export interface MembersQueryBuilder
  extends FilterOperators<M.Member, MembersQueryBuilder>,
    PagingOperators<M.Member, MembersQueryBuilder> {
  /** Runs the query: one page of members, with the query that fetched it (`query`). */
  find(options?: CallOptions): Promise<MembersQueryResult>;
  /**
   * The request `find()` would send for its first page, without sending it.
   *
   * @example
   * ```ts
   * client.members.queryMembers().eq('status', 'PENDING').toRequest().payload;
   * // { query: { filter: { status: 'PENDING' }, paging: { limit: 50, offset: 0 } } }
   * ```
   */
  toRequest(): QueryRequest;
  /** Every matching member, page after page. */
  all(options?: CallOptions): AsyncIterableIterator<M.Member>;
  /**
   * The query `find()` sends, in the wire form (`id` for `_id`), as the official builder holds it.
   *
   * @example
   * ```ts
   * client.members.queryMembers().eq('_id', 'm1').limit(3).query;
   * // { filter: { id: 'm1' }, paging: { limit: 3, offset: 0 } }
   * ```
   */
  readonly query: M.MembersQuery;
  /**
   * There for code ported from the official builder, whose `skipTo(cursor)` moves to a cursor:
   * member queries page by offset, so it always throws a `RequestError` (the official one a
   * `TypeError`). Use `skip(n)`, or a page's `next()`.
   */
  skipTo(cursor: string): never;
}

/** One page of a member query: a paged result that also carries, as the official one, the query that fetched it. */
export interface MembersQueryResult extends PagedResult<M.Member> {
  /** The query whose `find()` fetched this page. */
  readonly query: MembersQueryBuilder;
}

/** Every method of `client.members`. The bulk-by-filter methods also take a filter builder. */
export interface MembersApi
  extends Omit<MembersOperations, 'bulkApproveMembers' | 'bulkBlockMembers' | 'bulkDeleteMembersByFilter'> {
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
  bulkDeleteMembersByFilter(
    filter: FilterLike,
    options?: Omit<IO.BulkDeleteMembersByFilterRequest, 'filter'> & CallOptions,
  ): Promise<IO.BulkDeleteMembersByFilterResponse>;
}

/** The wire name of a member field: the entity renames (`_createdDate` → `createdDate`). */
const wireFieldName = (fieldName: string): string =>
  Object.keys(toWire({ [fieldName]: true }, { $entity: true }) as object)[0]!;

/**
 * An immutable member query. Filter keys and sort fields use the public names; the operation's
 * request transform renames them. Paging is always sent: the limit, 50 by default.
 */
class MembersQuery extends QueryMethods<MembersQuery> implements MembersQueryBuilder {
  constructor(
    private readonly transport: Transport,
    private readonly options: QueryMembersOptions,
    state: QueryState = EMPTY_QUERY,
  ) {
    // The official member query is the generic builder, which composes filters its own way.
    super(state, GENERIC_QUERY_RULES);
  }

  protected withState(changes: Partial<QueryState>): MembersQuery {
    return new MembersQuery(this.transport, this.options, { ...this.state, ...changes });
  }

  /** How `find(options)` fetches its pages. */
  private pageSource(options: CallOptions | undefined): PageSource {
    const { sort } = this.state;
    const query = {
      filter: requestFilter(this.toFilter()),
      sort:
        sort.length > 0 ? sort.map((entry) => ({ ...entry, fieldName: wireFieldName(entry.fieldName) })) : undefined,
    };
    return {
      transport: this.transport,
      operation: queryMembers,
      base: {},
      rest: { ...this.options, query },
      entries: (response) => response.members as unknown[] | undefined,
      alsoInResult: { query: this },
      pagingField: 'query',
      options,
    };
  }
  /** The page `find()` fetches first: paging is always sent, 50 members by default. */
  private get firstPage() {
    return { limit: this.state.limit ?? PAGE_SIZE, skip: this.state.skip };
  }
  /** Runs the query: one page of members, with this query (`query`). */
  find(options?: CallOptions): Promise<MembersQueryResult> {
    return fetchPages(this.pageSource(options), this.firstPage) as Promise<MembersQueryResult>;
  }
  /** The request `find()` would send for its first page, without sending it. */
  toRequest(): QueryRequest {
    return {
      namespace: 'members',
      payload: firstPageRequest(this.pageSource(undefined), this.firstPage),
      elevated: this.transport.elevated,
    };
  }
  /** Every matching member, page after page. */
  async *all(options?: CallOptions): AsyncIterableIterator<M.Member> {
    yield* (await this.find(options)).all();
  }
  /** The query `find()` sends, in the wire form, as the official builder holds it (no condition: `filter: {}`). */
  get query(): M.MembersQuery {
    const query = this.toRequest().payload.query as M.MembersQuery;
    return { ...query, filter: query.filter ?? {} };
  }
  /** Refused: member queries page by offset (see {@link MembersQueryBuilder.skipTo}). */
  skipTo(): never {
    throw new RequestError('skipTo: member queries page by offset, not by cursor: use skip(n)', { field: 'cursor' });
  }
}

/** Creates `client.members` over a transport. */
export function membersNamespace(transport: Transport): MembersApi {
  const generated = bindOperations<Omit<MembersApi, 'queryMembers'>>(transport, namespaceOperations.members);
  return {
    ...generated,
    queryMembers: (options) =>
      new MembersQuery(transport, optionsObject(options, 'options', 'members.queryMembers') as QueryMembersOptions),
  };
}
