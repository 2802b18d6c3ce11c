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
import {
  infiniteQueryOptions,
  mutationOptions,
  queryOptions,
  type QueryCall,
  type SiteKitQueryBuilder,
} from '../../src/react/index.js';
import { renderHookWithClient } from './render.js';
import { startEmulatorSite, type EmulatorSite } from './emulator-site.js';

let site: EmulatorSite;
let release = () => {};
beforeAll(async () => (site = await startEmulatorSite()));
afterAll(() => site.close());
afterEach(() => release());

const queries = (collection: string) =>
  site.sent.filter((r) => r.path === '/wix-data/v2/items/query' && r.body?.dataCollectionId === collection);
/** A fresh QueryClient (no retries: failures show at once) and a render option that provides it. */
function queryClientSetup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return {
    queryClient,
    outer: (children: React.ReactNode) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
  };
}

describe('query keys', () => {
  const client = createClient({ baseUrl: 'https://api.test' });
  const keyOf = (builder: SiteKitQueryBuilder) => queryOptions(builder).queryKey;
  const readKeyOf = (build: (c: Client, call: QueryCall) => Promise<unknown>) => queryOptions(client, build).queryKey;

  it('are the request the builder sends: the same query, the same key, however it was chained', () => {
    const a = keyOf(client.items.query('Movies').ge('year', 1990).eq('genre', 'drama').descending('year').limit(10));
    const b = keyOf(client.items.query('Movies').limit(10).eq('genre', 'drama').descending('year').ge('year', 1990));
    expect(a).toEqual(b);
    expect(a).toEqual([
      'sitekit',
      'items',
      'Movies',
      {
        dataCollectionId: 'Movies',
        query: {
          filter: { year: { $gte: 1990 }, genre: 'drama' },
          sort: [{ fieldName: 'year', order: 'DESC' }],
          paging: { limit: 10, offset: 0 },
        },
      },
      false,
    ]);
    expect(keyOf(client.members.queryMembers().eq('status', 'APPROVED'))).toEqual([
      'sitekit',
      'members',
      { query: { filter: { status: 'APPROVED' }, paging: { limit: 50, offset: 0 } } },
      false,
    ]);
    // @ts-expect-error: a member query takes no find options (the service always counts members)
    expect(queryOptions(client.members.queryMembers(), { returnTotalCount: true }).queryKey).toEqual(
      keyOf(client.members.queryMembers()),
    );
  });

  it('differ when anything in the request differs', () => {
    const items = () => client.items.query('Movies');
    const keys = [
      keyOf(items()),
      keyOf(client.items.query('Books')),
      keyOf(items().eq('year', 1990)),
      keyOf(items().eq('year', '1990')),
      keyOf(items().eq('released', new Date('1990-01-01T00:00:00Z'))),
      keyOf(items().eq('released', '1990-01-01T00:00:00.000Z')),
      keyOf(items().or(client.items.filter().eq('genre', 'drama'))),
      keyOf(items().or(client.items.filter().eq('genre', 'comedy'))),
      keyOf(items().ascending('year', 'title')),
      keyOf(items().ascending('title', 'year')),
      keyOf(items().limit(10)),
      keyOf(items().limit(10).skip(10)),
      queryOptions(items(), { returnTotalCount: true }).queryKey,
      keyOf(client.members.queryMembers().eq('status', 'APPROVED')),
      keyOf(client.members.queryMembers({ fieldsets: ['FULL'] }).eq('status', 'APPROVED')),
    ].map((key) => JSON.stringify(key));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('tell an elevated client apart, and keep plain and infinite queries apart', () => {
    const admin = createClient({ auth: ApiKeyStrategy({ apiKey: 'k', siteId: 's' }) });
    expect(keyOf(admin.items.query('Movies'))).not.toEqual(keyOf(client.items.query('Movies')));
    expect(keyOf(admin.items.query('Movies')).at(-1)).toBe(true);
    expect(infiniteQueryOptions(client.items.query('Movies')).queryKey).not.toEqual(
      keyOf(client.items.query('Movies')),
    );
  });

  it('of direct reads are recorded from the calls, leaving the query signal out', () => {
    const withSignal = readKeyOf((c, { signal }) => c.items.query('Movies', { paging: { limit: 5 } }, { signal }));
    const without = readKeyOf((c) => c.items.query('Movies', { paging: { limit: 5 } }, {}));
    expect(withSignal).toEqual(without);
    expect(withSignal.slice(0, 3)).toEqual(['sitekit', 'items', 'Movies']);
    expect(readKeyOf((c, { signal }) => c.items.count('Movies', { signal }))).not.toEqual(withSignal);
  });

  it('refuse what cannot be a key or a query, with a RequestError', () => {
    const attempts = [
      () => queryOptions(undefined as never, (c: Client) => c.items.count('Movies')),
      () => queryOptions({ find: () => undefined } as unknown as SiteKitQueryBuilder),
      () => queryOptions(client, 'Movies' as never),
      () => queryOptions(client, () => 42 as never),
      () => readKeyOf((c) => c.items.count('Movies', { filter: { when: new URL('https://x.test') } })),
      () => infiniteQueryOptions('Movies' as unknown as SiteKitQueryBuilder),
      () => infiniteQueryOptions(client.items.query('Movies').skip(20)),
      () => queryOptions(client.items.query('Movies').eq('views', 10n)),
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

describe('toRequest', () => {
  it('is what find() sends, for item and member queries', async () => {
    await site.seed('Requests', { title: 'Alien', year: 1979 });
    const client = site.client();
    const movies = client.items
      .query('Requests')
      .ge('year', 1970)
      .lt('released', new Date('2000-01-01T00:00:00Z'))
      .descending('year')
      .fields('title')
      .skip(1)
      .limit(5);
    await movies.find({ returnTotalCount: true });
    expect(movies.toRequest({ returnTotalCount: true })).toEqual({
      namespace: 'items',
      collectionId: 'Requests',
      payload: queries('Requests').at(-1)!.body,
      elevated: false,
    });
    // Elevated: a visitor may filter and sort members on PUBLIC fields only, and no date is one of them.
    const memberBodies: unknown[] = [];
    const admin = createClient({
      baseUrl: site.url,
      auth: ApiKeyStrategy({ apiKey: site.emulator.info.apiKey, siteId: site.emulator.info.siteId }),
      fetch: (input, init) => {
        if (String(input).includes('/members/v1/members/query')) memberBodies.push(JSON.parse(String(init?.body)));
        return fetch(input, init);
      },
    });
    const members = admin.members
      .queryMembers({ fieldsets: ['PUBLIC'] })
      .ge('_createdDate', new Date('2020-01-01T00:00:00Z'))
      .ascending('_createdDate');
    await members.find();
    const sent = memberBodies.at(-1) as { query: { sort: unknown } };
    // The transport's JSON encoding turns the dates a member filter keeps into ISO strings; the query key holds that form.
    const { payload, ...rest } = members.toRequest();
    expect(rest).toEqual({ namespace: 'members', elevated: true });
    expect(JSON.parse(JSON.stringify(payload))).toEqual(sent);
    expect(queryOptions(members).queryKey).toEqual(['sitekit', 'members', sent, true]);
    expect(sent.query.sort).toEqual([{ fieldName: 'createdDate', order: 'ASC' }]);
  });
});

describe('with useQuery', () => {
  it('fetches a page as plain data', async () => {
    await site.seed('Films', { title: 'Alien' }, { title: 'Brazil' }, { title: 'Casablanca' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(client.items.query<{ title: string }>('Films').ascending('title').limit(2))),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({
      pageSize: 2,
      currentPage: 0,
      hasNext: true,
      hasPrev: false,
      totalCount: undefined,
    });
    expect(result.current.data!.items.map((item) => item.title)).toEqual(['Alien', 'Brazil']);
    expect(queries('Films').at(-1)!.body.query.paging).toMatchObject({ limit: 2 });
  });

  it('asks for the total count when told, so a table needs no separate count', async () => {
    await site.seed('Counted', { n: 1 }, { n: 2 }, { n: 3 });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(client.items.query('Counted').limit(2), { returnTotalCount: true })),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toMatchObject({ totalCount: 3, totalPages: 2, hasNext: true });
    expect(queries('Counted').at(-1)!.body.returnTotalCount).toBe(true);
  });

  it('fetches a page of members', async () => {
    const admin = site.emulator.admin;
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(admin.members.queryMembers({ fieldsets: ['FULL'] }).ascending('loginEmail'))),
      admin,
      { outer },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data!.totalCount).toBeGreaterThan(0);
    expect(result.current.data!.items.every((member) => typeof member.loginEmail === 'string')).toBe(true);
  });

  it('refuses, as the query error, a builder given to the direct-read form', async () => {
    const client = site.client();
    const { outer } = queryClientSetup();
    const before = queries('Anything').length;
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(client, ((c: Client) => c.items.query('Anything')) as never)),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(isRequestError(result.current.error)).toBe(true);
    expect(queries('Anything').length).toBe(before);
  });

  it('refuses, as the query error, a function that returns neither a builder with find nor a promise', async () => {
    await site.seed('Tallies', { genre: 'drama' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(client, ((c: Client) => c.items.aggregate('Tallies').group('genre')) as never)),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(isRequestError(result.current.error)).toBe(true);
  });

  it('gives the paged result of a direct read (an aggregation) as plain data too', async () => {
    await site.seed('Genres', { genre: 'drama' }, { genre: 'drama' }, { genre: 'comedy' });
    const client = site.client();
    const { outer } = queryClientSetup();
    const { result } = renderHookWithClient(
      () =>
        useQuery(
          queryOptions(client, (c, { signal }) =>
            c.items.aggregate('Genres').group('genre').count().ascending('genre').run({ signal }),
          ),
        ),
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
    const { result } = renderHookWithClient(
      () => useQuery(queryOptions(client, (c, { signal }) => c.items.query('Shorts', {}, { signal }))),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data!.items).toHaveLength(1);
  });

  it('cancels the request when TanStack Query cancels the query', async () => {
    const client = site.client();
    const { queryClient, outer } = queryClientSetup();
    await site.seed('Slow');
    const options = queryOptions(client.items.query('Slow'));
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
    const { result } = renderHookWithClient(
      () =>
        useInfiniteQuery(
          infiniteQueryOptions(client.items.query('Songs').ascending('title').limit(2), { returnTotalCount: true }),
        ),
      client,
      { outer },
    );
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    while (result.current.hasNextPage) {
      await act(() => result.current.fetchNextPage());
    }
    expect(result.current.data!.pages.flatMap((page) => page.items.map((item) => item.title))).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);
    expect(result.current.data!.pageParams).toEqual([0, 2, 4]);
    expect(
      queries('Songs')
        .slice(-3)
        .map((r) => r.body.query.paging.offset ?? 0),
    ).toEqual([0, 2, 4]);
    expect(result.current.data!.pages[0]!.totalCount).toBe(5);
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
        posters: useQuery(queryOptions(client.items.query('Posters'))),
        others: useQuery(queryOptions(client.items.query('Others'))),
        postersCount: useQuery(queryOptions(client, (c, { signal }) => c.items.count('Posters', { signal }))),
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
    await waitFor(() => expect(result.current.postersCount.data).toBe(1));
    expect(queries('Others').length).toBe(othersBefore);
  });

  it('invalidates what it is told to', async () => {
    const client = site.client();
    const { queryClient } = queryClientSetup();
    const invalidated: unknown[] = [];
    const fakeClient = {
      invalidateQueries: async (filters: { queryKey: readonly unknown[] }) => void invalidated.push(filters.queryKey),
    };
    const options = mutationOptions(client, (c, title: string) => c.items.insert('Posters', { title }), {
      invalidates: [['items', 'Posters'], ['members']],
    });
    await options.mutationFn('Nosferatu', { client: fakeClient });
    expect(invalidated).toEqual([
      ['sitekit', 'items', 'Posters'],
      ['sitekit', 'members'],
    ]);
    queryClient.clear();
  });
});
