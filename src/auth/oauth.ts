/**
 * The OAuth strategy: visitor and member tokens with single-flight renewal, the hosted-page
 * redirect flow (PKCE), the silent flow (hidden iframe in browsers, a manual-redirect read
 * elsewhere), direct login and registration, verification, recovery and logout.
 */
import * as ops from '../../generated/operations.js';
import type { CallOptions } from '../types.js';
import type { Operation } from '../operation.js';
import { NetworkError } from '../errors/index.js';
import { deadline } from '../http/deadline.js';
import { isRetryableStatus } from '../http/retry.js';
import { Transport, type CallSettings } from '../http/transport.js';
import { parseFromUrl } from './callback.js';
import { fail } from './fail.js';
import type { SignInFlows } from './sign-in.js';
import { browserFrameHost } from './frames.js';
import { generatePKCE, randomString } from './pkce.js';
import { memoryTokenStorage } from './storage.js';
import { need, type AuthStrategy } from './strategy.js';
import {
  CAPTCHA_INVISIBLE_SITE_KEY,
  CAPTCHA_VISIBLE_SITE_KEY,
  type AuthEvent,
  type AuthUrlOptions,
  type FrameHost,
  type LoginParams,
  type OAuthCallback,
  type OAuthData,
  type RefreshToken,
  type RegisterParams,
  type SilentOptions,
  type StateMachine,
  type TokenRole,
  type Tokens,
  type TokenStorage,
} from './types.js';

/** Options of {@link OAuthStrategy}. */
export interface OAuthOptions {
  /** ID of the OAuth app (headless client). */
  clientId: string;
  /** Tokens to start with (e.g. restored from a cookie); written to `storage`. */
  tokens?: Tokens;
  /** Where tokens live; default in memory. See `localStorageTokenStorage` and `cookieTokenStorage`. */
  storage?: TokenStorage;
  /** The official SDK's name for `storage`. */
  tokenStorage?: TokenStorage;
  /** Hidden-iframe plumbing of the silent flow; default the document's (browsers only). */
  frameHost?: FrameHost;
}

/** `client.auth` of an OAuth client: token state and every sign-in flow. */
export interface OAuthAuth extends AuthStrategy {
  readonly elevated: false;
  /** The provider's invisible reCAPTCHA site key. */
  readonly captchaInvisibleSiteKey: string;
  /** The provider's visible reCAPTCHA site key. */
  readonly captchaVisibleSiteKey: string;
  /**
   * Returns `tokens` while their access token is valid; else renews them with their refresh token;
   * else (no refresh token, or the server rejects it) fetches new visitor tokens. Stores nothing.
   */
  generateVisitorTokens(tokens?: Partial<Tokens>, options?: CallOptions): Promise<Tokens>;
  /** A new access token for `refreshToken` (same role). Stores nothing. */
  renewToken(refreshToken: RefreshToken, options?: CallOptions): Promise<Tokens>;
  /**
   * Starts a redirect sign-in: a PKCE pair and a random state. Keep the result until the user
   * returns (e.g. in sessionStorage) and pass it to `getAuthUrl` and `getMemberTokens`.
   *
   * @example
   * ```ts
   * const data = client.auth.generateOAuthData(`${location.origin}/callback`, location.href);
   * sessionStorage.setItem('oauth', JSON.stringify(data));
   * location.href = (await client.auth.getAuthUrl(data)).authUrl;
   * ```
   */
  generateOAuthData(redirectUri: string, originalUri?: string): OAuthData;
  /** The hosted sign-in page's URL for `oauthData` (prompt `login`, response mode `fragment` by default). */
  getAuthUrl(oauthData: Partial<OAuthData>, options?: AuthUrlOptions): Promise<{ authUrl: string }>;
  /** Reads the authorization response from `url` (default the current address); never throws. */
  parseFromUrl(url?: string, responseMode?: 'fragment' | 'query'): OAuthCallback;
  /**
   * Exchanges the returned code for member tokens, stores and returns them.
   *
   * @example
   * ```ts
   * const { code, state } = client.auth.parseFromUrl();
   * await client.auth.getMemberTokens(code, state, JSON.parse(sessionStorage.getItem('oauth')!));
   * ```
   */
  getMemberTokens(code: string | null | undefined, state: string | null | undefined, oauthData: Partial<OAuthData>, options?: CallOptions): Promise<Tokens>;
  /**
   * Turns the session token of a successful `login`/`register` into member tokens, stores and
   * returns them: in browsers through a hidden iframe, elsewhere by reading the hosted page's
   * redirect. Fails with 'OAuth flow timed out' after 2 minutes (or `timeoutMs`).
   *
   * @example
   * ```ts
   * const result = await client.auth.login({ email, password });
   * if (result.loginState === LoginState.SUCCESS) await client.auth.getMemberTokensForDirectLogin(result.data.sessionToken);
   * ```
   */
  getMemberTokensForDirectLogin(sessionToken: string, options?: SilentOptions): Promise<Tokens>;
  /** Member tokens of a member already signed in on the site's domain, without a visible redirect (browsers). */
  getMemberTokensSilently(options?: SilentOptions): Promise<Tokens>;
  /** Member tokens for `memberId`, authorised by an API key (servers only). Returned, not stored. */
  getMemberTokensForExternalLogin(memberId: string, apiKey: string, options?: CallOptions): Promise<Tokens>;
  /** Signs a member in with email and password. Failures are outcomes, not exceptions. */
  login(params: LoginParams): Promise<StateMachine>;
  /** Registers a member. Failures are outcomes, not exceptions. */
  register(params: RegisterParams): Promise<StateMachine>;
  /** Sends the emailed verification code while the last outcome (or `state`) requires it. */
  processVerification(inputs: { verificationCode?: string; code?: string }, state?: StateMachine, options?: CallOptions): Promise<StateMachine>;
  /** Sends the verification code again while the last outcome (or `state`) requires it. */
  resendVerificationCode(state?: StateMachine, options?: CallOptions): Promise<void>;
  /** Emails a password-reset link leading back to `redirectUri`. */
  sendPasswordResetEmail(email: string, redirectUri: string, options?: CallOptions): Promise<void>;
  /** Sets a new password with the token of a reset link. */
  recover(recoveryToken: string, password: string, options?: CallOptions): Promise<StateMachine>;
  /** Changes the signed-in member's password. */
  changePassword(newPassword: string, options?: CallOptions): Promise<void>;
  /** The hosted logout page's URL (returning to `originalUrl`); the tokens are cleared. */
  logout(originalUrl: string, options?: CallOptions): Promise<{ logoutUrl: string }>;
  /** True when the tokens belong to a member. */
  loggedIn(): boolean;
  /** The current tokens (empty, role `none`, before the first call). */
  getTokens(): Tokens;
  /** Replaces the tokens (e.g. restored from a cookie). */
  setTokens(tokens: Tokens): void;
  /**
   * Calls `listener` on every token change and when a member's refresh token is rejected (the
   * client then continues as a visitor). Returns the function that unsubscribes.
   *
   * @example
   * ```ts
   * client.auth.subscribe((e) => { if (e.type === 'member-refresh-failed') showSignedOut(); });
   * ```
   */
  subscribe(listener: (event: AuthEvent) => void): () => void;
}

/** Wire JSON read defensively (every field optional-chained). */
type Json = any;

const WRONG = 'something went wrong';
const MEMBER = 'member';
const OFFLINE = 'offline_access';
const now = () => Math.floor(Date.now() / 1000);
const pair = (access: string, expiresAt: number, value: string, role: TokenRole): Tokens => ({ accessToken: { value: access, expiresAt }, refreshToken: { value, role } });
const empty = () => pair('', 0, '', 'none');
/** Truthy while the access token is good for another 60 s (clock skew, time in flight). */
const valid = (t?: Partial<Tokens>) => t?.accessToken?.value && t.accessToken.expiresAt - 60 > now();

/**
 * Authenticates visitors and members of a site through an OAuth app (headless client).
 *
 * @example
 * ```ts
 * const client = createClient({ auth: OAuthStrategy({ clientId, storage: localStorageTokenStorage() }) });
 * const items = await client.items.query('Movies').find(); // as a visitor, tokens fetched on demand
 * ```
 */
export function OAuthStrategy(options: OAuthOptions): OAuthAuth {
  need(options, 'clientId', 'OAuthStrategy');
  const { clientId } = options;
  const store = options.storage ?? options.tokenStorage ?? memoryTokenStorage();
  if (options.tokens) store.setTokens(options.tokens);
  const listeners = new Set<(event: AuthEvent) => void>();
  let transport: Transport | undefined;
  let inflight: Promise<Tokens> | undefined;
  /** Bumped by every store, so a renewal that finishes after a login or logout does not overwrite it. */
  let generation = 0;

  const emit = (event: AuthEvent) =>
    listeners.forEach((listener) => {
      try {
        listener(event);
      } catch (e) {
        // A broken listener must not break the call that changed the tokens; its error still surfaces.
        queueMicrotask(() => {
          throw e;
        });
      }
    });
  const getTokens = (): Tokens => {
    const t = store.getTokens();
    return t?.accessToken && t.refreshToken ? t : empty();
  };
  /** Stores `tokens` and tells the listeners; returns them. */
  const keep = (tokens: Tokens) => {
    generation++;
    store.setTokens(tokens);
    emit({ type: 'tokens', tokens });
    return tokens;
  };
  // Used without createClient, the strategy talks to the default host itself.
  const tp = () => (transport ??= new Transport({ auth: self }));
  const send = (op: Operation, body: object, settings?: CallSettings): Promise<Json> => tp().send(op, body, settings);

  /** One token request. Any failure answer becomes 'something went wrong' (status kept, the original as cause). */
  const grant = (body: object, settings: CallSettings | undefined, role: TokenRole, retry?: 1, refreshToken = ''): Promise<Tokens> =>
    // Token grants are POSTs, which the transport never retries; visitor and refresh grants
    // are safe to repeat, so they are marked read-only to get the client's retry policy.
    send(retry ? { ...ops.token, readOnly: true } : ops.token, body, { ...settings, anonymous: true }).then(
      (r) => {
        if (!r?.access_token) throw fail(WRONG);
        return pair(r.access_token, now() + (+r.expires_in || 0), r.refresh_token || refreshToken, role);
      },
      (e) => {
        throw e.status ? fail(WRONG, { status: e.status, details: e.details, cause: e }) : e;
      },
    );

  const renewToken = async (refreshToken: RefreshToken, c?: CallOptions) => {
    need(refreshToken, 'value', 'renewToken');
    return grant({ clientId, grantType: 'refresh_token', refreshToken: refreshToken.value }, c, refreshToken.role, 1, refreshToken.value);
  };

  /** Renews with `refreshToken`, or falls back to visitor tokens (reporting a rejected member). */
  const obtain = async (refreshToken: RefreshToken | undefined, stored?: 0 | 1, c?: CallOptions): Promise<Tokens> => {
    if (refreshToken?.value) {
      try {
        return await renewToken(refreshToken, c);
      } catch (e: any) {
        // Only a refusal of the grant itself (4xx but 408/429) drops the refresh token; network
        // errors and 5xx keep the tokens, so the next call tries again.
        // (`status / 100 ^ 4` is 0 for 4xx only: `^` truncates its operands to integers, and NaN to 0.)
        if (e?.status / 100 ^ 4 || isRetryableStatus(e.status)) throw e;
        const current = getTokens();
        // Another tab (shared storage) renewed first and the server rotated the refresh token.
        if (stored && current.refreshToken.value !== refreshToken.value && valid(current)) return current;
        if (refreshToken.role == MEMBER) emit({ type: 'member-refresh-failed', error: e });
      }
    }
    return grant({ clientId, grantType: 'anonymous' }, c, 'visitor', 1);
  };

  /** Valid stored tokens, renewing them (or, `force`d, even valid ones) at most once however many calls ask at the same time. */
  const fresh = (force?: 1): Tokens | Promise<Tokens> => {
    const start = getTokens();
    const at = generation;
    return !force && valid(start)
      ? start
      : (inflight ??= obtain(start.refreshToken, 1)
          .then((next) => (at != generation ? getTokens() : keep(next)))
          .finally(() => (inflight = undefined)));
  };

  /** The access token of the stored tokens, renewed first when needed. */
  const access = async () => (await fresh()).accessToken.value;

  /** A redirect session's URL, as `{[key]: url}`. */
  const session = async <K extends string>(key: K, body: object, c?: CallOptions) => {
    const url = (await send(ops.createRedirectSession, body, c))?.redirectSession?.fullUrl;
    if (!url) throw fail('Redirect session without a URL');
    return { [key]: url } as Record<K, string>;
  };

  const getAuthUrl = async (data: Partial<OAuthData>, o?: AuthUrlOptions | null) => {
    need(data, 'codeChallenge', 'getAuthUrl');
    const { prompt = 'login', responseMode = 'fragment', sessionToken, idp, ...c } = o ?? {};
    return session(
      'authUrl',
      {
        auth: {
          authRequest: { redirectUri: data.redirectUri, clientId, codeChallenge: data.codeChallenge, codeChallengeMethod: 'S256', responseMode, responseType: 'code', scope: OFFLINE, state: data.state, sessionToken, idp },
          prompt,
        },
      },
      c,
    );
  };

  const getMemberTokens = async (code: string | null | undefined, state: string | null | undefined, data: Partial<OAuthData>, c?: CallOptions) => {
    if (!code || !state) throw fail('Missing code or _state');
    if (state !== data?.state) throw fail('Invalid _state');
    return keep(await grant({ clientId, grantType: 'authorization_code', redirectUri: data.redirectUri, code, codeVerifier: data.codeVerifier }, c, MEMBER));
  };

  const oauthData = (redirectUri: string, originalUri = ''): OAuthData => ({ ...generatePKCE(), state: randomString(43), redirectUri, originalUri });

  /** Member tokens without a visible redirect, for a session token or an existing session. */
  const silent = async (o: SilentOptions = {}, sessionToken?: string) => {
    const d = deadline(o.signal, o.timeoutMs ?? 120_000);
    const { signal } = d;
    const host = options.frameHost ?? (globalThis.document?.body && browserFrameHost);
    const data = oauthData(o.redirectUri!);
    try {
      const { authUrl } = await getAuthUrl(data, { prompt: 'none', responseMode: host ? 'web_message' : 'query', sessionToken, signal });
      // Waiting for the page's answer loads on first use (./reply.ts): most sessions never need it.
      const reply = await (await import('./reply.js')).awaitReply(authUrl, data.state, signal, host || undefined, (url, init) => tp().fetchRaw(url, init));
      // The page's `error` and `error_description` travel as the cause.
      if (!reply.code) throw reply;
      return await getMemberTokens(reply.code, reply.state, data, { signal });
    } catch (e) {
      throw o.signal?.aborted ? d.error() : signal.aborted ? fail('OAuth flow timed out') : fail('Failed to get member tokens', { cause: e });
    } finally {
      d.done();
    }
  };

  // The sign-in state machine (login, registration, verification, recovery) loads on first use.
  const signInState = { flow: { loginState: 'INITIAL' } as StateMachine };
  let flows: Promise<SignInFlows> | undefined;
  const lazy = <K extends keyof SignInFlows>(name: K): SignInFlows[K] =>
    ((...args: unknown[]) =>
      (flows ??= import('./sign-in.js').then(
        (m) => m.signInFlows(send, clientId, signInState),
        (cause) => Promise.reject(new NetworkError({ cause })),
      )).then((f) => (f[name] as (...a: unknown[]) => unknown)(...args))) as SignInFlows[K];

  const self: OAuthAuth = {
    elevated: false,
    captchaInvisibleSiteKey: CAPTCHA_INVISIBLE_SITE_KEY,
    captchaVisibleSiteKey: CAPTCHA_VISIBLE_SITE_KEY,
    attach: (t) => void (transport = t),
    getAuthHeaders: async () => ({ Authorization: await access() }),
    // A 401 means the access token is no good whatever its expiry says: renew once, replay once.
    onUnauthorized: () => (fresh(1) as Promise<Tokens>).then(() => true, () => false),
    generateVisitorTokens: async (tokens, c) => (tokens?.refreshToken?.value && valid(tokens) ? (tokens as Tokens) : obtain(tokens?.refreshToken, 0, c)),
    renewToken,
    generateOAuthData: oauthData,
    getAuthUrl,
    parseFromUrl,
    getMemberTokens,
    getMemberTokensForDirectLogin: (sessionToken, o) => silent(o, sessionToken),
    getMemberTokensSilently: silent,
    getMemberTokensForExternalLogin: async (memberId, apiKey, c) =>
      grant({ grant_type: 'authorized_client', scope: OFFLINE, member_id: memberId }, { ...c, headers: { Authorization: (await access()) + ',' + apiKey } }, MEMBER),
    login: lazy('login'),
    register: lazy('register'),
    processVerification: lazy('processVerification'),
    resendVerificationCode: lazy('resendVerificationCode'),
    sendPasswordResetEmail: lazy('sendPasswordResetEmail'),
    recover: lazy('recover'),
    changePassword: lazy('changePassword'),
    // Signed out locally even when the hosted logout could not be prepared.
    logout: (originalUrl, c) => session('logoutUrl', { logout: { clientId }, callbacks: { postFlowUrl: originalUrl } }, c).finally(() => keep(empty())),
    loggedIn: () => getTokens().refreshToken.role == MEMBER,
    getTokens,
    setTokens: (tokens) => void keep(tokens),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return self;
}
