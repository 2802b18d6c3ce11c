/**
 * OAuth token lifecycle through real API calls: visitor grants, renewal, single-flight, refresh
 * failures (rejected vs transient), the 401 replay, subscriptions, logout, external login.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OAuthStrategy, type AuthEvent, type OAuthOptions, type Tokens } from '../../../src/auth/index.js';
import { createClient } from '../../../src/client.js';
import { readyAuthHeaders } from '../../../src/http/auth.js';
import { AuthError, HttpError, isAuthError, NetworkError, RequestError } from '../../../src/errors/index.js';

const BASE = 'https://api.test';
const TOKEN = '/oauth2/token';
const GET = '/wix-data/v2/collections/x';
const now = () => Math.floor(Date.now() / 1000);

const make = (o: Partial<OAuthOptions> = {}) => {
  const auth = OAuthStrategy({ clientId: 'c', ...o });
  return { auth, client: createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } }) };
};
const tokens = (role: 'visitor' | 'member', expiresAt = now() + 3600, access = 'A0', refresh = 'R0'): Tokens => ({
  accessToken: { value: access, expiresAt },
  refreshToken: { value: refresh, role },
});
const expired = (role: 'visitor' | 'member' = 'member') => tokens(role, now() - 10);

/** A token endpoint that records each body and answers with numbered tokens (or `reply(body, n)`). */
function tokenEndpoint(reply?: (body: Record<string, unknown>, n: number) => [number, unknown] | undefined) {
  const bodies: Record<string, unknown>[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  nock(BASE)
    .persist()
    .post(TOKEN)
    .reply(function (_uri, body) {
      bodies.push(body as Record<string, unknown>);
      headers.push({ ...this.req.headers });
      const n = bodies.length;
      return (
        reply?.(body as Record<string, unknown>, n) ?? [
          200,
          { access_token: `A${n}`, expires_in: 3600, refresh_token: `R${n}` },
        ]
      );
    });
  return { bodies, headers };
}

/** An API endpoint that records the Authorization header of each request. */
function api(status: (auth: string, n: number) => number = () => 200) {
  const seen: string[] = [];
  nock(BASE)
    .persist()
    .get(GET)
    .reply(function () {
      const auth = String(this.req.headers.authorization);
      seen.push(auth);
      const s = status(auth, seen.length);
      return s === 200 ? [200, { collection: { id: 'x' } }] : [s, { message: 'nope' }];
    });
  return seen;
}

// A fixed clock: expiry times computed in a test and at its assertions must agree even when a
// second boundary passes between them (only Date is faked; timers stay real).
const FIXED_NOW = new Date('2026-01-01T00:00:00.000Z');

beforeEach(() => {
  nock.disableNetConnect();
  vi.useFakeTimers({ toFake: ['Date'], now: FIXED_NOW });
});
afterEach(() => {
  nock.cleanAll();
  vi.useRealTimers();
});

describe('visitor tokens', () => {
  it('a fresh client fetches anonymous tokens once, sends the bare access token and stores the tokens', async () => {
    const { bodies, headers } = tokenEndpoint();
    const seen = api();
    const { auth, client } = make();
    expect(auth.getTokens()).toEqual({
      accessToken: { value: '', expiresAt: 0 },
      refreshToken: { value: '', role: 'none' },
    });
    expect(auth.loggedIn()).toBe(false);
    expect(await client.collections.getDataCollection('x')).toEqual({ _id: 'x' });
    await client.collections.getDataCollection('x');
    expect(bodies).toEqual([{ clientId: 'c', grantType: 'anonymous' }]);
    expect(headers[0]!.authorization).toBeUndefined(); // the grant itself is anonymous
    expect(seen).toEqual(['A1', 'A1']);
    const t = auth.getTokens();
    expect(t.accessToken.value).toBe('A1');
    expect(t.refreshToken).toEqual({ value: 'R1', role: 'visitor' });
    expect(Math.abs(t.accessToken.expiresAt - (now() + 3600))).toBeLessThanOrEqual(1);
    expect(auth.loggedIn()).toBe(false);
    expect(auth.elevated).toBe(false);
  });

  it('50 concurrent calls of a fresh visitor cause exactly one anonymous grant', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client } = make();
    await Promise.all(Array.from({ length: 50 }, () => client.collections.getDataCollection('x')));
    expect(bodies).toHaveLength(1);
    expect(seen).toHaveLength(50);
    expect(new Set(seen)).toEqual(new Set(['A1']));
  });

  it('valid tokens given at creation are used without any token request', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client, auth } = make({ tokens: tokens('member') });
    await client.collections.getDataCollection('x');
    expect(bodies).toEqual([]);
    expect(seen).toEqual(['A0']);
    expect(auth.loggedIn()).toBe(true);
  });

  it('rejects a missing clientId with a RequestError', () => {
    expect(() => OAuthStrategy({} as OAuthOptions)).toThrow(RequestError);
    expect(() => OAuthStrategy({ clientId: '' })).toThrow('clientId');
  });
});

describe('renewal', () => {
  it('an expired access token is renewed with the refresh token (role kept)', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client, auth } = make({ tokens: expired('member') });
    await client.collections.getDataCollection('x');
    expect(bodies).toEqual([{ clientId: 'c', grantType: 'refresh_token', refreshToken: 'R0' }]);
    expect(seen).toEqual(['A1']);
    expect(auth.getTokens().refreshToken).toEqual({ value: 'R1', role: 'member' });
    expect(auth.loggedIn()).toBe(true);
  });

  it('keeps the old refresh token when the server does not rotate it', async () => {
    tokenEndpoint(() => [200, { access_token: 'NEW', expires_in: 100 }]);
    api();
    const { client, auth } = make({ tokens: expired('member') });
    await client.collections.getDataCollection('x');
    expect(auth.getTokens().refreshToken).toEqual({ value: 'R0', role: 'member' });
  });

  it('an expires_in sent as a string of seconds counts as those seconds (the token is used, not renewed)', async () => {
    const { bodies } = tokenEndpoint((_body, n) => [
      200,
      { access_token: `A${n}`, expires_in: '3600', refresh_token: 'R' },
    ]);
    const seen = api();
    const { client, auth } = make();
    await client.collections.getDataCollection('x');
    await client.collections.getDataCollection('x');
    expect(auth.getTokens().accessToken.expiresAt).toBe(now() + 3600);
    expect([bodies.length, seen]).toEqual([1, ['A1', 'A1']]);
  });

  it('treats a token within 60 s of expiry as expired (clock skew)', async () => {
    const { bodies } = tokenEndpoint();
    api();
    const { client } = make({ tokens: tokens('visitor', now() + 30) });
    await client.collections.getDataCollection('x');
    expect(bodies).toHaveLength(1);
    const again = make({ tokens: tokens('visitor', now() + 600) });
    await again.client.collections.getDataCollection('x');
    expect(bodies).toHaveLength(1);
  });

  it('short-lived tokens are used, not renewed on every call: the renewal margin scales with the lifetime', async () => {
    // A 30 s token: with a fixed one-minute margin every call would fetch a new one.
    const { bodies } = tokenEndpoint((_body, n) => [
      200,
      { access_token: `A${n}`, expires_in: 30, refresh_token: `R${n}` },
    ]);
    const seen = api();
    const { client } = make();
    for (let call = 0; call < 5; call++) await client.collections.getDataCollection('x');
    expect(bodies).toHaveLength(1);
    expect(seen).toEqual(['A1', 'A1', 'A1', 'A1', 'A1']);
  });

  it('50 concurrent calls with an expired token cause exactly one token request', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client } = make({ tokens: expired('member') });
    await Promise.all(Array.from({ length: 50 }, () => client.collections.getDataCollection('x')));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.grantType).toBe('refresh_token');
    expect(seen).toHaveLength(50);
    expect(new Set(seen)).toEqual(new Set(['A1']));
  });

  it('a rejected visitor refresh token falls back to a new visitor grant without a member event', async () => {
    const { bodies } = tokenEndpoint((b) =>
      b.grantType === 'refresh_token' ? [400, { message: 'invalid_grant' }] : undefined,
    );
    api();
    const events: AuthEvent[] = [];
    const { client, auth } = make({ tokens: expired('visitor') });
    auth.subscribe((e) => events.push(e));
    await client.collections.getDataCollection('x');
    expect(bodies.map((b) => b.grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(events.map((e) => e.type)).toEqual(['tokens']);
    expect(auth.getTokens().refreshToken).toEqual({ value: 'R2', role: 'visitor' });
  });

  it('a rejected member refresh falls back to visitor tokens and reports member-refresh-failed', async () => {
    const { bodies } = tokenEndpoint((b) =>
      b.grantType === 'refresh_token' ? [401, { message: 'revoked' }] : undefined,
    );
    const seen = api();
    const events: AuthEvent[] = [];
    const { client, auth } = make({ tokens: expired('member') });
    auth.subscribe((e) => events.push(e));
    await client.collections.getDataCollection('x');
    expect(bodies.map((b) => b.grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(seen).toEqual(['A2']);
    expect(events.map((e) => e.type)).toEqual(['member-refresh-failed', 'tokens']);
    const failed = events[0] as Extract<AuthEvent, { type: 'member-refresh-failed' }>;
    expect(failed.error).toBeInstanceOf(AuthError);
    expect(failed.error.message).toBe('something went wrong: token request failed (grant refresh_token): revoked');
    expect(failed.error.status).toBe(401);
    expect(auth.getTokens().refreshToken.role).toBe('visitor');
    expect(auth.loggedIn()).toBe(false);
  });

  it('a transient member refresh failure (503, then a network error) is retried, not treated as logout', async () => {
    let calls = 0;
    nock(BASE)
      .post(TOKEN)
      .reply(() => (calls++, [503, {}]))
      .post(TOKEN)
      .replyWithError('socket hang up')
      .post(TOKEN)
      .reply(() => (calls++, [200, { access_token: 'A9', expires_in: 3600, refresh_token: 'R9' }]));
    const seen = api();
    const events: AuthEvent[] = [];
    const { client, auth } = make({ tokens: expired('member') });
    auth.subscribe((e) => events.push(e));
    await client.collections.getDataCollection('x');
    expect(calls).toBe(2);
    expect(seen).toEqual(['A9']);
    expect(events.map((e) => e.type)).toEqual(['tokens']);
    expect(auth.getTokens().refreshToken).toEqual({ value: 'R9', role: 'member' });
  });

  it('a refresh that keeps failing transiently fails the call but keeps the member signed in', async () => {
    nock(BASE).post(TOKEN).times(3).reply(503, {});
    const events: AuthEvent[] = [];
    const { client, auth } = make({ tokens: expired('member') });
    auth.subscribe((e) => events.push(e));
    const e = await client.collections.getDataCollection('x').catch((x) => x);
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe('something went wrong: token request failed (grant refresh_token): status 503');
    expect(e.code).toBe('TOKEN_REQUEST_FAILED');
    expect(e.status).toBe(503);
    expect(e.cause).toBeInstanceOf(HttpError);
    expect(events).toEqual([]);
    expect(auth.getTokens()).toEqual(expired('member'));
    expect(auth.loggedIn()).toBe(true);

    nock(BASE).post(TOKEN).times(3).replyWithError('ECONNRESET');
    const n = await client.collections.getDataCollection('x').catch((x) => x);
    expect(n).toBeInstanceOf(NetworkError);
    expect(auth.loggedIn()).toBe(true);
  });

  it("only the endpoint's own refusal (a 4xx but 408 and 429) drops a member's refresh token", async () => {
    for (const status of [400, 403, 404, 499]) {
      nock(BASE).post(TOKEN).reply(status, { message: 'refused' });
      tokenEndpoint();
      api();
      const { client, auth } = make({ tokens: expired('member') });
      await client.collections.getDataCollection('x');
      expect(auth.getTokens().refreshToken.role, String(status)).toBe('visitor');
      nock.cleanAll();
    }
    // Not a refusal either: an answer the transport did not follow (300, 304), or past the 5xx range.
    for (const status of [300, 304, 408, 429, 500, 503]) {
      nock(BASE).post(TOKEN).times(3).reply(status, { message: 'later' });
      const { client, auth } = make({ tokens: expired('member') });
      expect(await client.collections.getDataCollection('x').catch((error) => error), String(status)).toBeInstanceOf(
        AuthError,
      );
      expect(auth.getTokens(), String(status)).toEqual(expired('member'));
      nock.cleanAll();
    }
  });

  it('a status past the 5xx range (a real server may send 600) is no refusal either: the member stays signed in', async () => {
    // A real server: nock cannot answer a status past 599.
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.writeHead(600, { 'content-type': 'application/json' });
      response.end('{"message":"odd"}');
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    nock.enableNetConnect('127.0.0.1');
    try {
      const { port } = server.address() as AddressInfo;
      const auth = OAuthStrategy({ clientId: 'c', tokens: expired('member') });
      const client = createClient({ auth, baseUrl: `http://127.0.0.1:${port}`, retry: { random: () => 0 } });
      const error = await client.collections.getDataCollection('x').catch((x) => x);
      expect(error).toBeInstanceOf(AuthError);
      expect(error.status).toBe(600);
      expect(auth.getTokens()).toEqual(expired('member'));
      // The refresh only: no fall-back to a visitor grant, as after a refusal.
      expect(requests).toBe(1);
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });

  it('a token good for exactly the margin is renewed; one second more is used', async () => {
    const { bodies } = tokenEndpoint();
    api();
    for (const [left, renewals] of [
      [61, 0],
      [60, 1],
    ] as const) {
      const { client } = make({ tokens: tokens('member', now() + left) });
      await client.collections.getDataCollection('x');
      expect(bodies.length, `${left} s left`).toBe(renewals);
    }
  });

  it('a non-200 answer of the token endpoint is an AuthError naming the grant and the server’s reason', async () => {
    tokenEndpoint(() => [403, { message: 'bad client' }]);
    const { client } = make();
    const e = await client.collections.getDataCollection('x').catch((x) => x);
    expect(isAuthError(e)).toBe(true);
    expect(e.message).toBe('something went wrong: token request failed (grant anonymous): bad client');
    expect(e.status).toBe(403);
  });

  it('an OAuth error body gives its error_description (else its error code)', async () => {
    tokenEndpoint((_body, n) =>
      n === 1
        ? [400, { error: 'invalid_client', error_description: 'client_id app-x is not a valid client' }]
        : [400, { error: 'invalid_client' }],
    );
    const { auth } = make();
    await expect(auth.generateVisitorTokens()).rejects.toThrow(
      /^something went wrong: token request failed \(grant anonymous\): client_id app-x is not a valid client$/,
    );
    await expect(auth.generateVisitorTokens()).rejects.toThrow(
      /^something went wrong: token request failed \(grant anonymous\): invalid_client$/,
    );
  });

  it('a blank error_description or message is no reason: the next field, else the status, is given', async () => {
    tokenEndpoint((_body, n) =>
      n === 1
        ? [400, { error_description: '  ', message: '', error: 'invalid_grant' }]
        : [400, { error_description: '\t', error: ' ' }],
    );
    const { auth } = make();
    await expect(auth.generateVisitorTokens()).rejects.toThrow(
      /^something went wrong: token request failed \(grant anonymous\): invalid_grant$/,
    );
    await expect(auth.generateVisitorTokens()).rejects.toThrow(
      /^something went wrong: token request failed \(grant anonymous\): status 400$/,
    );
  });

  it('a 200 with an empty body is the same AuthError, not a TypeError', async () => {
    tokenEndpoint(() => [200, '']);
    const { client } = make();
    await expect(client.collections.getDataCollection('x')).rejects.toThrow(
      /^something went wrong: token request failed \(grant anonymous\): the answer has no access_token$/,
    );
  });

  it('a visitor grant is retried like a read (503, then tokens)', async () => {
    const { bodies } = tokenEndpoint((_body, n) => (n === 1 ? [503, {}] : undefined));
    const seen = api();
    const { client } = make();
    await client.collections.getDataCollection('x');
    expect(bodies.map((b) => b.grantType)).toEqual(['anonymous', 'anonymous']);
    expect(seen).toEqual(['A2']);
  });

  it('visitor tokens answered without a refresh token are renewed by a new visitor grant', async () => {
    const { bodies } = tokenEndpoint((_body, n) => [200, { access_token: `A${n}`, expires_in: 3600 }]);
    const seen = api();
    const { client, auth } = make();
    await client.collections.getDataCollection('x');
    expect(auth.getTokens().refreshToken).toEqual({ value: '', role: 'visitor' });
    // An hour later the access token has expired: with no refresh token, a visitor grant again.
    vi.setSystemTime(FIXED_NOW.getTime() + 3600_000);
    await client.collections.getDataCollection('x');
    expect(bodies.map((b) => b.grantType)).toEqual(['anonymous', 'anonymous']);
    expect(seen).toEqual(['A1', 'A2']);
  });

  it('the renewal margin of a token this client obtained is a quarter of its lifetime: 40 s lives 30 s', async () => {
    const { bodies } = tokenEndpoint((_body, n) => [
      200,
      { access_token: `A${n}`, expires_in: 40, refresh_token: `R${n}` },
    ]);
    const seen = api();
    const { client } = make();
    await client.collections.getDataCollection('x');
    vi.setSystemTime(FIXED_NOW.getTime() + 29_000);
    await client.collections.getDataCollection('x');
    vi.setSystemTime(FIXED_NOW.getTime() + 30_000);
    await client.collections.getDataCollection('x');
    expect(seen).toEqual(['A1', 'A1', 'A2']);
    expect(bodies.map((b) => b.grantType)).toEqual(['anonymous', 'refresh_token']);
  });

  it('a refused refresh token that another tab already rotated: the tokens it stored are used, no visitor grant', async () => {
    // Shared storage (localStorage between tabs): the other tab renewed with R0 and stored R-other
    // just before our renewal with R0 reached the server, which refuses the spent R0.
    let stored: Tokens | null = expired('member');
    const storage = { getTokens: () => stored, setTokens: (t: Tokens) => void (stored = t) };
    const { bodies } = tokenEndpoint((body) => {
      if (body.grantType !== 'refresh_token') return undefined;
      stored = tokens('member', now() + 3600, 'A-other', 'R-other');
      return [400, { error: 'invalid_grant' }];
    });
    const seen = api();
    const events: AuthEvent[] = [];
    const auth = OAuthStrategy({ clientId: 'c', storage });
    auth.subscribe((e) => events.push(e));
    const client = createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
    await client.collections.getDataCollection('x');
    expect(bodies.map((b) => b.refreshToken ?? b.grantType)).toEqual(['R0']);
    expect(seen).toEqual(['A-other']);
    expect(events.map((e) => e.type)).toEqual(['tokens']);
    expect(auth.getTokens().refreshToken).toEqual({ value: 'R-other', role: 'member' });
    expect(auth.loggedIn()).toBe(true);
  });

  it('tokens another tab stored are used only while usable, with the margin of the time they have left', async () => {
    // The other tab's tokens have 100 s left: a margin of 25 s (a quarter), so they still serve 50 s later.
    let stored: Tokens | null = expired('member');
    const storage = { getTokens: () => stored, setTokens: (t: Tokens) => void (stored = t) };
    const { bodies } = tokenEndpoint((body) => {
      if (body.grantType !== 'refresh_token' || body.refreshToken !== 'R0') return undefined;
      stored = tokens('member', now() + 100, 'A-other', 'R-other');
      return [400, { error: 'invalid_grant' }];
    });
    const seen = api();
    const auth = OAuthStrategy({ clientId: 'c', storage });
    const client = createClient({ auth, baseUrl: BASE, retry: { random: () => 0 } });
    await client.collections.getDataCollection('x');
    vi.setSystemTime(FIXED_NOW.getTime() + 50_000);
    await client.collections.getDataCollection('x');
    expect(seen).toEqual(['A-other', 'A-other']);
    expect(bodies).toHaveLength(1);

    // Rotated tokens that are themselves expired are no use: a visitor grant, as after any refusal.
    stored = expired('member');
    nock.cleanAll();
    const again = tokenEndpoint((body) => {
      if (body.grantType !== 'refresh_token') return undefined;
      stored = tokens('member', now() - 5, 'A-stale', 'R-stale');
      return [400, { error: 'invalid_grant' }];
    });
    api();
    const other = OAuthStrategy({ clientId: 'c', storage });
    await createClient({ auth: other, baseUrl: BASE, retry: { random: () => 0 } }).collections.getDataCollection('x');
    expect(again.bodies.map((b) => b.grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(other.getTokens().refreshToken.role).toBe('visitor');
  });

  it('a 200 without an access token says so', async () => {
    tokenEndpoint(() => [200, { nothing: true }]);
    const { client } = make();
    await expect(client.collections.getDataCollection('x')).rejects.toThrow(
      /^something went wrong: token request failed \(grant anonymous\): the answer has no access_token$/,
    );
  });

  it('a renewal that finishes after setTokens does not overwrite the new tokens', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let arrived!: () => void;
    const renewalStarted = new Promise<void>((r) => (arrived = r));
    nock(BASE)
      .post(TOKEN)
      .reply(async () => {
        arrived();
        await gate;
        return [200, { access_token: 'STALE', expires_in: 3600, refresh_token: 'RS' }];
      });
    const seen = api();
    const { client, auth } = make();
    const call = client.collections.getDataCollection('x');
    // The renewal is on its way (waited for, not guessed with a sleep: set before it, the test would prove nothing).
    await renewalStarted;
    auth.setTokens(tokens('member', now() + 3600, 'MEMBER', 'RM'));
    release();
    await call;
    expect(seen).toEqual(['MEMBER']);
    expect(auth.getTokens().accessToken.value).toBe('MEMBER');
  });
});

describe('401 replay', () => {
  it('a 401 triggers exactly one renewal and one replay', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api((auth) => (auth === 'A0' ? 401 : 200));
    const { client, auth } = make({ tokens: tokens('member') });
    expect(await client.collections.getDataCollection('x')).toEqual({ _id: 'x' });
    expect(bodies).toEqual([{ clientId: 'c', grantType: 'refresh_token', refreshToken: 'R0' }]);
    expect(seen).toEqual(['A0', 'A1']);
    expect(auth.getTokens().accessToken.value).toBe('A1');
  });

  it('a 401 whose renewal is refused: visitor tokens and a replay with them, not the refused tokens again', async () => {
    // The access token still looks good by its expiry, but the server revoked the session.
    const { bodies } = tokenEndpoint((body, n) =>
      body.grantType === 'refresh_token'
        ? [400, { error: 'invalid_grant' }]
        : [200, { access_token: `V${n}`, expires_in: 3600 }],
    );
    const seen = api((auth) => (auth === 'A0' ? 401 : 200));
    const { client, auth } = make({ tokens: tokens('member') });
    expect(await client.collections.getDataCollection('x')).toEqual({ _id: 'x' });
    expect(bodies.map((body) => body.grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(seen).toEqual(['A0', 'V2']);
    expect(auth.getTokens().refreshToken.role).toBe('visitor');
  });

  it('a second 401 surfaces as an error', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api(() => 401);
    const { client } = make({ tokens: tokens('member') });
    const e = await client.collections.getDataCollection('x').catch((x) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect(e.status).toBe(401);
    expect(bodies).toHaveLength(1);
    expect(seen).toEqual(['A0', 'A1']);
  });

  it('a failed renewal after a 401 surfaces the 401', async () => {
    nock(BASE).post(TOKEN).times(3).reply(500, {});
    const seen = api(() => 401);
    const { client } = make({ tokens: tokens('member') });
    const e = await client.collections.getDataCollection('x').catch((x) => x);
    expect(e.status).toBe(401);
    expect(seen).toEqual(['A0']);
  });

  it('concurrent 401s share one renewal', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api((auth) => (auth === 'A0' ? 401 : 200));
    const { client } = make({ tokens: tokens('visitor') });
    await Promise.all(Array.from({ length: 10 }, () => client.collections.getDataCollection('x')));
    expect(seen.filter((a) => a === 'A1')).toHaveLength(10);
    expect(bodies.length).toBeLessThanOrEqual(2);
  });
});

describe('token state', () => {
  it('subscribe reports every change and unsubscribe stops it; a throwing listener breaks nothing', async () => {
    const { auth } = make();
    const events: AuthEvent[] = [];
    const off = auth.subscribe((e) => events.push(e));
    // A listener's error is rethrown on its own (queueMicrotask), not into setTokens: capture it
    // there, deterministically (a process-level handler would race the test runner's own).
    const errors: unknown[] = [];
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((fn) => {
      try {
        fn();
      } catch (e) {
        errors.push(e);
      }
    });
    const offBad = auth.subscribe(() => {
      throw new Error('listener bug');
    });
    auth.setTokens(tokens('member'));
    spy.mockRestore();
    offBad();
    off();
    auth.setTokens(tokens('visitor'));
    expect(events).toEqual([{ type: 'tokens', tokens: tokens('member') }]);
    expect(errors).toHaveLength(1);
    expect(auth.getTokens()).toEqual(tokens('visitor'));
  });

  it('logout creates the logout session, clears both tokens to role none and returns the URL', async () => {
    const sessions: unknown[] = [];
    nock(BASE)
      .post('/_api/redirects-api/v1/redirect-session', (b) => (sessions.push(b), true))
      .matchHeader('authorization', 'A0')
      .reply(200, { redirectSession: { id: 's', fullUrl: 'https://site.test/logout?s=1' } });
    const { auth } = make({ tokens: tokens('member') });
    const events: AuthEvent[] = [];
    auth.subscribe((e) => events.push(e));
    expect(await auth.logout('https://app.test/home')).toEqual({ logoutUrl: 'https://site.test/logout?s=1' });
    expect(sessions).toEqual([{ logout: { clientId: 'c' }, callbacks: { postFlowUrl: 'https://app.test/home' } }]);
    expect(auth.getTokens()).toEqual({
      accessToken: { value: '', expiresAt: 0 },
      refreshToken: { value: '', role: 'none' },
    });
    expect(auth.loggedIn()).toBe(false);
    expect(events).toHaveLength(1);
  });

  it('logout clears the tokens even when the session cannot be created', async () => {
    nock(BASE).post('/_api/redirects-api/v1/redirect-session').reply(400, { message: 'no' });
    const { auth } = make({ tokens: tokens('member') });
    await expect(auth.logout('https://app.test')).rejects.toBeInstanceOf(HttpError);
    expect(auth.loggedIn()).toBe(false);
  });

  it('a redirect session without a URL is an AuthError, not a TypeError', async () => {
    nock(BASE).post('/_api/redirects-api/v1/redirect-session').reply(200, {});
    const { auth } = make({ tokens: tokens('member') });
    await expect(auth.logout('https://app.test')).rejects.toBeInstanceOf(AuthError);
  });
});

describe('generateVisitorTokens / renewToken', () => {
  it('returns valid tokens as they are, renews expired ones, else grants a visitor; stores nothing', async () => {
    const { bodies } = tokenEndpoint();
    const { auth } = make();
    const valid = tokens('member');
    expect(await auth.generateVisitorTokens(valid)).toBe(valid);
    expect(bodies).toEqual([]);
    const renewed = await auth.generateVisitorTokens(expired('member'));
    expect(renewed.refreshToken).toEqual({ value: 'R1', role: 'member' });
    const fresh = await auth.generateVisitorTokens();
    expect(fresh.refreshToken).toEqual({ value: 'R2', role: 'visitor' });
    expect(bodies.map((b) => b.grantType)).toEqual(['refresh_token', 'anonymous']);
    expect(auth.getTokens().accessToken.value).toBe('');
  });

  it('generateVisitorTokens with a rejected member refresh token reports it and returns visitor tokens', async () => {
    tokenEndpoint((b) => (b.grantType === 'refresh_token' ? [400, {}] : undefined));
    const { auth } = make();
    const events: AuthEvent[] = [];
    auth.subscribe((e) => events.push(e));
    const t = await auth.generateVisitorTokens({ refreshToken: { value: 'old', role: 'member' } });
    expect(t.refreshToken.role).toBe('visitor');
    expect(events.map((e) => e.type)).toEqual(['member-refresh-failed']);
  });

  it('generateVisitorTokens with a refused refresh token gives visitor tokens even while the client holds others', async () => {
    tokenEndpoint((b) => (b.grantType === 'refresh_token' ? [400, {}] : undefined));
    const held = tokens('member', now() + 3600, 'HELD', 'R-held');
    const { auth } = make({ tokens: held });
    const t = await auth.generateVisitorTokens({ refreshToken: { value: 'old', role: 'member' } });
    expect(t.accessToken.value).toBe('A2');
    expect(t.refreshToken).toEqual({ value: 'R2', role: 'visitor' });
    expect(auth.getTokens()).toEqual(held);
  });

  it('renewToken sends the refresh grant and rejects with something went wrong', async () => {
    const { bodies } = tokenEndpoint((_b, n) => (n === 2 ? [400, {}] : undefined));
    const { auth } = make();
    const t = await auth.renewToken({ value: 'RX', role: 'visitor' });
    expect(t.accessToken.value).toBe('A1');
    expect(bodies[0]).toEqual({ clientId: 'c', grantType: 'refresh_token', refreshToken: 'RX' });
    await expect(auth.renewToken({ value: 'RX', role: 'visitor' })).rejects.toThrow(
      'something went wrong: token request failed (grant refresh_token): status 400',
    );
  });

  it('works without createClient, against the default host', async () => {
    nock('https://www.wixapis.com')
      .post(TOKEN, { clientId: 'solo', grantType: 'anonymous' })
      .reply(200, { access_token: 'S', expires_in: 60, refresh_token: 'SR' });
    const auth = OAuthStrategy({ clientId: 'solo' });
    const t = await auth.generateVisitorTokens();
    expect(t.refreshToken).toEqual({ value: 'SR', role: 'visitor' });
  });
});

describe('external login', () => {
  it('sends the authorized_client grant with "<access token>,<api key>" and returns member tokens without storing them', async () => {
    const { bodies, headers } = tokenEndpoint();
    const { auth } = make({ tokens: tokens('visitor') });
    const t = await auth.getMemberTokensForExternalLogin('m-1', 'API-KEY');
    expect(bodies).toEqual([{ grant_type: 'authorized_client', scope: 'offline_access', member_id: 'm-1' }]);
    expect(headers[0]!.authorization).toBe('A0,API-KEY');
    expect(t.refreshToken).toEqual({ value: 'R1', role: 'member' });
    expect(t.accessToken.value).toBe('A1');
    expect(auth.getTokens().refreshToken.role).toBe('visitor');
  });

  it('gets visitor tokens first when it has none', async () => {
    const { bodies, headers } = tokenEndpoint();
    const { auth } = make();
    await auth.getMemberTokensForExternalLogin('m-2', 'K');
    expect(bodies.map((b) => b.grantType ?? b.grant_type)).toEqual(['anonymous', 'authorized_client']);
    expect(headers[1]!.authorization).toBe('A1,K');
  });

  it('a refusal names the grant', async () => {
    tokenEndpoint((b) => (b.grant_type ? [403, {}] : undefined));
    const { auth } = make({ tokens: tokens('visitor') });
    await expect(auth.getMemberTokensForExternalLogin('m', 'bad')).rejects.toThrow(
      'something went wrong: token request failed (grant authorized_client): status 403',
    );
  });
});

describe('ready headers (the twin of getAuthHeaders): the stored access token without a wait, only while it needs no renewal', () => {
  it('usable stored tokens: ready, sent on every call, and the token endpoint is not used', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client, auth } = make({ tokens: tokens('member') });
    expect(readyAuthHeaders(auth)).toEqual({ Authorization: 'A0' });
    for (let call = 0; call < 3; call++) await client.collections.getDataCollection('x');
    expect(seen).toEqual(['A0', 'A0', 'A0']);
    expect(bodies).toEqual([]);
  });

  it.each([
    ['expired', () => expired('member')],
    ['within the renewal margin', () => tokens('member', now() + 30)],
  ])(
    '%s stored tokens: nothing ready; the call renews first and sends the new token, which is then ready',
    async (_name, stored) => {
      const { bodies } = tokenEndpoint();
      const seen = api();
      const { client, auth } = make({ tokens: stored() });
      expect(readyAuthHeaders(auth)).toBeUndefined();
      await client.collections.getDataCollection('x');
      expect(bodies).toEqual([{ clientId: 'c', grantType: 'refresh_token', refreshToken: 'R0' }]);
      expect(seen).toEqual(['A1']);
      expect(readyAuthHeaders(auth)).toEqual({ Authorization: 'A1' });
    },
  );

  it('no tokens yet: nothing ready; the call gets visitor tokens first', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client, auth } = make();
    expect(readyAuthHeaders(auth)).toBeUndefined();
    await client.collections.getDataCollection('x');
    expect(bodies).toEqual([{ clientId: 'c', grantType: 'anonymous' }]);
    expect(seen).toEqual(['A1']);
  });

  it('tokens that were ready stop being ready as the clock reaches their renewal margin: the next call renews', async () => {
    const { bodies } = tokenEndpoint();
    const seen = api();
    const { client, auth } = make({ tokens: tokens('member', now() + 3600) });
    await client.collections.getDataCollection('x');
    vi.setSystemTime(FIXED_NOW.getTime() + (3600 - 59) * 1000);
    expect(readyAuthHeaders(auth)).toBeUndefined();
    await client.collections.getDataCollection('x');
    expect(seen).toEqual(['A0', 'A1']);
    expect(bodies.map((body) => body.grantType)).toEqual(['refresh_token']);
  });

  it('tokens set by the caller are ready at once, and replace the earlier ones on the next call', async () => {
    const seen = api();
    const { client, auth } = make({ tokens: tokens('member') });
    await client.collections.getDataCollection('x');
    auth.setTokens(tokens('member', now() + 3600, 'SET'));
    expect(readyAuthHeaders(auth)).toEqual({ Authorization: 'SET' });
    await client.collections.getDataCollection('x');
    expect(seen).toEqual(['A0', 'SET']);
  });
});
