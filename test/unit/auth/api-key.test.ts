/** ApiKeyStrategy: headers, elevation, validation. */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyStrategy } from '../../../src/auth/index.js';
import type { AuthStrategy } from '../../../src/auth/strategy.js';
import { createClient } from '../../../src/client.js';
import { readyAuthHeaders, withReadyHeaders } from '../../../src/http/auth.js';
import { RequestError } from '../../../src/errors/index.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('ApiKeyStrategy', () => {
  it('sends the bare key and the site/account ids, and is elevated', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'KEY', siteId: 'S', accountId: 'A' });
    expect(auth.elevated).toBe(true);
    expect(await auth.getAuthHeaders()).toEqual({
      headers: { Authorization: 'KEY', 'wix-site-id': 'S', 'wix-account-id': 'A' },
    });
    expect(await ApiKeyStrategy({ apiKey: 'K' }).getAuthHeaders()).toEqual({ headers: { Authorization: 'K' } });
    nock('https://api.test')
      .get('/wix-data/v2/collections/x')
      .matchHeader('authorization', 'KEY')
      .matchHeader('wix-site-id', 'S')
      .reply(200, { collection: { id: 'x' } });
    expect(await createClient({ auth, baseUrl: 'https://api.test' }).collections.getDataCollection('x')).toEqual({
      _id: 'x',
    });
  });

  it('a caller cannot change the headers later calls get (they are frozen)', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'K' });
    const { headers } = await auth.getAuthHeaders();
    expect(() => {
      headers.Authorization = 'changed';
    }).toThrow(TypeError);
    expect((await auth.getAuthHeaders()).headers.Authorization).toBe('K');
  });

  it('setSiteId and setAccountId change the headers of the calls that follow (the official names); none clears', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'K', siteId: 'S1' });
    auth.setSiteId('S2');
    auth.setAccountId('A');
    expect((await auth.getAuthHeaders()).headers).toEqual({
      Authorization: 'K',
      'wix-site-id': 'S2',
      'wix-account-id': 'A',
    });
    auth.setSiteId();
    expect((await auth.getAuthHeaders()).headers).toEqual({ Authorization: 'K', 'wix-account-id': 'A' });
    expect(() => auth.setSiteId(42 as never)).toThrow(RequestError);
  });

  it('rejects a missing key', () => {
    expect(() => ApiKeyStrategy({ apiKey: '' })).toThrow(RequestError);
    expect(() => ApiKeyStrategy(undefined as never)).toThrow('apiKey');
  });
});

describe('credentials on the wire: ready headers (the twin of getAuthHeaders) or awaited ones', () => {
  /** A fetch that answers every call with a collection, for reading the headers each call sent. */
  const answering = () =>
    vi.fn<typeof fetch>(
      async () =>
        new Response(JSON.stringify({ collection: { id: 'x' } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
  /** The headers of each call the spy saw. */
  const sentHeaders = (spy: ReturnType<typeof answering>) =>
    spy.mock.calls.map(([, init]) => init!.headers as Record<string, string>);
  /** Three calls through a client with `auth`. */
  async function threeCalls(auth: AuthStrategy) {
    const spy = answering();
    const client = createClient({ auth, baseUrl: 'https://api.test', fetch: spy });
    for (let call = 0; call < 3; call++) await client.collections.getDataCollection('x');
    return sentHeaders(spy);
  }

  it('an API key: its headers are ready at once, and every call sends them under lower-case names', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'KEY', siteId: 'S', accountId: 'A' });
    expect(readyAuthHeaders(auth)).toEqual({ Authorization: 'KEY', 'wix-site-id': 'S', 'wix-account-id': 'A' });
    for (const headers of await threeCalls(auth)) {
      expect(headers).toMatchObject({ authorization: 'KEY', 'wix-site-id': 'S', 'wix-account-id': 'A' });
      expect(headers).not.toHaveProperty('Authorization');
    }
  });

  it('a strategy whose ready twin has its headers: getAuthHeaders is never awaited', async () => {
    let awaited = 0;
    const getAuthHeaders = async () => {
      awaited++;
      return { headers: { Authorization: 'awaited' } };
    };
    const auth: AuthStrategy = {
      elevated: true,
      getAuthHeaders: withReadyHeaders(getAuthHeaders, () => ({ Authorization: 'ready' })),
    };
    expect((await threeCalls(auth)).map((headers) => headers.authorization)).toEqual(['ready', 'ready', 'ready']);
    expect(awaited).toBe(0);
  });

  it('two API-key clients side by side each send their own key', async () => {
    const first = answering();
    const second = answering();
    const one = createClient({ auth: ApiKeyStrategy({ apiKey: 'ONE' }), baseUrl: 'https://api.test', fetch: first });
    const two = createClient({ auth: ApiKeyStrategy({ apiKey: 'TWO' }), baseUrl: 'https://api.test', fetch: second });
    for (let call = 0; call < 2; call++)
      await Promise.all([one.collections.getDataCollection('x'), two.collections.getDataCollection('x')]);
    expect(sentHeaders(first).map((headers) => headers.authorization)).toEqual(['ONE', 'ONE']);
    expect(sentHeaders(second).map((headers) => headers.authorization)).toEqual(['TWO', 'TWO']);
  });

  it('a custom strategy with only getAuthHeaders: awaited before every call, its current headers sent, lower-cased', async () => {
    let calls = 0;
    const auth: AuthStrategy = {
      elevated: true,
      getAuthHeaders: async () => ({ headers: { Authorization: `token ${++calls}`, 'X-Tenant': 'T' } }),
    };
    const sent = await threeCalls(auth);
    expect(sent.map((headers) => [headers.authorization, headers['x-tenant']])).toEqual([
      ['token 1', 'T'],
      ['token 2', 'T'],
      ['token 3', 'T'],
    ]);
    for (const headers of sent) expect(Object.keys(headers)).not.toContain('Authorization');
  });

  it('a strategy whose ready twin has nothing at hand: getAuthHeaders is awaited instead', async () => {
    let ready: Record<string, string> | undefined;
    let awaited = 0;
    const getAuthHeaders = async () => {
      awaited++;
      return { headers: (ready = { Authorization: 'renewed' }) };
    };
    const auth: AuthStrategy = { elevated: true, getAuthHeaders: withReadyHeaders(getAuthHeaders, () => ready) };
    const sent = await threeCalls(auth);
    expect(sent.map((headers) => headers.authorization)).toEqual(['renewed', 'renewed', 'renewed']);
    expect(awaited).toBe(1);
  });

  it("a test's spy on an API key's getAuthHeaders is called on every call, and its headers sent", async () => {
    const auth = ApiKeyStrategy({ apiKey: 'KEY' });
    const spy = vi.spyOn(auth, 'getAuthHeaders').mockResolvedValue({ headers: { Authorization: 'SPIED' } });
    const sent = await threeCalls(auth);
    expect(sent.map((headers) => headers.authorization)).toEqual(['SPIED', 'SPIED', 'SPIED']);
    expect(spy).toHaveBeenCalledTimes(3);
  });

  // The transport may keep a strategy's headers lowered from one call to the next (an API key's
  // never change): a strategy that keeps one object and updates it in place (any object of the
  // `AuthStrategy` shape may) must still have its new token sent, not the first one forever.
  it('a strategy that updates one headers object in place has its new token sent', async () => {
    const headers: Record<string, string> = {};
    let calls = 0;
    const auth: AuthStrategy = {
      elevated: true,
      getAuthHeaders: async () => {
        headers.Authorization = `token ${++calls}`;
        return { headers };
      },
    };
    expect((await threeCalls(auth)).map((sent) => sent.authorization)).toEqual(['token 1', 'token 2', 'token 3']);
  });

  it('after setSiteId, every call sends the new site ID', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'K', siteId: 'S1' });
    auth.setSiteId('S2');
    expect((await threeCalls(auth)).map((headers) => headers['wix-site-id'])).toEqual(['S2', 'S2', 'S2']);
  });

  // The official shape is `{headers}`: a custom strategy that resolves the headers themselves would
  // send no credentials at all, so the call is refused, saying what getAuthHeaders must resolve.
  it('a custom strategy whose getAuthHeaders resolves bare headers: RequestError, nothing sent', async () => {
    const fetch = answering();
    const auth = {
      elevated: false,
      getAuthHeaders: async () => ({ Authorization: 'bare' }),
    } as unknown as AuthStrategy;
    const client = createClient({ auth, baseUrl: 'https://api.test', fetch });
    await expect(client.collections.getDataCollection('x')).rejects.toThrow(
      'auth: getAuthHeaders().headers must be an object',
    );
    expect(sentHeaders(fetch)).toEqual([]);
  });

  // A user who wraps a strategy the usual way, copying it and replacing getAuthHeaders (to add a
  // tenant or tracing header, or to fetch the key from a vault), gets the wrapper called on every
  // call: the transport's ready headers belong to the strategy's own getAuthHeaders function, not
  // to the object that carries it.
  it('a strategy wrapped by copying it and replacing getAuthHeaders: the wrapper’s headers are sent', async () => {
    const inner = ApiKeyStrategy({ apiKey: 'KEY' });
    const wrapped: AuthStrategy = {
      ...inner,
      getAuthHeaders: async () => ({ headers: { ...(await inner.getAuthHeaders()).headers, 'X-Tenant': 'T' } }),
    };
    for (const headers of await threeCalls(wrapped))
      expect(headers).toMatchObject({ authorization: 'KEY', 'x-tenant': 'T' });
  });
});
