/**
 * Session token → member tokens outside a browser: the hosted page's redirect is read with a
 * manual-redirect fetch (nock, and a real local HTTP server); a custom FrameHost in Node.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthStrategy, type FrameHost, type Tokens } from '../../src/auth/index.js';
import { createClient } from '../../src/client.js';
import { AuthError } from '../../src/errors/index.js';

const BASE = 'https://api.test';
const SITE = 'https://site.test';
const now = () => Math.floor(Date.now() / 1000);
const visitor: Tokens = {
  accessToken: { value: 'V', expiresAt: now() + 3600 },
  refreshToken: { value: 'VR', role: 'visitor' },
};
const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

interface Seen {
  request?: Record<string, string>;
  prompt?: string;
  exchange?: Record<string, string>;
}

function make(frameHost?: FrameHost) {
  const auth = OAuthStrategy({ clientId: 'c', tokens: visitor, frameHost });
  createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
  return auth;
}
/** Redirect session → `${SITE}/authorize?state=...` and the code exchange, recorded in `seen`. */
function session(
  seen: Seen,
  exchange: [number, nock.Body] = [200, { access_token: 'MA', expires_in: 3600, refresh_token: 'MR' }],
) {
  nock(BASE)
    .post('/_api/redirects-api/v1/redirect-session', (b) => {
      seen.request = b.auth.authRequest;
      seen.prompt = b.auth.prompt;
      return true;
    })
    .reply(200, () => ({ redirectSession: { fullUrl: `${SITE}/authorize?state=${seen.request!.state}` } }));
  nock(BASE)
    .post('/oauth2/token', (b) => ((seen.exchange = b), true))
    .reply(...exchange);
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('getMemberTokensForDirectLogin outside a browser', () => {
  it('asks for responseMode query with prompt none, reads the code from the Location and exchanges it', async () => {
    const seen: Seen = {};
    session(seen);
    nock(SITE)
      .get('/authorize')
      .query(true)
      .reply(function () {
        const state = new URL(this.req.path, SITE).searchParams.get('state');
        return [302, '', { Location: `https://app.test/cb?code=THE_CODE&state=${state}` }];
      });
    const auth = make();
    const tokens = await auth.getMemberTokensForDirectLogin('SESSION', { redirectUri: 'https://app.test/cb' });
    expect(seen.prompt).toBe('none');
    expect(seen.request).toMatchObject({
      responseMode: 'query',
      sessionToken: 'SESSION',
      redirectUri: 'https://app.test/cb',
      clientId: 'c',
    });
    expect(seen.exchange).toMatchObject({
      grantType: 'authorization_code',
      code: 'THE_CODE',
      redirectUri: 'https://app.test/cb',
    });
    expect(s256(seen.exchange!.codeVerifier!)).toBe(seen.request!.codeChallenge);
    expect(tokens.refreshToken).toEqual({ value: 'MR', role: 'member' });
    expect(auth.getTokens()).toEqual(tokens);
    expect(auth.loggedIn()).toBe(true);
  });

  it('follows intermediate redirects (relative ones too) until a Location carries the code', async () => {
    const seen: Seen = {};
    session(seen);
    nock(SITE)
      .get('/authorize')
      .query(true)
      .reply(302, '', { Location: '/continue?step=2' })
      .get('/continue')
      .query({ step: '2' })
      .reply(303, '', { Location: 'https://login.site.test/done' });
    nock('https://login.site.test')
      .get('/done')
      .reply(() => [302, '', { Location: `https://app.test/cb?state=${seen.request!.state}&code=C3` }]);
    await make().getMemberTokensForDirectLogin('S');
    expect(seen.exchange!.code).toBe('C3');
  });

  it("fails with 'Failed to get member tokens' when the page does not redirect, redirects with an error, or never reaches a code", async () => {
    const cases: ((s: Seen) => void)[] = [
      () => nock(SITE).get('/authorize').query(true).reply(200, '<html>login form</html>'),
      (s) =>
        nock(SITE)
          .get('/authorize')
          .query(true)
          .reply(() => [302, '', { Location: `https://app.test/cb?error=login_required&state=${s.request!.state}` }]),
      () => nock(SITE).get('/authorize').query(true).reply(302, ''),
      () =>
        nock(SITE)
          .get('/authorize')
          .query(true)
          .reply(302, '', { Location: '/authorize?again=1' })
          .get('/authorize')
          .query(true)
          .times(4)
          .reply(302, '', { Location: '/authorize?again=1' }),
      () => nock(SITE).get('/authorize').query(true).replyWithError('ECONNREFUSED'),
      (s) =>
        nock(SITE)
          .get('/authorize')
          .query(true)
          .reply(() => [302, '', { Location: `https://app.test/cb?code=C&state=not-${s.request!.state}` }]),
    ];
    for (const arrange of cases) {
      const seen: Seen = {};
      session(seen);
      arrange(seen);
      const auth = make();
      const e = await auth.getMemberTokensForDirectLogin('S').catch((x) => x);
      expect(e).toBeInstanceOf(AuthError);
      expect(e.message).toBe('Failed to get member tokens');
      expect(seen.exchange).toBeUndefined();
      expect(auth.getTokens()).toEqual(visitor);
      expect(nock.pendingMocks().filter((m) => m.includes('site.test'))).toEqual([]); // the page was really read
      nock.cleanAll();
    }
  });

  it('times out with OAuth flow timed out', async () => {
    const seen: Seen = {};
    session(seen);
    nock(SITE)
      .get('/authorize')
      .query(true)
      .delay(500)
      .reply(302, '', { Location: 'https://app.test/cb?code=x&state=y' });
    await expect(make().getMemberTokensForDirectLogin('S', { timeoutMs: 60 })).rejects.toThrow(
      /^OAuth flow timed out$/,
    );
  });

  it('works against a real local HTTP server (redirect session, hosted page, token endpoint)', async () => {
    nock.enableNetConnect('127.0.0.1');
    const log: string[] = [];
    let challenge = '';
    const server: Server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://127.0.0.1');
      log.push(`${req.method} ${url.pathname}`);
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (url.pathname === '/_api/redirects-api/v1/redirect-session') {
          const { authRequest } = JSON.parse(raw).auth;
          challenge = authRequest.codeChallenge;
          const q = new URLSearchParams({
            state: authRequest.state,
            redirect: authRequest.redirectUri,
            st: authRequest.sessionToken,
          });
          return json(200, { redirectSession: { fullUrl: `http://127.0.0.1:${port}/oauth2/authorize?${q}` } });
        }
        if (url.pathname === '/oauth2/authorize') {
          if (url.searchParams.get('st') !== 'GOOD_SESSION') return json(401, {});
          res.writeHead(302, {
            Location: `${url.searchParams.get('redirect')}?code=LOCAL_CODE&state=${url.searchParams.get('state')}`,
          });
          return res.end();
        }
        if (url.pathname === '/oauth2/token') {
          const body = JSON.parse(raw);
          const ok =
            body.grantType === 'authorization_code' &&
            body.code === 'LOCAL_CODE' &&
            s256(body.codeVerifier) === challenge;
          return ok
            ? json(200, { access_token: 'LOCAL_ACCESS', expires_in: 900, refresh_token: 'LOCAL_REFRESH' })
            : json(400, { message: 'invalid_grant' });
        }
        json(404, {});
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const auth = OAuthStrategy({ clientId: 'c', tokens: visitor });
      createClient({ auth, baseUrl: `http://127.0.0.1:${port}`, retry: false });
      const tokens = await auth.getMemberTokensForDirectLogin('GOOD_SESSION', { redirectUri: 'https://app.test/cb' });
      expect(tokens.accessToken.value).toBe('LOCAL_ACCESS');
      expect(auth.loggedIn()).toBe(true);
      expect(log).toEqual([
        'POST /_api/redirects-api/v1/redirect-session',
        'GET /oauth2/authorize',
        'POST /oauth2/token',
      ]);
      await expect(
        auth.getMemberTokensForDirectLogin('BAD_SESSION', { redirectUri: 'https://app.test/cb' }),
      ).rejects.toThrow('Failed to get member tokens');
    } finally {
      server.close();
    }
  });
});

describe('a custom FrameHost in Node', () => {
  it('is used instead of the redirect read, with origin and state checks', async () => {
    const seen: Seen = {};
    session(seen);
    let listener: ((e: { origin: string; data: unknown }) => void) | undefined;
    const log: string[] = [];
    const host: FrameHost = {
      createFrame: (url) => {
        log.push(`frame ${url}`);
        queueMicrotask(() => {
          const state = seen.request!.state;
          listener!({ origin: 'https://other.test', data: { code: 'BAD', state } });
          listener!({ origin: SITE, data: { code: 'BAD', state: 'x' } });
          listener!({ origin: SITE, data: { code: 'OK', state } });
        });
        return { remove: () => log.push('removed') };
      },
      addMessageListener: (fn) => {
        listener = fn;
        log.push('listen');
        return () => log.push('unlisten');
      },
    };
    await make(host).getMemberTokensForDirectLogin('S');
    expect(seen.request!.responseMode).toBe('web_message');
    expect(seen.exchange!.code).toBe('OK');
    expect(log).toEqual(['listen', `frame ${SITE}/authorize?state=${seen.request!.state}`, 'unlisten', 'removed']);
  });

  it('a host that answers synchronously still gets its frame removed', async () => {
    const seen: Seen = {};
    session(seen);
    let listener: ((e: { origin: string; data: unknown }) => void) | undefined;
    const removed: string[] = [];
    const host: FrameHost = {
      createFrame: () => {
        listener!({ origin: SITE, data: { code: 'SYNC', state: seen.request!.state } });
        return { remove: () => removed.push('frame') };
      },
      addMessageListener: (fn) => ((listener = fn), () => undefined),
    };
    await make(host).getMemberTokensForDirectLogin('S');
    expect(seen.exchange!.code).toBe('SYNC');
    expect(removed).toEqual(['frame']);
  });
});
