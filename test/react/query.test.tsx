// @vitest-environment jsdom
/**
 * TanStack Query options against the emulator: keys derived from the recorded query (same query,
 * same key), pages as plain data, cancellation through TanStack's signal, infinite queries by
 * offset, and mutations that invalidate the collection they wrote to.
 */
import { QueryClient, QueryClientProvider, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { act, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, isRequestError, type Client } from '../../src/index.js';
import { infiniteQueryOptions, mutationOptions, queryOptions, type QueryCall } from '../../src/react/index.js';
import { renderHookWithClient } from './render.js';
import { startEmulatorSite, type EmulatorSite } from './emulator-site.js';

let site: EmulatorSite;
let release = () => {};
beforeAll(async () => (site = await startEmulatorSite()));
afterAll(() => site.close());
afterEach(() => release());

const queries = (collection: string) => site.sent.filter((r) => r.path === '/wix-data/v2/items/query' && r.body?.dataCollectionId === collection);
/** A fresh QueryClient (no retries: failures show at once) and a render option that provides it. */
function queryClientSetup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return { queryClient, outer: (children: React.ReactNode) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider> };
}

describe('query keys', () => {
  const client = createClient({ baseUrl: 'https://api.test' });
  const keyOf = (build: (c: Client, call: QueryCall) => unknown) => queryOptions(client, build as (c: Client, call: QueryCall) => Promise<unknown>).queryKey;

  it('are the same for the same query, and start with the collection', () => {
    const a = keyOf((c) => c.items.query('Movies').ge('year', 1990).descending('year').limit(10));
    const b = keyOf((c) => c.items.query('Movies').ge('year', 1990).descending('year').limit(10));
    expect(a).toEqual(b);
    expect(a.slice(0, 3)).toEqual(['sitekit', 'items', 'Movies']);
  });

  it('differ when anything in the query differs', () => {
    const keys = [
      keyOf((c) => c.items.query('Movies')),
      keyOf((c) => c.items.query('Books')),
      keyOf((c) => c.items.query('Movies').eq('year', 1990)),
      keyOf((c) => c.items.query('Movies').eq('year', '1990')),
      keyOf((c) => c.items.query('Movies').eq('released', new Date('1990-01-01T00:00:00Z'))),
      keyOf((c) => c.items.query('Movies').eq('released', '1990-01-01T00:00:00.000Z')),
      keyOf((c) => c.items.query('Movies').or(c.items.filter().eq('genre', 'drama'))),
      keyOf((c) => c.items.query('Movies').or(c.items.filter().eq('genre', 'comedy'))),
      keyOf((c) => c.items.query('Movies').limit(10)),
      keyOf((c) => c.items.query('Movies').limit(10).skip(10)),
      keyOf((c) => c.members.queryMembers().eq('status', 'APPROVED')),
    ].map((key) => JSON.stringify(key));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leave the query signal out, and tell an elevated client apart', () => {
    const withSignal = keyOf((c, { signal }) => c.items.query('Movies', { paging: { limit: 5 } }, { signal }));
    const without = keyOf((c) => c.items.query('Movies', { paging: { limit: 5 } }, {}));
    expect(withSignal).toEqual(without);
    const admin = createClient({ auth: ApiKeyStrategy({ apiKey: 'k', siteId: 's' }) });
    expect(queryOptions(admin, (c) => c.items.query('Movies')).queryKey).not.toEqual(keyOf((c) => c.items.query('Movies')));
  });

  it('refuse what cannot be a key or a query, with a RequestError', () => {
    const attempts = [
      () => queryOptions(undefined as never, (c: Client) => c.items.query('Movies')),
      () => queryOptions(client, 'Movies' as never),
      () => queryOptions(client, () => 42 as never),
      () => keyOf((c) => c.items.query('Movies').eq('when', new URL('https://x.test'))),
      () => keyOf((c) => c.items.query('Movies').eq('when', () => 1)),
    ];
    for (const attempt of attempts) {
      let error: unknown;
      try {
        attempt();
      } catch (e) {
        error = e;
      }
      expect(isRequestError(error)).toBe(true);
    }
  });
});

describe('with useQuery', () => {
  it('fetches a page as plain data', async () => {
    await site.seed('Films', { title: 'Alien' }, { title: 'Brazil' }, { title: 'Casablanca' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(() => useQuery(queryOptions(client, (c) => c.items.query('Films').ascending('title').limit(2))), client, { outer });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ pageSize: 2, currentPage: 0, hasNext: true, hasPrev: false });
    expect(result.current.data!.items.map((item) => item.title)).toEqual(['Alien', 'Brazil']);
    expect(queries('Films').at(-1)!.body.query.paging).toMatchObject({ limit: 2 });
  });

  it('refuses, as the query error, a function that returns neither a builder with find nor a promise', async () => {
    await site.seed('Tallies', { genre: 'drama' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(() => useQuery(queryOptions(client, ((c: Client) => c.items.aggregate('Tallies').group('genre')) as never)), client, { outer });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(isRequestError(result.current.error)).toBe(true);
  });

  it('gives the paged result of a direct read (an aggregation) as plain data too', async () => {
    await site.seed('Genres', { genre: 'drama' }, { genre: 'drama' }, { genre: 'comedy' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(client, (c, { signal }) => c.items.aggregate('Genres').group('genre').count().ascending('genre').run({ signal }))),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ hasNext: false, hasPrev: false });
    expect(result.current.data!.items.map((row) => [row.genre, row.count])).toEqual([
      ['comedy', 1],
      ['drama', 2],
    ]);
  });

  it('passes the promise of a direct read through, with the signal', async () => {
    await site.seed('Shorts', { title: 'Un chien andalou' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(() => useQuery(queryOptions(client, (c, { signal }) => c.items.query('Shorts', {}, { signal }))), client, { outer });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data!.items).toHaveLength(1);
  });

  it("cancels the request when TanStack Query cancels the query", async () => {
    const client = site.client();
    const { queryClient, outer } = queryClientSetup();
    await site.seed('Slow');
    const options = queryOptions(client, (c) => c.items.query('Slow'));
    release = site.hold('/wix-data/v2/items/query');
    const before = queries('Slow').length;
    renderHookWithClient(() => useQuery(options), client, { outer, strict: false });
    await waitFor(() => expect(queries('Slow').length).toBe(before + 1));
    await act(() => queryClient.cancelQueries({ queryKey: options.queryKey }));
    await waitFor(() => expect(queries('Slow').at(-1)!.aborted).toBe(true));
  });
});

describe('with useInfiniteQuery', () => {
  it('pages by offset until there is no next page', async () => {
    await site.seed('Songs', ...['a', 'b', 'c', 'd', 'e'].map((title) => ({ title })));
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(() => useInfiniteQuery(infiniteQueryOptions(client, (c) => c.items.query('Songs').ascending('title').limit(2))), client, { outer });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    while (result.current.hasNextPage) {
      await act(() => result.current.fetchNextPage());
    }
    expect(result.current.data!.pages.flatMap((page) => page.items.map((item) => item.title))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(result.current.data!.pageParams).toEqual([0, 2, 4]);
    expect(queries('Songs').slice(-3).map((r) => r.body.query.paging.offset ?? 0)).toEqual([0, 2, 4]);
  });
});

describe('mutationOptions', () => {
  it('refetches the queries of the collection written to, and only those', async () => {
    await site.seed('Posters');
    await site.seed('Others');
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () => ({
        posters: useQuery(queryOptions(client, (c) => c.items.query('Posters'))),
        others: useQuery(queryOptions(client, (c) => c.items.query('Others'))),
        add: useMutation(mutationOptions(client, (c, title: string) => c.items.insert('Posters', { title }))),
      }),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.posters.isSuccess && result.current.others.isSuccess).toBe(true));
    expect(result.current.posters.data!.items).toEqual([]);
    const othersBefore = queries('Others').length;
    await act(() => result.current.add.mutateAsync('Metropolis'));
    await waitFor(() => expect(result.current.posters.data!.items.map((item) => item.title)).toEqual(['Metropolis']));
    expect(queries('Others').length).toBe(othersBefore);
  });

  it('invalidates what it is told to', async () => {
    const client = site.client();
    const { queryClient } = queryClientSetup();
    const invalidated: unknown[] = [];
    const fakeClient = { invalidateQueries: async (filters: { queryKey: readonly unknown[] }) => void invalidated.push(filters.queryKey) };
    const options = mutationOptions(client, (c, title: string) => c.items.insert('Posters', { title }), { invalidates: [['items', 'Posters'], ['members']] });
    await options.mutationFn('Nosferatu', { client: fakeClient });
    expect(invalidated).toEqual([
      ['sitekit', 'items', 'Posters'],
      ['sitekit', 'members'],
    ]);
    queryClient.clear();
  });
});
