/**
 * Transport behaviour through createClient, shared by the test files of both HTTP handlers
 * (`transport.test.ts`: fetch; `transport-node.test.ts`: node:http): retries, time limits, abort,
 * errors, fallback, headers.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { operations } from '../../../generated/operations.js';
import { ApiKeyStrategy } from '../../../src/auth/api-key.js';
import type { AuthStrategy } from '../../../src/auth/strategy.js';
import { createClient, type ClientOptions } from '../../../src/client.js';
import {
  AbortedError,
  ApplicationError,
  ElevationRequiredError,
  HttpError,
  NetworkError,
  RequestError,
  TimeoutError,
  ValidationError,
} from '../../../src/errors/index.js';
import { DEFAULT_ATTEMPT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS } from '../../../src/http/options.js';
import { serializeQuery } from '../../../src/http/query.js';
import { Transport } from '../../../src/http/transport.js';
import { buildRequest } from '../../../src/request.js';
import { BASE, captureAll } from '../../helpers/capture.js';

const admin = (o: Partial<ClientOptions> = {}) =>
  createClient({ auth: ApiKeyStrategy({ apiKey: 'k' }), baseUrl: BASE, retry: { random: () => 0 }, ...o });
const deepFreeze = <T>(o: T): T => {
  if (o && typeof o === 'object') {
    Object.values(o).forEach(deepFreeze);
    Object.freeze(o);
  }
  return o;
};

/** Defines every transport case; call it inside a `describe` of the handler under test. */
export function transportCases(): void {
  beforeEach(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  describe('retries', () => {
    it('retries a GET on 503 and succeeds on the third attempt', async () => {
      const log = captureAll((_req, n) =>
        n < 3 ? [503, { message: 'busy' }] : [200, { collection: { id: 'Movies' } }],
      );
      expect(await admin().collections.getDataCollection('Movies')).toEqual({ _id: 'Movies' });
      expect(log).toHaveLength(3);
    });

    it('gives up after the configured retries with a typed error', async () => {
      const log = captureAll(() => [503, '<html>down</html>', { 'x-wix-request-id': 'req-9' }]);
      const e = await admin({ retry: { retries: 1, random: () => 0 } })
        .collections.getDataCollection('Movies')
        .catch((x) => x);
      expect(e).toBeInstanceOf(HttpError);
      expect(e.code).toBe('SYSTEM_ERROR');
      expect(e.requestId).toBe('req-9');
      expect(e.message).toContain('System error occurred');
      expect(log).toHaveLength(2);
    });

    it('never replays a non-idempotent write (insert on 503 or a network error)', async () => {
      const log = captureAll(() => [503, {}]);
      await expect(admin().items.insert('Movies', { title: 'x' })).rejects.toBeInstanceOf(HttpError);
      expect(log).toHaveLength(1);
      nock.cleanAll();
      const scope = nock(BASE).post('/wix-data/v2/items').times(3).replyWithError('socket hang up');
      await expect(admin().items.insert('Movies', { title: 'x' })).rejects.toBeInstanceOf(NetworkError);
      expect(scope.pendingMocks()).toHaveLength(1); // two of three interceptors are left: one attempt
    });

    it('retries a read-only POST (count) and a network error on GET', async () => {
      const log = captureAll((_r, n) => (n === 1 ? [429, {}] : [200, { totalCount: 7 }]));
      expect(await admin().items.count('Movies', {})).toBe(7);
      expect(log).toHaveLength(2);
      nock.cleanAll();
      nock(BASE)
        .get('/site-media/v1/files/get-file-by-id?fileId=f')
        .replyWithError('ECONNRESET')
        .get('/site-media/v1/files/get-file-by-id?fileId=f')
        .reply(200, { file: { id: 'f' } });
      expect(await admin().media.getFileDescriptor('f')).toEqual({ _id: 'f' });
    });

    it('honours Retry-After', async () => {
      captureAll((_r, n) => (n === 1 ? [429, {}, { 'retry-after': '0.2' }] : [200, { collection: {} }]));
      const t0 = performance.now();
      await admin().collections.getDataCollection('Movies');
      expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    });

    it('retry: false sends exactly once', async () => {
      const log = captureAll(() => [503, {}]);
      await expect(admin({ retry: false }).collections.getDataCollection('Movies')).rejects.toBeInstanceOf(HttpError);
      expect(log).toHaveLength(1);
    });
  });

  describe('time limits and abort', () => {
    it('a slow answer rejects with TimeoutError (client default and per-call override)', async () => {
      nock(BASE).get('/wix-data/v2/collections/M').times(2).delay(300).reply(200, {});
      const e = await admin({ timeoutMs: 50 })
        .collections.getDataCollection('M')
        .catch((x) => x);
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.code).toBe('TIMEOUT');
      await expect(
        admin({ timeoutMs: 10_000 }).collections.getDataCollection('M', { timeoutMs: 40 }),
      ).rejects.toBeInstanceOf(TimeoutError);
    });

    it('the time limit covers retries', async () => {
      const log = captureAll(() => [503, {}]);
      await expect(
        admin({
          timeoutMs: 150,
          retry: { retries: 50, baseDelayMs: 100, maxDelayMs: 100, random: () => 1 },
        }).collections.getDataCollection('M'),
      ).rejects.toBeInstanceOf(TimeoutError);
      expect(log.length).toBeLessThan(5);
    });

    it('the caller aborts: AbortedError, and a pre-aborted signal sends nothing', async () => {
      nock(BASE).get('/wix-data/v2/collections/M').delay(500).reply(200, {});
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 20);
      const e = await admin()
        .collections.getDataCollection('M', { signal: ac.signal })
        .catch((x) => x);
      expect(e).toBeInstanceOf(AbortedError);
      const log = captureAll();
      await expect(admin().members.getMember('m', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
        AbortedError,
      );
      await expect(admin().members.deleteMember('m', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
        AbortedError,
      );
      expect(log).toHaveLength(0);
    });

    it('a pre-aborted signal does not ask the strategy for credentials either (no token grant for a call that ends)', async () => {
      const log = captureAll();
      let asked = 0;
      const auth: AuthStrategy = {
        elevated: false,
        getAuthHeaders: async () => {
          asked++;
          return { headers: { authorization: 'fresh' } };
        },
      };
      const client = createClient({ auth, baseUrl: BASE });
      await expect(client.members.getMember('m', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortedError);
      expect([asked, log.length]).toEqual([0, 0]);
    });
  });

  describe('error mapping through the client', () => {
    it('validation error → ValidationError with violations sorted by field', async () => {
      captureAll(() => [
        400,
        {
          message: 'bad',
          details: {
            validationError: {
              fieldViolations: [
                { field: 'collection.z', description: 'z bad' },
                { field: 'collection.id', description: 'must not be empty' },
              ],
            },
          },
        },
      ]);
      const e = await admin()
        .collections.createDataCollection({ _id: '' })
        .catch((x) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.violations.map((v: { field: string }) => v.field)).toEqual(['collection.id', 'collection.z']);
      expect(e.message.split('\n')).toHaveLength(1);
    });

    it('application error → ApplicationError; missing item → null for get and remove', async () => {
      captureAll((req) =>
        req.url.includes('/items')
          ? [
              404,
              {
                message: 'Item not found',
                details: { applicationError: { code: 'WDE0073', description: 'not found' } },
              },
            ]
          : [
              409,
              {
                message: 'exists',
                details: { applicationError: { code: 'WDE0074', description: 'd', data: { id: 'a' } } },
              },
            ],
      );
      expect(await admin().items.get('Movies', 'nope')).toBeNull();
      expect(await admin().items.remove('Movies', 'nope')).toBeNull();
      const e = await admin()
        .collections.createDataCollection({ _id: 'M' })
        .catch((x) => x);
      expect(e).toBeInstanceOf(ApplicationError);
      expect([e.code, e.status, e.data]).toEqual(['WDE0074', 409, { id: 'a' }]);
    });

    it('plain 4xx → HttpError with the upper-snake status text; unreadable 2xx body → typed error', async () => {
      captureAll((req) => (req.method === 'DELETE' ? [403, ''] : [200, '{"trunc']));
      const e = await admin()
        .members.deleteMember('m1')
        .catch((x) => x);
      expect(e).toBeInstanceOf(HttpError);
      expect(e.code).toBe('FORBIDDEN');
      const e2 = await admin()
        .members.getMember('m1')
        .catch((x) => x);
      expect(e2).toBeInstanceOf(HttpError);
      expect(e2.code).toBe('SYSTEM_ERROR');
    });

    it('elevated operations need an elevated client: error before any request', async () => {
      const log = captureAll();
      const visitor = createClient({ baseUrl: BASE });
      const e = await visitor.members.approveMember('m1').catch((x) => x);
      expect(e).toBeInstanceOf(ElevationRequiredError);
      expect(e.message).toContain('approveMember requires an elevated client');
      expect(log).toHaveLength(0);
    });

    it('the transport itself refuses an elevated operation to a client that is not (whoever calls it)', async () => {
      const log = captureAll();
      const auth: AuthStrategy = { elevated: false, getAuthHeaders: async () => ({ headers: {} }) };
      const t = new Transport({ baseUrl: BASE, auth });
      await expect(t.send({ ...operations.getMember, elevated: true }, { id: 'm1' })).rejects.toBeInstanceOf(
        ElevationRequiredError,
      );
      expect(log).toHaveLength(0);
    });

    it('a request the operation cannot be built from is a RequestError naming the field, nothing sent', async () => {
      const log = captureAll();
      const t = new Transport({ baseUrl: BASE, auth: ApiKeyStrategy({ apiKey: 'k' }) });
      const error = await t.send(operations.getMember, {}).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestError);
      expect(error).toMatchObject({ message: 'getMember: missing path parameter "id"', field: 'id' });
      expect(log).toHaveLength(0);
    });

    it('raw requests go through the caller’s fetch when there is one, else the global fetch', async () => {
      const log = captureAll(() => [200, 'global']);
      const callerFetch = vi.fn<typeof fetch>(async () => new Response('caller'));
      const own = new Transport({ baseUrl: BASE, auth: ApiKeyStrategy({ apiKey: 'k' }), fetch: callerFetch });
      const plain = new Transport({ baseUrl: BASE, auth: ApiKeyStrategy({ apiKey: 'k' }) });
      expect([own.usesCallerFetch, plain.usesCallerFetch]).toEqual([true, false]);
      expect(await (await own.fetchRaw(`${BASE}/raw`, { method: 'PUT' })).text()).toBe('caller');
      expect(callerFetch).toHaveBeenCalledWith(`${BASE}/raw`, { method: 'PUT' });
      expect(await (await plain.fetchRaw(`${BASE}/raw`)).text()).toBe('global');
      expect(log.map((r) => r.url)).toEqual(['/raw']);
    });

    it('bad input → RequestError before any request, never a TypeError', async () => {
      const log = captureAll();
      const c = admin();
      await expect(c.items.get('Movies', undefined as never)).rejects.toBeInstanceOf(RequestError);
      await expect(c.members.getMember('')).rejects.toBeInstanceOf(RequestError);
      await expect(c.members.createMember(undefined as never)).rejects.toBeInstanceOf(RequestError);
      await expect(c.media.listFiles('nope' as never)).rejects.toBeInstanceOf(RequestError);
      expect(log).toHaveLength(0);
    });
  });

  describe('wire details', () => {
    it('any 2xx is success, 204 with no body included', async () => {
      captureAll((req) => (req.method === 'DELETE' ? [204] : [201, { member: { id: 'm' } }]));
      await expect(admin().collections.deleteDataCollection('M')).resolves.toEqual({});
      await expect(admin().members.createMember({ member: {} })).resolves.toEqual({ _id: 'm' });
    });

    it('replays x-wix-consistent on later requests of the same client', async () => {
      const log = captureAll((_r, n) => [
        200,
        { collection: {} },
        n === 1 ? { 'x-wix-consistent': 'tok-1' } : undefined,
      ]);
      const c = admin();
      await c.collections.getDataCollection('A');
      await c.collections.getDataCollection('B');
      expect(log[0]!.headers['x-wix-consistent']).toBeUndefined();
      expect(log[1]!.headers['x-wix-consistent']).toBe('tok-1');
    });

    it('a GET of exactly 4000 query characters stays a GET, one of 4001 takes its POST fallback; a GET without a fallback stays one however long', async () => {
      const log = captureAll(() => [200, { dataItems: [], files: [] }]);
      const t = new Transport({ baseUrl: BASE, auth: ApiKeyStrategy({ apiKey: 'k' }), retry: false });
      const request = (length: number) => ({
        dataCollectionId: 'M',
        query: { filter: { title: { $eq: 'x'.repeat(length) } } },
      });
      let length = 0;
      while (serializeQuery(buildRequest(operations.queryDataItemsGet, request(length)).query).length < 4000) length++;
      expect(serializeQuery(buildRequest(operations.queryDataItemsGet, request(length)).query)).toHaveLength(4000);
      await t.send(operations.queryDataItemsGet, request(length));
      await t.send(operations.listFiles, { parentFolderId: 'f'.repeat(5000) });
      // One character more: the POST fallback.
      await t.send(operations.queryDataItemsGet, request(length + 1));
      expect(log.map((r) => [r.method, r.url.length > 4000])).toEqual([
        ['GET', true],
        ['GET', true],
        ['POST', false],
      ]);
    });

    it('a GET whose query exceeds 4000 characters switches to its POST fallback', async () => {
      const log = captureAll(() => [200, { dataItems: [] }]);
      const t = new Transport({ baseUrl: BASE, auth: ApiKeyStrategy({ apiKey: 'k' }), retry: false });
      const small = { dataCollectionId: 'M', query: { sort: [{ fieldName: 'a', order: 'ASC' }] } };
      await t.send(operations.queryDataItemsGet, small);
      const big = {
        dataCollectionId: 'M',
        query: { filter: { title: { $in: Array.from({ length: 400 }, (_, i) => `title-${i}`) } } },
      };
      await t.send(operations.queryDataItemsGet, big);
      expect(log[0]!.method).toBe('GET');
      expect(log[0]!.url).toBe(
        `/wix-data/v2/items/query?.r=${Buffer.from(JSON.stringify(small)).toString('base64url')}`,
      );
      expect(`${log[1]!.method} ${log[1]!.url}`).toBe('POST /wix-data/v2/items/query');
      expect(log[1]!.body).toEqual(big);
    });

    it('a 401 asks the strategy to renew once and replays the call once', async () => {
      let token = 'old';
      let renewals = 0;
      const auth: AuthStrategy = {
        elevated: false,
        getAuthHeaders: async () => ({ headers: { Authorization: token } }),
        onUnauthorized: async () => ((token = 'new'), ++renewals, true),
      };
      const log = captureAll((req) =>
        req.headers.authorization === 'old' ? [401, {}] : [200, { member: { id: 'me' } }],
      );
      expect(await createClient({ auth, baseUrl: BASE }).members.getCurrentMember()).toEqual({ member: { _id: 'me' } });
      expect(renewals).toBe(1);
      expect(log.map((r) => r.headers.authorization)).toEqual(['old', 'new']);
      token = 'old';
      nock.cleanAll();
      captureAll(() => [401, {}]);
      await expect(createClient({ auth, baseUrl: BASE }).members.getCurrentMember()).rejects.toMatchObject({
        code: 'UNAUTHORIZED',
      });
      expect(renewals).toBe(2);
    });

    it('never mutates the caller’s objects', async () => {
      // The server echoes the request: each answer has the shape its operation promises.
      captureAll((req) => [200, req.body]);
      const c = admin();
      const item = deepFreeze({ _id: 'a', when: new Date(0), tags: ['x'] });
      const member = deepFreeze({ _id: 'm', profile: { nickname: 'n' } });
      const collection = deepFreeze({
        _id: 'C',
        fields: [{ key: 'n', type: 'NUMBER' as const, numberRange: { max: Infinity } }],
      });
      const snapshot = structuredClone([item, member, collection]);
      await c.items.insert('M', item);
      await c.members.updateMember('m', member);
      await c.collections.updateDataCollection(collection);
      await c.media.updateFileDescriptor(deepFreeze({ _id: 'f' }), deepFreeze({ fieldMask: ['displayName'] }));
      expect([item, member, collection]).toEqual(snapshot);
    });
  });

  describe('generic calls', () => {
    it('fetchWithAuth: provider path with auth and SDK headers; non-2xx → typed error', async () => {
      const log = captureAll((req) => (req.url === '/x/missing' ? [404, {}] : [200, { ok: true }]));
      const res = await admin().fetchWithAuth('/some/v1/thing?a=1');
      expect(await res.json()).toEqual({ ok: true });
      expect(log[0]!.url).toBe('/some/v1/thing?a=1');
      expect(log[0]!.headers.authorization).toBe('k');
      expect(log[0]!.headers['x-wix-bi-gateway']).toBe('environment=js-sdk,package-name=sitekit-sdk');
      await expect(admin().fetchWithAuth(`${BASE}/x/missing`)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        status: 404,
      });
    });

    it('graphql: POST /graphql/alpha {query, variables} → {data, errors}', async () => {
      const log = captureAll(() => [200, { data: { a: 1 }, errors: [] }]);
      expect(await admin().graphql('query { a }', { x: 1 })).toEqual({ data: { a: 1 }, errors: [] });
      expect(`${log[0]!.method} ${log[0]!.url}`).toBe('POST /graphql/alpha');
      expect(log[0]!.body).toEqual({ query: 'query { a }', variables: { x: 1 } });
      await expect(admin().graphql('')).rejects.toBeInstanceOf(RequestError);
    });
  });

  describe('401 replay of a write', () => {
    it('replays a POST with its body after one renewal', async () => {
      let token = 'old';
      const auth: AuthStrategy = {
        elevated: true,
        getAuthHeaders: async () => ({ headers: { Authorization: token } }),
        onUnauthorized: async () => ((token = 'new'), true),
      };
      const log = captureAll((req) =>
        req.headers.authorization === 'old' ? [401, {}] : [200, { dataItem: { id: 'a', data: { _id: 'a', t: 1 } } }],
      );
      expect(await createClient({ auth, baseUrl: BASE }).items.insert('M', { _id: 'a', t: 1 })).toEqual({
        _id: 'a',
        t: 1,
      });
      expect(log.map((r) => [r.headers.authorization, r.body])).toEqual([
        ['old', { dataCollectionId: 'M', dataItem: { id: 'a', data: { _id: 'a', t: 1 } } }],
        ['new', { dataCollectionId: 'M', dataItem: { id: 'a', data: { _id: 'a', t: 1 } } }],
      ]);
    });
  });

  describe('the deadline covers waiting for credentials', () => {
    it('a call times out while its strategy is still fetching a token', async () => {
      const log = captureAll();
      const auth: AuthStrategy = { elevated: false, getAuthHeaders: () => new Promise(() => {}) };
      const t0 = performance.now();
      await expect(
        createClient({ auth, baseUrl: BASE }).members.getCurrentMember({ timeoutMs: 50 }),
      ).rejects.toBeInstanceOf(TimeoutError);
      expect(performance.now() - t0).toBeLessThan(2000);
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 20);
      await expect(
        createClient({ auth, baseUrl: BASE }).members.getCurrentMember({ signal: ac.signal }),
      ).rejects.toBeInstanceOf(AbortedError);
      expect(log).toHaveLength(0);
    });
  });

  describe('local failures are the caller’s, not the server’s', () => {
    it('a body that is not JSON, or a bad header name → RequestError, nothing sent', async () => {
      const log = captureAll();
      await expect(admin().items.insert('M', { n: 1n } as never)).rejects.toBeInstanceOf(RequestError);
      await expect(admin().fetchWithAuth('/x', { headers: { 'a b': 'c' } })).rejects.toBeInstanceOf(RequestError);
      expect(log).toHaveLength(0);
    });

    it('an unreadable 2xx body keeps its real status', async () => {
      captureAll(() => [201, '{"trunc', { 'x-wix-request-id': 'req-7' }]);
      const error = await admin()
        .members.createMember({ member: {} })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ code: 'SYSTEM_ERROR', status: 201, requestId: 'req-7' });
      expect((error as Error).message).toMatch(/^\w+: unreadable response body \(.+\)$/);
    });
  });

  describe('default time limits (a call always ends on its own)', () => {
    afterEach(() => vi.useRealTimers());

    it('a server that never answers: each attempt ends at the attempt limit, the call at the overall limit', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const log = captureAll();
      nock.cleanAll();
      nock(BASE).get('/wix-data/v2/collections/M').times(5).delay(3_600_000).reply(200, { collection: {} });
      const outcome = admin()
        .collections.getDataCollection('M')
        .catch((x) => x);
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS);
      const e = await outcome;
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
      expect(e.message).toBe(`getDataCollection: Request timed out after ${DEFAULT_TIMEOUT_MS} ms`);
      // Two attempts fit in the overall limit: the first was given up at the attempt limit and retried.
      expect(DEFAULT_TIMEOUT_MS / DEFAULT_ATTEMPT_TIMEOUT_MS).toBe(2);
      expect(nock.pendingMocks()).toHaveLength(1);
      expect(log).toHaveLength(0);
    });

    it('0 disables both limits', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      nock(BASE)
        .get('/wix-data/v2/collections/M')
        .delay(3_600_000)
        .reply(200, { collection: { id: 'M' } });
      const caller = new AbortController();
      let settled = false;
      const outcome = admin({ timeoutMs: 0, attemptTimeoutMs: 0 })
        .collections.getDataCollection('M', { signal: caller.signal })
        .finally(() => (settled = true))
        .catch((x) => x);
      await vi.advanceTimersByTimeAsync(DEFAULT_TIMEOUT_MS * 3);
      expect(settled).toBe(false);
      caller.abort();
      expect(await outcome).toBeInstanceOf(AbortedError);
    });

    it('a hung attempt of an idempotent call is retried; a write is not', async () => {
      nock(BASE)
        .get('/wix-data/v2/collections/M')
        .delay(2000)
        .reply(200, { collection: {} })
        .get('/wix-data/v2/collections/M')
        .reply(200, { collection: { id: 'M' } });
      expect(await admin({ attemptTimeoutMs: 100 }).collections.getDataCollection('M')).toEqual({ _id: 'M' });
      nock.cleanAll();
      nock(BASE).post('/wix-data/v2/items').times(2).delay(2000).reply(200, {});
      const e = await admin({ attemptTimeoutMs: 100 })
        .items.insert('M', { a: 1 })
        .catch((x) => x);
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.timeoutMs).toBe(100);
      expect(nock.pendingMocks()).toHaveLength(1);
    });

    it('createClient refuses time limits and base URLs that cannot work, and so does a call', async () => {
      expect(() => admin({ timeoutMs: 'abc' as never })).toThrow(RequestError);
      expect(() => admin({ timeoutMs: -1 })).toThrow(
        'createClient: timeoutMs must be a number of milliseconds >= 0 (0: no limit)',
      );
      expect(() => admin({ baseUrl: 'not a url' })).toThrow('createClient: baseUrl must be an absolute http(s) URL');
      // fetch would refuse every call with a bare TypeError; node:http would send them as Basic auth.
      for (const baseUrl of ['https://user:secret@api.test', 'https://user@api.test', 'https://:secret@api.test']) {
        let error: unknown;
        try {
          admin({ baseUrl });
        } catch (caught) {
          error = caught;
        }
        expect(error, baseUrl).toBeInstanceOf(RequestError);
        expect((error as RequestError).field, baseUrl).toBe('baseUrl');
        expect((error as Error).message, baseUrl).not.toContain('secret');
      }
      expect(() => admin({ fetch: 'fetch' as never })).toThrow(RequestError);
      const log = captureAll();
      await expect(admin().collections.getDataCollection('M', { timeoutMs: 'soon' as never })).rejects.toBeInstanceOf(
        RequestError,
      );
      expect(log).toHaveLength(0);
    });
  });

  describe('faults are typed and retried as network failures', () => {
    it('a custom fetch that throws a bug is not a network error and is not retried', async () => {
      let calls = 0;
      const bug = new ReferenceError('responze is not defined');
      const c = admin({ fetch: async () => (calls++, Promise.reject(bug)) });
      await expect(c.collections.getDataCollection('M')).rejects.toBe(bug);
      expect(calls).toBe(1);
      calls = 0;
      const offline = admin({ fetch: async () => (calls++, Promise.reject(new TypeError('Failed to fetch'))) });
      await expect(offline.collections.getDataCollection('M')).rejects.toBeInstanceOf(NetworkError);
      expect(calls).toBe(3);
    });

    it('refused, reset and DNS failures are NetworkErrors', async () => {
      for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND']) {
        nock(BASE)
          .get('/wix-data/v2/collections/M')
          .times(3)
          .replyWithError(Object.assign(new Error(`connect ${code}`), { code }));
        const e = await admin()
          .collections.getDataCollection('M')
          .catch((x) => x);
        expect(e).toBeInstanceOf(NetworkError);
        expect(e.message).toBe(`getDataCollection: Network request failed: connect ${code}`);
        expect(nock.pendingMocks()).toHaveLength(0);
      }
    });

    it('a Retry-After beyond the cap fails at once, with retryAfterMs on the error', async () => {
      const log = captureAll(() => [503, {}, { 'retry-after': '120' }]);
      const e = await admin()
        .collections.getDataCollection('M')
        .catch((x) => x);
      expect(log).toHaveLength(1);
      expect(e).toBeInstanceOf(HttpError);
      expect(e.retryAfterMs).toBe(120_000);
      expect(e.message).toBe('getDataCollection: 503 Service Unavailable: System error occurred');
    });

    it("a caller's AbortSignal.timeout() is a TimeoutError, like timeoutMs", async () => {
      nock(BASE).get('/wix-data/v2/collections/M').delay(1000).reply(200, { collection: {} });
      const e = await admin()
        .collections.getDataCollection('M', { signal: AbortSignal.timeout(30) })
        .catch((x) => x);
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.code).toBe('TIMEOUT');
    });
  });

  describe('errors say what happened', () => {
    it('the message names the operation, the status and the server code and message', async () => {
      captureAll(() => [
        403,
        {
          message: 'Forbidden',
          details: { applicationError: { code: 'WDE0027', description: 'The current user does not have permissions' } },
        },
        { 'x-wix-request-id': 'r-1' },
      ]);
      const e = await admin()
        .collections.getDataCollection('M')
        .catch((x) => x);
      expect(e).toBeInstanceOf(ApplicationError);
      expect(e.message).toBe(
        'getDataCollection: 403 Forbidden (WDE0027: Forbidden; The current user does not have permissions) (request id: r-1)',
      );
      expect([e.code, e.operation, e.description]).toEqual([
        'WDE0027',
        'getDataCollection',
        'The current user does not have permissions',
      ]);
    });

    it('a 5xx carrying the platform error keeps its code and message', async () => {
      captureAll(() => [
        500,
        {
          message: 'Collection is locked',
          details: { applicationError: { code: 'WDE0110', description: 'try later' } },
        },
      ]);
      const e = await admin({ retry: false })
        .collections.getDataCollection('M')
        .catch((x) => x);
      expect([e.code, e.status, e.message]).toEqual([
        'WDE0110',
        500,
        'getDataCollection: 500 Internal Server Error (WDE0110: Collection is locked; try later)',
      ]);
    });

    it('a 2xx without the documented shape is an HttpError "unexpected response"', async () => {
      captureAll((req) => [200, req.url.endsWith('/query') ? { dataItems: 'oops' } : {}]);
      const insert = await admin()
        .items.insert('M', { a: 1 })
        .catch((x) => x);
      expect(insert).toBeInstanceOf(HttpError);
      expect(insert.message).toBe('insert: unexpected response: no "dataItem"');
      const query = await admin()
        .items.query('M')
        .find()
        .catch((x: unknown) => x);
      expect(query).toBeInstanceOf(HttpError);
      expect((query as Error).message).toBe('queryDataItems: unexpected response: "dataItems" is not an object');
    });
  });

  describe('fetchWithAuth sends credentials only to the client’s origin', () => {
    it('another origin gets no credentials unless allowOtherOrigin is set', async () => {
      const seen: Record<string, unknown>[] = [];
      nock('https://other.test')
        .get('/x')
        .times(2)
        .reply(function () {
          seen.push(this.req.headers);
          return [200, 'ok'];
        });
      await admin().fetchWithAuth('https://other.test/x');
      await admin().fetchWithAuth('https://other.test/x', { allowOtherOrigin: true });
      expect(seen.map((h) => h.authorization)).toEqual([undefined, 'k']);
      const log = captureAll();
      await admin().fetchWithAuth(`${BASE}/own`);
      expect(log[0]!.headers.authorization).toBe('k');
    });

    it('an origin that only starts like the client’s (a longer host name, another port) is another origin', async () => {
      const seen: unknown[] = [];
      for (const origin of [`${BASE}.evil.example`, `${BASE}:8443`])
        nock(origin)
          .get('/x')
          .reply(function () {
            seen.push(this.req.headers.authorization);
            return [200, 'ok'];
          });
      await admin().fetchWithAuth(`${BASE}.evil.example/x`);
      await admin().fetchWithAuth(`${BASE}:8443/x`);
      expect(seen).toEqual([undefined, undefined]);
    });

    it('refuses a URL with a user name or password (user:pass@) with a RequestError, sending nothing (security, issue 18 finding 18)', async () => {
      const log = captureAll();
      const seen: unknown[] = [];
      nock('https://other.test')
        .get('/x')
        .reply(function () {
          seen.push(this.req.headers);
          return [200, 'ok'];
        });
      for (const url of [
        'https://user:secret@other.test/x',
        'https://user@other.test/x',
        'https://:secret@other.test/x',
        `${BASE.replace('://', '://a:b@')}/own`,
      ]) {
        const error = await admin()
          .fetchWithAuth(url)
          .catch((caught: unknown) => caught);
        expect(error, url).toBeInstanceOf(RequestError);
        expect((error as RequestError).field).toBe('url');
        // The secret is not repeated where errors end up (logs).
        expect((error as Error).message).not.toContain('secret');
      }
      expect(seen).toEqual([]);
      expect(log).toEqual([]);
    });
  });

  describe('fetchWithAuth: the request as the caller made it', () => {
    it('the caller’s headers are sent; a method in lower case is sent and named in upper case', async () => {
      const log = captureAll((req) => (req.url === '/gone' ? [404, {}] : [200, {}]));
      await admin().fetchWithAuth('/x', { headers: { 'X-Trace': 't-1' } });
      expect(log[0]!.headers['x-trace']).toBe('t-1');
      const error = await admin()
        .fetchWithAuth('/gone', { method: 'patch' })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 404, operation: 'PATCH /gone' });
      expect(log[1]!.method).toBe('PATCH');
    });

    it('a URL object of the client’s origin is used as it is, with credentials', async () => {
      const log = captureAll();
      await admin().fetchWithAuth(new URL(`${BASE}/object?a=1`));
      expect(log[0]!.url).toBe('/object?a=1');
      expect(log[0]!.headers.authorization).toBe('k');
    });

    it('a GET (the default method) is retried on 503; a POST is not', async () => {
      const log = captureAll((_req, n) => (n === 1 ? [503, {}] : [200, {}]));
      expect((await admin().fetchWithAuth('/read')).status).toBe(200);
      expect(log.map((r) => r.method)).toEqual(['GET', 'GET']);
      nock.cleanAll();
      const posts = captureAll(() => [503, {}]);
      await expect(admin().fetchWithAuth('/write', { method: 'POST', body: '{}' })).rejects.toMatchObject({
        status: 503,
      });
      expect(posts).toHaveLength(1);
    });

    it('its own signal aborts it, nothing sent', async () => {
      const log = captureAll();
      const controller = new AbortController();
      controller.abort();
      await expect(admin().fetchWithAuth('/x', { signal: controller.signal })).rejects.toBeInstanceOf(AbortedError);
      expect(log).toHaveLength(0);
    });

    it('what it refuses is said in one line naming fetchWithAuth, with the field', async () => {
      const log = captureAll();
      const refusal = (promise: Promise<unknown>) =>
        promise.catch((caught: unknown) => caught) as Promise<RequestError>;
      const notUrl = await refusal(admin().fetchWithAuth('no-scheme'));
      expect(notUrl).toBeInstanceOf(RequestError);
      expect([notUrl.message, notUrl.field]).toEqual([
        'fetchWithAuth: no-scheme is not a path or an absolute URL',
        'url',
      ]);
      const userInfo = await refusal(admin().fetchWithAuth('https://u:p@other.test/x'));
      expect(userInfo.message).toBe('fetchWithAuth: user:pass@ in a URL is refused; send credentials in a header');
      const header = await refusal(admin().fetchWithAuth('/x', { headers: { 'a b': 'c' } }));
      expect(header.message).toMatch(/^fetchWithAuth: \S/);
      expect(header.field).toBe('headers');
      expect(log).toHaveLength(0);
    });

    it('the consistency token goes only to the client’s origin and is taken only from it', async () => {
      const log = captureAll(() => [200, {}, { 'x-wix-consistent': 'own-1' }]);
      const other: Record<string, unknown>[] = [];
      nock('https://other.test')
        .persist()
        .get('/x')
        .reply(function () {
          other.push(this.req.headers);
          return [200, 'ok', { 'x-wix-consistent': 'other-1' }];
        });
      const client = admin();
      await client.fetchWithAuth('/a');
      await client.fetchWithAuth('https://other.test/x', { allowOtherOrigin: true });
      await client.fetchWithAuth('/b');
      expect(other[0]!['x-wix-consistent']).toBeUndefined();
      expect(log[1]!.headers['x-wix-consistent']).toBe('own-1');
    });
  });

  describe('what every call sends', () => {
    it('a body goes with content-type application/json; a call without one has no content-type', async () => {
      const log = captureAll((req) =>
        req.method === 'GET' ? [200, { collection: { id: 'M' } }] : [200, { dataItem: { id: 'a', data: {} } }],
      );
      await admin().collections.getDataCollection('M');
      await admin().items.insert('M', { _id: 'a' });
      expect(log.map((r) => [r.method, r.headers['content-type']])).toEqual([
        ['GET', undefined],
        ['POST', 'application/json'],
      ]);
    });

    it('without a baseUrl, calls go to www.wixapis.com; extra trailing slashes of a baseUrl are dropped', async () => {
      const seen: string[] = [];
      nock('https://www.wixapis.com')
        .get('/wix-data/v2/collections/M')
        .reply(function (uri) {
          seen.push(uri);
          return [200, { collection: { id: 'M' } }];
        });
      await createClient({ auth: ApiKeyStrategy({ apiKey: 'k' }) }).collections.getDataCollection('M');
      const log = captureAll(() => [200, { collection: { id: 'M' } }]);
      await admin({ baseUrl: `${BASE}//` }).collections.getDataCollection('M');
      expect([...seen, log[0]!.url]).toEqual(['/wix-data/v2/collections/M', '/wix-data/v2/collections/M']);
    });

    it('the client’s retry delays are the ones waited: a 60 s back-off outlasts a 300 ms call', async () => {
      const log = captureAll((_req, n) => (n === 1 ? [503, {}] : [200, { collection: { id: 'M' } }]));
      const client = admin({ retry: { baseDelayMs: 60_000, random: () => 1 } });
      await expect(client.collections.getDataCollection('M', { timeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
      expect(log).toHaveLength(1);
    });

    it('a 300 (not a redirect fetch follows) is an HttpError, not a success', async () => {
      captureAll(() => [300, { collection: { id: 'M' } }]);
      await expect(admin({ retry: false }).collections.getDataCollection('M')).rejects.toMatchObject({ status: 300 });
    });

    it('a call’s own headers win over the client’s and the strategy’s; a repeatable call is retried like a read', async () => {
      const log = captureAll((_req, n) => (n === 1 ? [503, {}] : [200, { dataItem: { id: 'a', data: {} } }]));
      const t = new Transport({ baseUrl: BASE, auth: ApiKeyStrategy({ apiKey: 'k' }), headers: { 'X-App': 'client' } });
      await t.send(
        operations.insert,
        { dataCollectionId: 'M', dataItem: { data: {} } },
        { headers: { 'X-App': 'call', Authorization: 'other' }, repeatable: true },
      );
      expect(log.map((r) => [r.method, r.headers['x-app'], r.headers.authorization])).toEqual([
        ['POST', 'call', 'other'],
        ['POST', 'call', 'other'],
      ]);
    });

    it('a body that is not JSON is refused naming the operation; a bad timeoutMs names the option', async () => {
      const log = captureAll();
      await expect(admin().items.insert('M', { n: 1n } as never)).rejects.toThrow(
        /^insert: the request cannot be sent as JSON \(.+\)$/,
      );
      await expect(admin().collections.getDataCollection('M', { timeoutMs: -1 })).rejects.toThrow(/timeoutMs/);
      expect(log).toHaveLength(0);
    });
  });

  describe('credentials and replays', () => {
    it('a strategy whose token request failed on the network: its error as it is, not retried by the call', async () => {
      const log = captureAll();
      const failure = new NetworkError({ cause: new Error('ECONNRESET'), operation: 'token' });
      const getAuthHeaders = vi.fn(async () => {
        throw failure;
      });
      const client = createClient({
        auth: { elevated: false, getAuthHeaders },
        baseUrl: BASE,
        retry: { random: () => 0 },
      });
      await expect(client.collections.getDataCollection('M')).rejects.toBe(failure);
      expect(getAuthHeaders).toHaveBeenCalledTimes(1);
      expect(log).toHaveLength(0);
    });

    it('only a 401 asks the strategy to renew: a 403 or a 503 does not', async () => {
      const log = captureAll((_req, n) =>
        n === 1 ? [403, {}] : n === 2 ? [503, {}] : [200, { collection: { id: 'M' } }],
      );
      const onUnauthorized = vi.fn(async () => true);
      const auth: AuthStrategy = {
        elevated: true,
        getAuthHeaders: async () => ({ headers: { Authorization: 'k' } }),
        onUnauthorized,
      };
      const client = createClient({ auth, baseUrl: BASE, retry: { retries: 0 } });
      await expect(client.collections.getDataCollection('M')).rejects.toMatchObject({ status: 403 });
      await expect(client.collections.getDataCollection('M')).rejects.toMatchObject({ status: 503 });
      expect(onUnauthorized).not.toHaveBeenCalled();
      expect(log).toHaveLength(2);
    });

    it('a renewal that fails after a 401 surfaces the 401, without a replay', async () => {
      const log = captureAll(() => [401, {}]);
      const auth: AuthStrategy = {
        elevated: true,
        getAuthHeaders: async () => ({ headers: { Authorization: 'old' } }),
        onUnauthorized: async () => {
          throw new Error('renewal failed');
        },
      };
      await expect(createClient({ auth, baseUrl: BASE }).collections.getDataCollection('M')).rejects.toMatchObject({
        status: 401,
      });
      expect(log).toHaveLength(1);
    });

    it('the replay after a 401 is not counted as a retry: retries: 1 still retries a 503 after it', async () => {
      let token = 'old';
      const auth: AuthStrategy = {
        elevated: true,
        getAuthHeaders: async () => ({ headers: { Authorization: token } }),
        onUnauthorized: async () => ((token = 'new'), true),
      };
      const log = captureAll((_req, n) =>
        n === 1 ? [401, {}] : n === 2 ? [503, {}] : [200, { collection: { id: 'M' } }],
      );
      const client = createClient({ auth, baseUrl: BASE, retry: { retries: 1, random: () => 0 } });
      expect(await client.collections.getDataCollection('M')).toEqual({ _id: 'M' });
      expect(log.map((r) => r.headers.authorization)).toEqual(['old', 'new', 'new']);
    });
  });
}
