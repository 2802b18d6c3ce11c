/** The redirect flow: OAuth data, the authorization URL, callback parsing, the code exchange. */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthStrategy, parseFromUrl, type Tokens } from '../../../src/auth/index.js';
import { createClient } from '../../../src/client.js';
import { AuthError, RequestError } from '../../../src/errors/index.js';

const BASE = 'https://api.test';
const SESSION = '/_api/redirects-api/v1/redirect-session';
const VERIFIER = /^[A-Za-z0-9\-._~]+$/;
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');
const now = () => Math.floor(Date.now() / 1000);
const visitor: Tokens = {
  accessToken: { value: 'V', expiresAt: now() + 3600 },
  refreshToken: { value: 'VR', role: 'visitor' },
};

const make = () => {
  const auth = OAuthStrategy({ clientId: 'c', tokens: visitor });
  createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
  return auth;
};

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('generateOAuthData', () => {
  it('resolves with state, verifier, challenge, redirectUri and originalUri (JSON-safe)', async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb', 'https://app.test/page');
    expect(Object.keys(data).sort()).toEqual(['codeChallenge', 'codeVerifier', 'originalUri', 'redirectUri', 'state']);
    expect(data.redirectUri).toBe('https://app.test/cb');
    expect(data.originalUri).toBe('https://app.test/page');
    expect(data.codeVerifier).toHaveLength(43);
    expect(data.codeChallenge).toBe(s256(data.codeVerifier));
    expect(data.state).toMatch(VERIFIER);
    expect(data.state.length).toBeGreaterThanOrEqual(32);
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
    expect((await auth.generateOAuthData('https://app.test/cb')).originalUri).toBe('');
    expect((await auth.generateOAuthData('x')).state).not.toBe(data.state);
  });
});

describe('getAuthUrl', () => {
  it('creates the redirect session with the visitor token and the documented defaults', async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb');
    let body: unknown;
    nock(BASE)
      .post(SESSION, (b) => ((body = b), true))
      .matchHeader('authorization', 'V')
      .reply(200, {
        redirectSession: {
          id: '1',
          fullUrl: 'https://site.test/authorize?x=1',
          urlDetails: { endpoint: 'https://site.test/authorize' },
        },
      });
    expect(await auth.getAuthUrl(data)).toEqual({
      authUrl: 'https://site.test/authorize?x=1',
      authorizationEndpoint: 'https://site.test/authorize',
    });
    expect(body).toEqual({
      auth: {
        authRequest: {
          redirectUri: 'https://app.test/cb',
          clientId: 'c',
          codeChallenge: data.codeChallenge,
          codeChallengeMethod: 'S256',
          responseMode: 'fragment',
          responseType: 'code',
          scope: 'offline_access',
          state: data.state,
        },
        prompt: 'login',
      },
    });
  });

  it('passes prompt, responseMode, sessionToken and idp', async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb');
    let body: { auth: { authRequest: Record<string, unknown>; prompt: string } } | undefined;
    nock(BASE)
      .post(SESSION, (b) => ((body = b), true))
      .reply(200, { redirectSession: { fullUrl: 'https://site.test/a' } });
    await auth.getAuthUrl(data, { prompt: 'consent', responseMode: 'query', sessionToken: 'ST', idp: 'google' });
    expect(body!.auth.prompt).toBe('consent');
    // The named providers are sent as their fixed connection ids.
    expect(body!.auth.authRequest).toMatchObject({
      responseMode: 'query',
      sessionToken: 'ST',
      idp: '0e6a50f5-b523-4e29-990d-f37fa2ffdd69',
    });
  });

  it("a redirect session without a URL is the AuthError 'Redirect session without a URL'", async () => {
    const auth = make();
    nock(BASE)
      .post(SESSION)
      .reply(200, { redirectSession: { id: '1' } });
    const e = await auth.getAuthUrl(await auth.generateOAuthData('https://app.test/cb')).catch((x) => x);
    expect(e).toBeInstanceOf(AuthError);
    expect(e).toMatchObject({ message: 'Redirect session without a URL', code: 'REDIRECT_SESSION_WITHOUT_A_URL' });
  });

  it.each([
    ['google', '0e6a50f5-b523-4e29-990d-f37fa2ffdd69'],
    ['facebook', '3ecad13f-52c3-483d-911f-31dbcf2a6d23'],
    [{ connectionId: 'conn-1' }, 'conn-1'],
    ['conn-2', 'conn-2'],
  ] as const)('idp %j is sent as the connection id %s', async (idp, connectionId) => {
    const auth = make();
    let body: { auth: { authRequest: Record<string, unknown> } } | undefined;
    nock(BASE)
      .post(SESSION, (b) => ((body = b), true))
      .reply(200, { redirectSession: { fullUrl: 'https://site.test/a' } });
    await auth.getAuthUrl(await auth.generateOAuthData('https://app.test/cb'), { idp });
    expect(body!.auth.authRequest.idp).toBe(connectionId);
  });
});

describe('OAuth data passed without await', () => {
  // generateOAuthData resolves (WebCrypto's digest is a promise); JavaScript code written for the
  // synchronous version passes the promise itself, and must be told to await it.
  const awaitMessage = (method: string) =>
    `${method}: oauthData must be what generateOAuthData resolves to (await it), not a promise`;

  it('getAuthUrl refuses a promise with a RequestError saying to await it; nothing is sent', async () => {
    const auth = make();
    const pending = auth.generateOAuthData('https://app.test/cb');
    const e = await auth.getAuthUrl(pending as never).catch((x) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toBe(awaitMessage('getAuthUrl'));
    expect(e.field).toBe('oauthData');
  });

  it('getMemberTokens refuses a promise with a RequestError saying to await it; nothing is sent', async () => {
    const auth = make();
    const pending = auth.generateOAuthData('https://app.test/cb');
    const { state } = await pending;
    const e = await auth.getMemberTokens('CODE', state, pending as never).catch((x) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect(e.message).toBe(awaitMessage('getMemberTokens'));
    expect(e.field).toBe('oauthData');
  });
});

describe('parseFromUrl', () => {
  it('reads code, state, error and error_description from the fragment by default, or from the query', () => {
    expect(parseFromUrl('https://app.test/cb#code=C1&state=S1')).toEqual({ code: 'C1', state: 'S1' });
    expect(parseFromUrl('https://app.test/cb?code=Q&state=QS#code=F&state=FS')).toEqual({ code: 'F', state: 'FS' });
    expect(parseFromUrl('https://app.test/cb?code=Q&state=QS#code=F&state=FS', 'query')).toEqual({
      code: 'Q',
      state: 'QS',
    });
    expect(parseFromUrl('https://app.test/cb#error=access_denied&error_description=No%20way&state=S')).toEqual({
      code: null,
      state: 'S',
      error: 'access_denied',
      errorDescription: 'No way',
    });
    expect(parseFromUrl('https://app.test/cb?x=1', 'query')).toEqual({ code: null, state: null });
    expect(parseFromUrl('https://app.test/cb?state=a?b&code=c%2Bd', 'query')).toEqual({ code: 'c+d', state: 'a?b' });
  });

  it('is the same function on the strategy; without a URL or window it reads nothing', () => {
    const auth = make();
    expect(auth.parseFromUrl('https://a.test/#code=1&state=2')).toEqual({ code: '1', state: '2' });
    expect(typeof window).toBe('undefined');
    expect(auth.parseFromUrl()).toEqual({ code: null, state: null });
  });

  it('never throws on hostile URLs', () => {
    const hostile = [
      'garbage',
      '',
      '#',
      '?',
      '#%',
      '#code=%E0%A4%A&state=%',
      '?code=%ZZ&state=%%%',
      'javascript:alert(1)//#code=x&state=y',
      'javascript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>#code=1',
      '\u0000\uffff\ud800#code=\ud800',
      'https://a.test/#code=' + 'x'.repeat(2_000_000),
      'https://a.test/?' + '&'.repeat(100_000),
      '%'.repeat(10_000),
    ];
    for (const url of hostile)
      for (const mode of ['fragment', 'query'] as const) expect(() => parseFromUrl(url, mode)).not.toThrow();
    expect(parseFromUrl('javascript:alert(1)//#code=x&state=y')).toEqual({ code: 'x', state: 'y' });
    expect(parseFromUrl('#code=%E0%A4%A&state=%')).toEqual({ code: '\ufffd%A', state: '%' }); // undecodable bytes become U+FFFD
    expect(parseFromUrl('https://a.test/#code=' + 'x'.repeat(2_000_000)).code).toHaveLength(2_000_000);
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.constantFrom('fragment', 'query') as fc.Arbitrary<'fragment' | 'query'>,
        (url, mode) => {
          const r = parseFromUrl(url, mode);
          expect(r.code === null || typeof r.code === 'string').toBe(true);
        },
      ),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.webUrl({ withFragments: true, withQueryParameters: true }), (url) => {
        expect(() => parseFromUrl(url)).not.toThrow();
        expect(() => parseFromUrl(url, 'query')).not.toThrow();
      }),
    );
  });
});

describe('getMemberTokens', () => {
  it("'Missing code or _state' when either is missing, 'Invalid _state' when the state differs; nothing is sent", async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb');
    for (const [code, state] of [
      [null, data.state],
      ['c', null],
      ['', data.state],
      ['c', ''],
      [undefined, undefined],
    ] as const) {
      const e = await auth.getMemberTokens(code, state, data).catch((x) => x);
      expect(e).toBeInstanceOf(AuthError);
      expect(e.message).toBe('Missing code or _state');
      expect(e.code).toBe('MISSING_CODE_OR_STATE');
    }
    const e = await auth.getMemberTokens('c', 'other', data).catch((x) => x);
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe('Invalid _state');
    expect(e.code).toBe('INVALID_STATE');
    await expect(auth.getMemberTokens('c', 's', undefined as never)).rejects.toThrow('Invalid _state');
  });

  it('exchanges the code (anonymously) for member tokens and stores them', async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb');
    let body: unknown;
    let authorization: unknown = 'unset';
    nock(BASE)
      .post('/oauth2/token', (b) => ((body = b), true))
      .reply(function () {
        authorization = this.req.headers.authorization;
        return [200, { access_token: 'MA', expires_in: 600, refresh_token: 'MR' }];
      });
    const { code, state } = parseFromUrl(`https://app.test/cb#code=CODE&state=${data.state}`);
    const t = await auth.getMemberTokens(code, state, data);
    expect(body).toEqual({
      clientId: 'c',
      grantType: 'authorization_code',
      redirectUri: 'https://app.test/cb',
      code: 'CODE',
      codeVerifier: data.codeVerifier,
    });
    expect(authorization).toBeUndefined();
    expect(t.refreshToken).toEqual({ value: 'MR', role: 'member' });
    expect(Math.abs(t.accessToken.expiresAt - (now() + 600))).toBeLessThanOrEqual(1);
    expect(auth.getTokens()).toEqual(t);
    expect(auth.loggedIn()).toBe(true);
  });

  it('a refused exchange names the grant and the server’s reason, and keeps the visitor', async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb');
    nock(BASE).post('/oauth2/token').reply(400, { message: 'invalid_grant' });
    const e = await auth.getMemberTokens('C', data.state, data).catch((x) => x);
    expect(e.message).toBe('something went wrong: token request failed (grant authorization_code): invalid_grant');
    expect(e.status).toBe(400);
    expect(auth.getTokens()).toEqual(visitor);
  });

  it('an exchange is not retried (an authorization code is single-use)', async () => {
    const auth = make();
    const data = await auth.generateOAuthData('https://app.test/cb');
    const scope = nock(BASE).post('/oauth2/token').times(2).reply(503, {});
    await expect(auth.getMemberTokens('C', data.state, data)).rejects.toThrow(
      'something went wrong: token request failed (grant authorization_code): status 503',
    );
    expect(scope.pendingMocks()).toHaveLength(1);
  });
});
