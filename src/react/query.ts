/**
 * TanStack Query integration without importing TanStack Query: plain `{queryKey, queryFn}` option
 * objects (TanStack Query is an optional peer; these shapes are what `useQuery`,
 * `useInfiniteQuery`, `prefetchQuery` and `useMutation` take), keys derived from the recorded
 * query, and mutation options that invalidate the queries of what they change.
 */
import { RequestError, type AuthStrategy, type CallOptions, type Client, type PagedResult } from '../index.js';
import { plainCalls, record, type RecordedCall } from './record.js';

/** The first element of every sitekit query key: `invalidateQueries({queryKey: ['sitekit']})` refreshes them all. */
export const QUERY_KEY_ROOT = 'sitekit';

/**
 * A sitekit query key: `['sitekit', namespace, ...target, query]`, where the target is the first
 * string argument of the first call (the collection of an items query, the id of a `get`), and
 * `query` holds every recorded call and whether the client is elevated (an API-key client sees
 * other data than a visitor's).
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

/** A query builder: something with `find` (item and member queries). */
export interface FindableBuilder<T> {
  find(options?: CallOptions): Promise<PagedResult<T>>;
}

/** A query builder that can also start at an offset, for infinite queries. */
export interface PageableBuilder<T> extends FindableBuilder<T> {
  skip(offset: number): PageableBuilder<T>;
}

/** The second argument of a query function: pass its `signal` to direct calls so TanStack can cancel them. */
export interface QueryCall {
  signal: AbortSignal;
}

const isFindable = (value: unknown): value is FindableBuilder<unknown> => typeof (value as FindableBuilder<unknown>)?.find === 'function';
const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown>)?.then === 'function';
const isPagedResult = (value: unknown): value is PagedResult<unknown> =>
  Array.isArray((value as PagedResult<unknown>)?.items) && typeof (value as PagedResult<unknown>).hasNext === 'function' && typeof (value as PagedResult<unknown>).next === 'function';

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

/** The namespace (`items`, `members`...) of the first recorded call, and that call's first argument. */
function startOf(calls: readonly RecordedCall[], who: string): { namespace: string; target: unknown } {
  const [first] = calls;
  const [namespace, method] = first?.method.split('.') ?? [];
  if (!first || !namespace || !method) throw new RequestError(`${who}: start from the client, e.g. (client) => client.items.query(id)`, { field: 'build' });
  return { namespace, target: first.args[0] };
}

/**
 * The key of a recorded query on `client`: its namespace, then (when the first call has one) its
 * first string argument, then every call; `kind` keeps plain and infinite queries of the same
 * builder apart.
 */
function keyOf(client: Client, calls: RecordedCall[], kind: 'query' | 'infinite', who: string): SiteKitQueryKey {
  const { namespace, target } = startOf(calls, who);
  const query = { [kind]: plainCalls(calls), elevated: client.auth.elevated };
  return typeof target === 'string' ? [QUERY_KEY_ROOT, namespace, target, query] : [QUERY_KEY_ROOT, namespace, query];
}

/**
 * What a write changes, as a key prefix: an item write its collection's queries
 * (`['sitekit', 'items', 'Movies']`), any other write every query of its namespace.
 */
function changedBy(calls: RecordedCall[]): readonly unknown[] {
  const { namespace, target } = startOf(calls, 'mutationOptions');
  return namespace === 'items' && typeof target === 'string' ? [QUERY_KEY_ROOT, namespace, target] : [QUERY_KEY_ROOT, namespace];
}

/**
 * Query options for TanStack Query from a sitekit query. `build` gets the client and returns a
 * query builder (its `find()` runs, one page, as {@link PageData}) or the promise of a direct
 * read (pass `call.signal` to it so TanStack Query can cancel it); a paged result (an
 * aggregation's `run()`, `distinct`, `queryReferenced`) comes back as {@link PageData} too. The key is derived from the
 * calls `build` makes, so the same query always gets the same key; `build` must be a plain chain
 * of sitekit calls (it is also run against a recorder to derive the key).
 *
 * @example
 * ```tsx
 * const client = useClient();
 * const movies = useQuery(queryOptions(client, (c) => c.items.query<Movie>('Movies').ge('year', 1990).limit(20)));
 * const file = useQuery(queryOptions(client, (c, { signal }) => c.media.getFileDescriptor(fileId, { signal })));
 * // Server rendering: await queryClient.prefetchQuery(queryOptions(client, (c) => c.items.query('Movies')));
 * ```
 */
export function queryOptions<A extends AuthStrategy, T>(client: Client<A>, build: (client: Client<A>, call: QueryCall) => FindableBuilder<T>): SiteKitQueryOptions<PageData<T>>;
export function queryOptions<A extends AuthStrategy, T>(client: Client<A>, build: (client: Client<A>, call: QueryCall) => Promise<PagedResult<T>>): SiteKitQueryOptions<PageData<T>>;
export function queryOptions<A extends AuthStrategy, R>(client: Client<A>, build: (client: Client<A>, call: QueryCall) => Promise<R>): SiteKitQueryOptions<R>;
export function queryOptions<A extends AuthStrategy>(client: Client<A>, build: (client: Client<A>, call: QueryCall) => unknown): SiteKitQueryOptions<unknown> {
  const { calls } = record(checked(build, 'queryOptions'), 'queryOptions');
  return {
    queryKey: keyOf(checkedClient(client, 'queryOptions') as Client, calls, 'query', 'queryOptions'),
    queryFn: async ({ signal }) => {
      const query = build(client, { signal });
      if (isFindable(query)) return pageData(await query.find({ signal }));
      if (!isThenable(query)) {
        throw new RequestError('queryOptions: the function must return a query builder (with find) or the promise of a read, e.g. (c, { signal }) => c.items.aggregate(id).count().run({ signal })', { field: 'build' });
      }
      const result = await query;
      return isPagedResult(result) ? pageData(result) : result;
    },
  };
}

/**
 * Infinite-query options for TanStack Query from a sitekit query builder: page `n + 1` starts
 * where page `n` ended (`skip`), until the service says there is no next page.
 *
 * @example
 * ```tsx
 * const { data, fetchNextPage, hasNextPage } = useInfiniteQuery(
 *   infiniteQueryOptions(client, (c) => c.items.query<Movie>('Movies').ascending('title').limit(50)),
 * );
 * const movies = data?.pages.flatMap((page) => page.items) ?? [];
 * ```
 */
export function infiniteQueryOptions<A extends AuthStrategy, T>(client: Client<A>, build: (client: Client<A>) => PageableBuilder<T>): SiteKitInfiniteQueryOptions<T> {
  const { calls } = record(checked(build, 'infiniteQueryOptions'), 'infiniteQueryOptions');
  return {
    queryKey: keyOf(checkedClient(client, 'infiniteQueryOptions') as Client, calls, 'infinite', 'infiniteQueryOptions'),
    queryFn: async ({ signal, pageParam }) => {
      const query = build(client);
      if (!isFindable(query) || typeof query.skip !== 'function') {
        throw new RequestError('infiniteQueryOptions: the function must return a query builder (with find and skip)', { field: 'build' });
      }
      return pageData(await query.skip(pageParam).find({ signal }));
    },
    initialPageParam: 0,
    getNextPageParam: (lastPage, _allPages, lastPageParam) => (lastPage.hasNext && lastPage.items.length > 0 ? lastPageParam + lastPage.items.length : undefined),
    getPreviousPageParam: (firstPage, _allPages, firstPageParam) => (firstPageParam > 0 ? Math.max(0, firstPageParam - firstPage.pageSize) : undefined),
  };
}

/** A function argument checked before it is recorded or run. */
function checked<F>(build: F, who: string): F {
  if (typeof build !== 'function') throw new RequestError(`${who}: build must be a function of the client, e.g. (client) => client.items.query(id)`, { field: 'build' });
  return build;
}

/** The client argument, checked (it is used only once a query runs, which would be too late to say so). */
function checkedClient<C extends Client<AuthStrategy>>(client: C, who: string): C {
  if (typeof client?.auth !== 'object' || client.auth === null) throw new RequestError(`${who}: client must be a client made by createClient`, { field: 'client' });
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
export function mutationOptions<A extends AuthStrategy, V, R>(client: Client<A>, run: (client: Client<A>, variables: V) => Promise<R>, options: MutationInvalidation = {}): SiteKitMutationOptions<V, R> {
  checked(run, 'mutationOptions');
  checkedClient(client, 'mutationOptions');
  return {
    mutationFn: async (variables, context) => {
      if (typeof context?.client?.invalidateQueries !== 'function') {
        throw new RequestError('mutationOptions needs TanStack Query 5.90 or later (mutationFn receives the QueryClient)', { field: 'context' });
      }
      // Derived before running, from the same variables, so a failed run changes nothing.
      const invalidates = options.invalidates ?? [changedBy(record((recorder: Client<A>) => run(recorder, variables) as unknown, 'mutationOptions').calls)];
      const result = await run(client, variables);
      await Promise.all(invalidates.map((prefix) => context.client.invalidateQueries({ queryKey: prefix[0] === QUERY_KEY_ROOT ? prefix : [QUERY_KEY_ROOT, ...prefix] })));
      return result;
    },
  };
}
