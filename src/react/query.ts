/**
 * TanStack Query integration without importing TanStack Query: plain `{queryKey, queryFn}` option
 * objects (TanStack Query is an optional peer; these shapes are what `useQuery`,
 * `useInfiniteQuery`, `prefetchQuery` and `useMutation` take), keys derived from the request a
 * query builder sends (or, for direct reads, from the recorded calls), and mutation options that
 * invalidate the queries of what they change.
 */
import {
  RequestError,
  type AuthStrategy,
  type CallOptions,
  type Client,
  type PagedResult,
  type QueryRequest,
} from '../index.js';
import { plainCalls, record, type RecordedCall } from './record.js';

/** The first element of every sitekit query key: `invalidateQueries({queryKey: ['sitekit']})` refreshes them all. */
export const QUERY_KEY_ROOT = 'sitekit';

/**
 * A sitekit query key. For a query builder: `['sitekit', namespace, collectionId?, payload,
 * elevated]`, the payload being the request `find()` sends (an infinite query adds `'infinite'`).
 * For a direct read: `['sitekit', namespace, ...target, query]`, where the target is the first
 * string argument of the first call (the collection of an items call, the id of a `get`) and
 * `query` holds every recorded call and whether the client is elevated. Either way the
 * collection comes third, so a write to it can invalidate every query of it.
 */
export type SiteKitQueryKey = readonly [typeof QUERY_KEY_ROOT, string, ...unknown[]];

/** A page of a query builder's result, as plain data (so it can be dehydrated for server rendering). */
export interface PageData<T> {
  items: T[];
  /** Total number of matches, when the service counted them. */
  totalCount: number | undefined;
  pageSize: number;
  currentPage: number;
  totalPages: number | undefined;
  hasNext: boolean;
  hasPrev: boolean;
}

/** What the query functions receive from TanStack Query (a subset of its `QueryFunctionContext`). */
export interface QueryCallContext {
  signal: AbortSignal;
}

/** Options for `useQuery`, `useSuspenseQuery`, `prefetchQuery`, `fetchQuery`... */
export interface SiteKitQueryOptions<R> {
  queryKey: SiteKitQueryKey;
  queryFn: (context: QueryCallContext) => Promise<R>;
}

/** Options for `useInfiniteQuery` / `prefetchInfiniteQuery`: pages by offset (`skip`). */
export interface SiteKitInfiniteQueryOptions<T> {
  queryKey: SiteKitQueryKey;
  queryFn: (context: QueryCallContext & { pageParam: number }) => Promise<PageData<T>>;
  initialPageParam: number;
  getNextPageParam: (lastPage: PageData<T>, allPages: PageData<T>[], lastPageParam: number) => number | undefined;
  getPreviousPageParam: (firstPage: PageData<T>, allPages: PageData<T>[], firstPageParam: number) => number | undefined;
}

/**
 * A sitekit query builder (`client.items.query(id)`, `client.members.queryMembers()`): it runs
 * (`find`), tells the request it sends (`toRequest`), and starts at an offset (`skip`).
 */
export interface SiteKitQueryBuilder<T = unknown> {
  find(options?: CallOptions): Promise<PagedResult<T>>;
  toRequest(options?: object): QueryRequest;
  skip(offset: number): SiteKitQueryBuilder<T>;
}

/** The items a query builder's pages hold. */
export type QueryResultOf<B> = B extends { find(options?: never): Promise<PagedResult<infer T>> } ? T : never;

/**
 * The read options a builder's request can carry, as `queryOptions` takes them after the builder:
 * `[options?]` with the `find` options of an item query (`returnTotalCount`, `consistentRead`...),
 * none for a member query.
 */
export type QueryRequestArguments<B extends SiteKitQueryBuilder> = Parameters<B['toRequest']>;

/** The second argument of a query function: pass its `signal` to direct calls so TanStack can cancel them. */
export interface QueryCall {
  signal: AbortSignal;
}

const isQueryBuilder = (value: unknown): value is SiteKitQueryBuilder =>
  typeof (value as SiteKitQueryBuilder)?.toRequest === 'function' &&
  typeof (value as SiteKitQueryBuilder).find === 'function';
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown>)?.then === 'function';
const isPagedResult = (value: unknown): value is PagedResult<unknown> =>
  Array.isArray((value as PagedResult<unknown>)?.items) &&
  typeof (value as PagedResult<unknown>).hasNext === 'function' &&
  typeof (value as PagedResult<unknown>).next === 'function';

/** A paged result as plain data. */
const pageData = <T>(page: PagedResult<T>): PageData<T> => ({
  items: page.items,
  totalCount: page.totalCount,
  pageSize: page.pageSize,
  currentPage: page.currentPage,
  totalPages: page.totalPages,
  hasNext: page.hasNext(),
  hasPrev: page.hasPrev(),
});

/**
 * The key of a builder's request, its payload as the JSON the transport sends (dates as ISO
 * strings: plain data, which a dehydrated cache keeps as it is); `kind` keeps plain and infinite
 * queries of the same request apart.
 */
function requestKey(
  { namespace, collectionId, payload, elevated }: QueryRequest,
  kind: 'query' | 'infinite',
  who: string,
): SiteKitQueryKey {
  let sent: unknown;
  try {
    sent = JSON.parse(JSON.stringify(payload));
  } catch (error) {
    // Not JSON (a BigInt, a cycle): find() would refuse it too.
    throw new RequestError(`${who}: the query cannot be sent as JSON (${(error as Error).message})`, {
      field: 'builder',
    });
  }
  const target = collectionId === undefined ? [] : [collectionId];
  return kind === 'query'
    ? [QUERY_KEY_ROOT, namespace, ...target, sent, elevated]
    : [QUERY_KEY_ROOT, namespace, ...target, sent, elevated, kind];
}

/** The builder argument, checked: a sitekit query builder. */
function checkedBuilder<B>(builder: B, who: string): B {
  if (!isQueryBuilder(builder))
    throw new RequestError(`${who}: pass a sitekit query builder, e.g. ${who}(client.items.query(id))`, {
      field: 'builder',
    });
  return builder;
}

/** The namespace (`items`, `members`...) of the first recorded call, and that call's first argument. */
function startOf(calls: readonly RecordedCall[], who: string): { namespace: string; target: unknown } {
  const [first] = calls;
  const [namespace, method] = first?.method.split('.') ?? [];
  if (!first || !namespace || !method)
    throw new RequestError(`${who}: start from the client, e.g. (client) => client.items.query(id)`, {
      field: 'build',
    });
  return { namespace, target: first.args[0] };
}

/**
 * The key of a direct read recorded on `client`: its namespace, then (when the first call has
 * one) its first string argument, then every call.
 */
function readKey(client: Client, calls: RecordedCall[]): SiteKitQueryKey {
  const { namespace, target } = startOf(calls, 'queryOptions');
  const query = { query: plainCalls(calls), elevated: client.auth.elevated };
  return typeof target === 'string' ? [QUERY_KEY_ROOT, namespace, target, query] : [QUERY_KEY_ROOT, namespace, query];
}

/**
 * What a write changes, as a key prefix: an item write its collection's queries
 * (`['sitekit', 'items', 'Movies']`), any other write every query of its namespace.
 */
function changedBy(calls: RecordedCall[]): readonly unknown[] {
  const { namespace, target } = startOf(calls, 'mutationOptions');
  return namespace === 'items' && typeof target === 'string'
    ? [QUERY_KEY_ROOT, namespace, target]
    : [QUERY_KEY_ROOT, namespace];
}

/**
 * Query options for TanStack Query from a sitekit query builder: `find()` runs (one page, as
 * {@link PageData}) with TanStack's `signal`, so a cancelled query aborts its request. The key is
 * the request the builder sends (see {@link SiteKitQueryKey}): the same query gets the same key,
 * however the builder was chained. An item query's `find` options go along
 * (`{returnTotalCount: true}` fills `totalCount`, so a table can show a total without a count).
 *
 * The second form is for direct reads (a `get`, a `count`, an aggregation's `run()`): `build` gets
 * the client and the call (pass `call.signal` to the read so TanStack Query can cancel it); a
 * paged result comes back as {@link PageData}. Its key is derived from the calls `build` makes,
 * so `build` must be a plain chain of sitekit calls (it is also run against a recorder).
 *
 * @example
 * ```tsx
 * const client = useClient();
 * const movies = useQuery(queryOptions(client.items.query<Movie>('Movies').ge('year', 1990).limit(20), { returnTotalCount: true }));
 * const file = useQuery(queryOptions(client, (c, { signal }) => c.media.getFileDescriptor(fileId, { signal })));
 * // Server rendering: await queryClient.prefetchQuery(queryOptions(client.items.query('Movies')));
 * ```
 */
export function queryOptions<B extends SiteKitQueryBuilder>(
  builder: B,
  ...request: QueryRequestArguments<B>
): SiteKitQueryOptions<PageData<QueryResultOf<B>>>;
export function queryOptions<A extends AuthStrategy, T>(
  client: Client<A>,
  build: (client: Client<A>, call: QueryCall) => Promise<PagedResult<T>>,
): SiteKitQueryOptions<PageData<T>>;
export function queryOptions<A extends AuthStrategy, R>(
  client: Client<A>,
  build: (client: Client<A>, call: QueryCall) => Promise<R>,
): SiteKitQueryOptions<R>;
export function queryOptions(source: unknown, ...rest: unknown[]): SiteKitQueryOptions<unknown> {
  if (isQueryBuilder(source)) {
    const [request] = rest as [object?];
    return {
      queryKey: requestKey(source.toRequest(request), 'query', 'queryOptions'),
      queryFn: async ({ signal }) => pageData(await source.find({ ...request, signal })),
    };
  }
  return readOptions(source as Client, rest[0] as (client: Client, call: QueryCall) => unknown);
}

/** Query options of a direct read (the second form of {@link queryOptions}). */
function readOptions(
  client: Client,
  build: (client: Client, call: QueryCall) => unknown,
): SiteKitQueryOptions<unknown> {
  const { calls } = record(checked(build, 'queryOptions'), 'queryOptions');
  return {
    queryKey: readKey(checkedClient(client, 'queryOptions'), calls),
    queryFn: async ({ signal }) => {
      const read = build(client, { signal });
      if (isQueryBuilder(read)) {
        throw new RequestError(
          'queryOptions: pass the query builder itself, e.g. queryOptions(client.items.query(id)), so its key is the request it sends',
          { field: 'build' },
        );
      }
      if (!isThenable(read)) {
        throw new RequestError(
          'queryOptions: the function must return the promise of a read, e.g. (c, { signal }) => c.items.aggregate(id).count().run({ signal })',
          { field: 'build' },
        );
      }
      const result = await read;
      return isPagedResult(result) ? pageData(result) : result;
    },
  };
}

/**
 * Infinite-query options for TanStack Query from a sitekit query builder: page `n + 1` starts
 * where page `n` ended (the builder's `skip`, from 0), until the service says there is no next
 * page. Keyed like {@link queryOptions}, plus `'infinite'`. An item query's `find` options go along.
 *
 * @example
 * ```tsx
 * const { data, fetchNextPage, hasNextPage } = useInfiniteQuery(infiniteQueryOptions(client.items.query<Movie>('Movies').ascending('title').limit(50)));
 * const movies = data?.pages.flatMap((page) => page.items) ?? [];
 * ```
 */
export function infiniteQueryOptions<B extends SiteKitQueryBuilder>(
  builder: B,
  ...request: QueryRequestArguments<B>
): SiteKitInfiniteQueryOptions<QueryResultOf<B>> {
  const [options] = request as [object?];
  const first = checkedBuilder(builder, 'infiniteQueryOptions').skip(0);
  const key = requestKey(first.toRequest(options), 'infinite', 'infiniteQueryOptions');
  // The pages set the offset: a skip on the builder would be silently replaced, so it is refused.
  if (
    JSON.stringify(requestKey(builder.toRequest(options), 'infinite', 'infiniteQueryOptions')) !== JSON.stringify(key)
  ) {
    throw new RequestError('infiniteQueryOptions: the pages start at the first match; leave skip() off the builder', {
      field: 'skip',
    });
  }
  return {
    queryKey: key,
    queryFn: async ({ signal, pageParam }) =>
      pageData((await builder.skip(pageParam).find({ ...options, signal })) as PagedResult<QueryResultOf<B>>),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _allPages, lastPageParam) =>
      lastPage.hasNext && lastPage.items.length > 0 ? lastPageParam + lastPage.items.length : undefined,
    getPreviousPageParam: (firstPage, _allPages, firstPageParam) =>
      firstPageParam > 0 ? Math.max(0, firstPageParam - firstPage.pageSize) : undefined,
  };
}

/** A function argument checked before it is recorded or run. */
function checked<F>(build: F, who: string): F {
  if (typeof build !== 'function')
    throw new RequestError(`${who}: build must be a function of the client, e.g. (client) => client.items.query(id)`, {
      field: 'build',
    });
  return build;
}

/** The client argument, checked (it is used only once a query runs, which would be too late to say so). */
function checkedClient<C extends Client<AuthStrategy>>(client: C, who: string): C {
  if (typeof client?.auth !== 'object' || client.auth === null)
    throw new RequestError(`${who}: client must be a client made by createClient`, { field: 'client' });
  return client;
}

/** The part of TanStack's `QueryClient` that mutation options use. */
export interface InvalidatingQueryClient {
  invalidateQueries(filters: { queryKey: readonly unknown[] }): Promise<void>;
}

/** What TanStack Query passes as the second argument of `mutationFn` (v5.90 and later). */
export interface MutationCallContext {
  client: InvalidatingQueryClient;
}

/** Options for `useMutation`. */
export interface SiteKitMutationOptions<V, R> {
  mutationFn: (variables: V, context: MutationCallContext) => Promise<R>;
}

/** Options of {@link mutationOptions}. */
export interface MutationInvalidation {
  /**
   * The query keys (prefixes) to invalidate after a success. Default: derived from the calls
   * `run` makes: `['sitekit', namespace]` plus the collection for item writes
   * (`client.items.insert('Movies', ...)` → every query of `Movies`).
   */
  invalidates?: readonly (readonly unknown[])[];
}

/**
 * Mutation options for TanStack Query's `useMutation`: runs `run` with the client and, once it
 * succeeds, invalidates the queries of what it changed, so they refetch.
 *
 * @example
 * ```tsx
 * const addMovie = useMutation(mutationOptions(client, (c, movie: Movie) => c.items.insert('Movies', movie)));
 * addMovie.mutate({ title: 'Alien' }); // then every query of 'Movies' refetches
 * ```
 */
export function mutationOptions<A extends AuthStrategy, V, R>(
  client: Client<A>,
  run: (client: Client<A>, variables: V) => Promise<R>,
  options: MutationInvalidation = {},
): SiteKitMutationOptions<V, R> {
  checked(run, 'mutationOptions');
  checkedClient(client, 'mutationOptions');
  return {
    mutationFn: async (variables, context) => {
      if (typeof context?.client?.invalidateQueries !== 'function') {
        throw new RequestError(
          'mutationOptions needs TanStack Query 5.90 or later (mutationFn receives the QueryClient)',
          { field: 'context' },
        );
      }
      // Derived before running, from the same variables, so a failed run changes nothing.
      const invalidates = options.invalidates ?? [
        changedBy(record((recorder: Client<A>) => run(recorder, variables) as unknown, 'mutationOptions').calls),
      ];
      const result = await run(client, variables);
      await Promise.all(
        invalidates.map((prefix) =>
          context.client.invalidateQueries({
            queryKey: prefix[0] === QUERY_KEY_ROOT ? prefix : [QUERY_KEY_ROOT, ...prefix],
          }),
        ),
      );
      return result;
    },
  };
}
