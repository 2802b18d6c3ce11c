// @vitest-environment jsdom
/** The silent flow in a browser (jsdom): hidden iframe, web_message, origin AND state checks, time-out. */
import { createHash } from 'node:crypto';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OAuthStrategy, type Tokens } from '../../../src/auth/index.js';
import { createClient } from '../../../src/client.js';
import { AbortedError, AuthError } from '../../../src/errors/index.js';

const BASE = 'https://api.test';
const AUTH_ORIGIN = 'https://auth.site.test';
const now = () => Math.floor(Date.now() / 1000);
const visitor: Tokens = {
  accessToken: { value: 'V', expiresAt: now() + 3600 },
  refreshToken: { value: 'VR', role: 'visitor' },
};

interface AuthRequest {
  state: string;
  codeChallenge: string;
  responseMode: string;
  sessionToken?: string;
  redirectUri?: string;
}

/** A client whose redirect session answers with an authorize URL on AUTH_ORIGIN; records the request. */
function setup() {
  const auth = OAuthStrategy({ clientId: 'c', tokens: visitor });
  createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
  const seen: { request?: AuthRequest; prompt?: string; exchange?: Record<string, string> } = {};
  nock(BASE)
    .post('/_api/redirects-api/v1/redirect-session', (b) => {
      seen.request = b.auth.authRequest;
      seen.prompt = b.auth.prompt;
      return true;
    })
    .reply(200, { redirectSession: { fullUrl: `${AUTH_ORIGIN}/oauth2/authorize?session=1` } });
  nock(BASE)
    .post('/oauth2/token', (b) => ((seen.exchange = b), true))
    .reply(200, { access_token: 'MA', expires_in: 3600, refresh_token: 'MR' });
  return { auth, seen };
}
const post = (origin: string, data: unknown) => window.dispatchEvent(new MessageEvent('message', { origin, data }));
const frames = () => [...document.querySelectorAll('iframe')];
/**
 * Resolves when the flow has put its iframe in the page: on the DOM's own event, not after a
 * number of polls or timer advances, which a loaded machine can outlast (the redirect session is
 * an HTTP round trip first, answered on real event-loop turns that fake timers do not move).
 */
const frameAdded = () =>
  new Promise<HTMLIFrameElement>((resolve) => {
    const found = () => document.querySelector('iframe');
    const frame = found();
    if (frame) return resolve(frame);
    const observer = new MutationObserver(() => {
      const added = found();
      if (!added) return;
      observer.disconnect();
      resolve(added);
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('getMemberTokensForDirectLogin in a browser', () => {
  it('loads the auth URL in a hidden iframe and exchanges the posted code', async () => {
    const { auth, seen } = setup();
    const result = auth.getMemberTokensForDirectLogin('SESSION');
    const frame = await frameAdded();
    expect(frames()).toEqual([frame]);
    expect(frame.src).toBe(`${AUTH_ORIGIN}/oauth2/authorize?session=1`);
    expect(frame.style.display).toBe('none');
    expect(seen.prompt).toBe('none');
    expect(seen.request).toMatchObject({
      responseMode: 'web_message',
      sessionToken: 'SESSION',
      responseType: 'code',
      scope: 'offline_access',
      codeChallengeMethod: 'S256',
    });
    expect(seen.request!.redirectUri).toBeUndefined();
    post(AUTH_ORIGIN, { code: 'CODE', state: seen.request!.state });
    const tokens = await result;
    expect(tokens.refreshToken).toEqual({ value: 'MR', role: 'member' });
    expect(auth.getTokens()).toEqual(tokens);
    expect(auth.loggedIn()).toBe(true);
    expect(seen.exchange).toMatchObject({ grantType: 'authorization_code', code: 'CODE', clientId: 'c' });
    expect(createHash('sha256').update(seen.exchange!.codeVerifier!).digest('base64url')).toBe(
      seen.request!.codeChallenge,
    );
    expect(frames()).toHaveLength(0);
  });

  it('ignores a message from another origin, and one with another state', async () => {
    const { auth, seen } = setup();
    const result = auth.getMemberTokensForDirectLogin('S');
    await frameAdded();
    const state = seen.request!.state;
    post('https://evil.test', { code: 'EVIL', state });
    post(AUTH_ORIGIN.replace('https', 'http'), { code: 'EVIL', state });
    post(`${AUTH_ORIGIN}.evil.test`, { code: 'EVIL', state });
    post(AUTH_ORIGIN, { code: 'EVIL', state: 'another-state' });
    post(AUTH_ORIGIN, { code: 'EVIL' });
    post(AUTH_ORIGIN, 'a string');
    post(AUTH_ORIGIN, null);
    // Messages arrive in order: had any of the ones above been taken, it would have been exchanged instead.
    post(AUTH_ORIGIN, { code: 'GOOD', state });
    await result;
    expect(seen.exchange!.code).toBe('GOOD');
  });

  it("an error posted by the page is 'Failed to get member tokens' (its details as the cause)", async () => {
    const { auth, seen } = setup();
    const result = auth.getMemberTokensForDirectLogin('S').catch((x) => x);
    await frameAdded();
    post(AUTH_ORIGIN, { error: 'login_required', error_description: 'no session', state: seen.request!.state });
    const e = await result;
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe('Failed to get member tokens');
    expect(e.code).toBe('FAILED_TO_GET_MEMBER_TOKENS');
    expect(e.cause).toMatchObject({ error: 'login_required' });
    expect(frames()).toHaveLength(0);
    expect(auth.getTokens()).toEqual(visitor);
  });

  it("a refused code exchange is 'Failed to get member tokens'", async () => {
    const auth = OAuthStrategy({ clientId: 'c', tokens: visitor });
    createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
    let state = '';
    nock(BASE)
      .post('/_api/redirects-api/v1/redirect-session', (b) => ((state = b.auth.authRequest.state), true))
      .reply(200, { redirectSession: { fullUrl: `${AUTH_ORIGIN}/a` } });
    nock(BASE).post('/oauth2/token').reply(400, {});
    const result = auth.getMemberTokensForDirectLogin('S').catch((x) => x);
    await frameAdded();
    post(AUTH_ORIGIN, { code: 'C', state });
    const e = await result;
    expect(e.message).toBe('Failed to get member tokens');
    expect(e.cause.message).toBe('something went wrong: token request failed (grant authorization_code): status 400');
  });

  it("times out after 120000 ms with 'OAuth flow timed out' and removes the frame", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { auth } = setup();
    const result = auth.getMemberTokensForDirectLogin('S').catch((x) => x);
    await frameAdded();
    expect(frames()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(119_000);
    expect(frames()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    const e = await result;
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe('OAuth flow timed out');
    expect(e.code).toBe('OAUTH_FLOW_TIMED_OUT');
    expect(frames()).toHaveLength(0);
  });

  it('honours timeoutMs and an abort signal', async () => {
    const { auth } = setup();
    await expect(auth.getMemberTokensForDirectLogin('S', { timeoutMs: 50 })).rejects.toThrow(/^OAuth flow timed out$/);
    setup();
    const ac = new AbortController();
    const result = auth.getMemberTokensForDirectLogin('S', { signal: ac.signal }).catch((x) => x);
    await frameAdded();
    ac.abort();
    expect(await result).toBeInstanceOf(AbortedError);
    expect(frames()).toHaveLength(0);
  });

  it('getMemberTokensSilently runs the same flow without a session token, with an optional redirectUri', async () => {
    const { auth, seen } = setup();
    const result = auth.getMemberTokensSilently({ redirectUri: 'https://app.test/silent' });
    await frameAdded();
    expect(seen.request!.sessionToken).toBeUndefined();
    expect(seen.request!.redirectUri).toBe('https://app.test/silent');
    post(AUTH_ORIGIN, { code: 'C2', state: seen.request!.state });
    await result;
    expect(seen.exchange!.redirectUri).toBe('https://app.test/silent');
  });
});
