/**
 * The OAuth strategy: visitor and member tokens with single-flight renewal, the hosted-page
 * redirect flow (PKCE), the silent flow (hidden iframe in browsers, a manual-redirect read
 * elsewhere), direct login and registration, verification, recovery and logout.
 */
import { operations } from '../../generated/operations.js';
import type { CallOptions, Operation } from '../../generated/request.js';
import { AuthError, RequestError, type SiteKitError, type SiteKitErrorInit } from '../errors/index.js';
import { toUpperSnake } from '../errors/status-text.js';
import { deadline } from '../http/deadline.js';
import { isRetryableStatus } from '../http/retry.js';
import { Transport, type CallSettings } from '../http/transport.js';
import { toWire } from '../wire/index.js';
import { parseFromUrl } from './callback.js';
import { browserFrameHost, hasDom } from './frames.js';
import { generatePKCE, randomString } from './pkce.js';
import { memoryTokenStorage } from './storage.js';
import type { AuthStrategy } from './strategy.js';
import {
  CAPTCHA_INVISIBLE_SITE_KEY,
  CAPTCHA_VISIBLE_SITE_KEY,
  type AuthEvent,
  type AuthUrlOptions,
  type CaptchaTokens,
  type FrameHost,
  type LoginErrorCode,
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

/** Seconds before expiry at which an access token counts as expired (clock skew, time in flight). */
const SKEW = 60;
const VERIFY = 'EMAIL_VERIFICATION_REQUIRED';
const now = () => Math.floor(Date.now() / 1000);
const empty = (): Tokens => ({ accessToken: { value: '', expiresAt: 0 }, refreshToken: { value: '', role: 'none' } });
const valid = (t?: Partial<Tokens>) => !!t?.accessToken?.value && t.accessToken.expiresAt - SKEW > now();
/** An AuthError whose code is its message in upper snake case ('Invalid _state' → `INVALID_STATE`). */
const fail = (message: string, init?: Omit<SiteKitErrorInit, 'code'>) => new AuthError(message, { code: toUpperSnake(message), ...init });
const failure = (error: string, errorCode?: LoginErrorCode): StateMachine => ({ loginState: 'FAILURE', error, ...(errorCode && { errorCode }) });
/** The server refused the grant itself (4xx), as opposed to a transient failure worth retrying later. */
const rejected = (e: unknown) => {
  const s = (e as SiteKitError)?.status ?? 0;
  return s >= 400 && s < 500 && !isRetryableStatus(s);
};
// Maps, not object literals: a server code such as `toString` must not find Object.prototype.
const CAPTCHA_CODES: [string, LoginErrorCode][] = [['-19971', 'missingCaptchaToken'], ['-19970', 'invalidCaptchaToken']];
const LOGIN_CODES = new Map<string, LoginErrorCode>([...CAPTCHA_CODES, ['-19976', 'invalidPassword'], ['-19973', 'resetPassword']]);
const REGISTER_CODES = new Map<string, LoginErrorCode>([...CAPTCHA_CODES, ['-19995', 'emailAlreadyExists']]);

/** Captcha answers as the service takes them: `[{Recaptcha}]` and/or `[{InvisibleRecaptcha}]`. */
const captcha = (c: CaptchaTokens = {}) => {
  const list = [{ Recaptcha: c.recaptcha ?? c.recaptchaToken }, { InvisibleRecaptcha: c.invisibleRecaptcha ?? c.invisibleRecaptchaToken }].filter((t) => Object.values(t)[0]);
  return list[0] && list;
};

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
  if (typeof options?.clientId !== 'string' || !options.clientId) {
    throw new RequestError('OAuthStrategy: clientId must be a non-empty string', { field: 'clientId' });
  }
  const { clientId } = options;
  const store = options.storage ?? options.tokenStorage ?? memoryTokenStorage();
  if (options.tokens) store.setTokens(options.tokens);
  const listeners = new Set<(event: AuthEvent) => void>();
  let transport: Transport | undefined;
  let inflight: Promise<Tokens> | undefined;
  /** Bumped by every store, so a renewal that finishes after a login or logout does not overwrite it. */
  let generation = 0;
  /** The last login outcome: `processVerification` continues from it. */
  let flow: StateMachine = { loginState: 'INITIAL' };

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
  const setTokens = (tokens: Tokens) => {
    generation++;
    store.setTokens(tokens);
    emit({ type: 'tokens', tokens });
  };
  // Used without createClient, the strategy talks to the default host itself.
  const tp = () => (transport ??= new Transport({ auth: self }));
  const send = (op: Operation, body: object, settings?: CallSettings): Promise<Json> => tp().send(op, body, settings);

  /** One token request. Any failure answer becomes 'something went wrong' (status kept, the original as cause). */
  const grant = async (body: object, settings: CallSettings | undefined, role: TokenRole, retry?: 1, refreshToken = ''): Promise<Tokens> => {
    let r: Json;
    try {
      // Token grants are POSTs, which the transport never retries; visitor and refresh grants
      // are safe to repeat, so they are marked read-only to get the client's retry policy.
      r = await send({ ...operations.token, ro: retry }, body, { ...settings, anonymous: true });
    } catch (e) {
      const { status, details } = e as SiteKitError;
      throw status ? fail('something went wrong', { status, details, cause: e }) : e;
    }
    if (!r?.access_token) throw fail('something went wrong');
    return {
      accessToken: { value: r.access_token, expiresAt: now() + (Number(r.expires_in) || 0) },
      refreshToken: { value: r.refresh_token || refreshToken, role },
    };
  };

  const renewToken = (refreshToken: RefreshToken, c?: CallOptions) =>
    grant({ clientId, grantType: 'refresh_token', refreshToken: refreshToken.value }, c, refreshToken.role, 1, refreshToken.value);

  /** Renews with `refreshToken`, or falls back to visitor tokens (reporting a rejected member). */
  const obtain = async (refreshToken: RefreshToken | undefined, c?: CallOptions, stored?: boolean): Promise<Tokens> => {
    if (refreshToken?.value) {
      try {
        return await renewToken(refreshToken, c);
      } catch (e) {
        if (!rejected(e)) throw e; // network, 5xx: keep the tokens, the next call tries again
        const current = getTokens();
        // Another tab (shared storage) renewed first and the server rotated the refresh token.
        if (stored && current.refreshToken.value !== refreshToken.value && valid(current)) return current;
        if (refreshToken.role === 'member') emit({ type: 'member-refresh-failed', error: e as SiteKitError });
      }
    }
    return grant({ clientId, grantType: 'anonymous' }, c, 'visitor', 1);
  };

  /** Valid stored tokens, renewing them at most once however many calls ask at the same time. */
  const fresh = (force?: boolean): Promise<Tokens> =>
    (inflight ??= (async () => {
      const start = getTokens();
      if (!force && valid(start)) return start;
      const at = generation;
      const next = await obtain(start.refreshToken, undefined, true);
      if (at !== generation) return getTokens();
      setTokens(next);
      return next;
    })().finally(() => (inflight = undefined)));

  const redirectSession = async (body: object, c?: CallOptions): Promise<string> => {
    const url = (await send(operations.createRedirectSession, body, c))?.redirectSession?.fullUrl;
    if (!url) throw fail('Redirect session without a URL');
    return url;
  };

  const getAuthUrl = async (data: Partial<OAuthData>, o: AuthUrlOptions = {}) => {
    const { prompt = 'login', responseMode = 'fragment', sessionToken, idp, ...c } = o;
    const { redirectUri, codeChallenge, state } = data;
    const authRequest = { redirectUri, clientId, codeChallenge, codeChallengeMethod: 'S256', responseMode, responseType: 'code', scope: 'offline_access', state, sessionToken, idp };
    return { authUrl: await redirectSession({ auth: { authRequest, prompt } }, c) };
  };

  const getMemberTokens = async (code: string | null | undefined, state: string | null | undefined, data: Partial<OAuthData>, c?: CallOptions) => {
    if (!code || !state) throw fail('Missing code or _state');
    if (state !== data?.state) throw fail('Invalid _state');
    const tokens = await grant({ clientId, grantType: 'authorization_code', redirectUri: data.redirectUri, code, codeVerifier: data.codeVerifier }, c, 'member');
    setTokens(tokens);
    return tokens;
  };

  /** Waits for the hosted page in a hidden frame to post `{code, state}`: only from its origin, only with our state. */
  const viaFrame = (host: FrameHost, url: string, state: string, signal: AbortSignal) =>
    new Promise<OAuthCallback>((resolve, reject) => {
      const origin = new URL(url).origin;
      let frame: { remove(): void } | undefined;
      let done = 0;
      // The abort listener stays: `signal` is this flow's own and dies with it.
      const finish = (settle: () => void) => {
        if (done++) return;
        stop();
        frame?.remove();
        settle();
      };
      const onAbort = () => finish(() => reject(signal.reason));
      const stop = host.addMessageListener((e) => {
        const m = e.data as Json;
        if (e.origin === origin && m?.state === state) finish(() => resolve(m));
      });
      signal.addEventListener('abort', onAbort);
      if (signal.aborted) onAbort();
      frame = host.createFrame(url);
      if (done) frame.remove();
    });

  /**
   * Outside browsers: loads the hosted page without following redirects and reads the code from
   * the `Location` that carries it, a few hops at most.
   */
  const viaRedirect = async (url: string, signal: AbortSignal): Promise<OAuthCallback> => {
    for (let hop = 0; hop < 5; hop++) {
      const r = await tp().fetchRaw(url, { redirect: 'manual', signal });
      void r.body?.cancel().catch(() => {});
      const location = r.headers.get('location');
      if (!location || r.status < 300 || r.status > 399) break;
      url = new URL(location, url).href;
      const reply = parseFromUrl(url, 'query');
      if (reply.code || reply.error) return reply;
    }
    throw Error('no authorization code in the redirects');
  };

  /** Member tokens without a visible redirect, for a session token or an existing session. */
  const silent = async (sessionToken: string | undefined, o: SilentOptions = {}) => {
    const d = deadline(o.signal, o.timeoutMs ?? 120_000);
    const c = { signal: d.signal };
    const host = options.frameHost ?? (hasDom() ? browserFrameHost : undefined);
    const data = { ...generatePKCE(), state: randomString(43), redirectUri: o.redirectUri };
    try {
      const { authUrl } = await getAuthUrl(data, { prompt: 'none', responseMode: host ? 'web_message' : 'query', sessionToken, ...c });
      const reply = await (host ? viaFrame(host, authUrl, data.state, d.signal) : viaRedirect(authUrl, d.signal));
      // The page's `error` and `error_description` travel as the cause.
      if (!reply.code) throw reply;
      return await getMemberTokens(reply.code, reply.state, data, c);
    } catch (e) {
      throw o.signal?.aborted
        ? d.error()
        : d.signal.aborted
          ? fail('OAuth flow timed out')
          : fail('Failed to get member tokens', { cause: e });
    } finally {
      d.done();
    }
  };

  /** The outcome of a state-machine answer; remembered for `processVerification`. */
  const outcome = (r: Json): StateMachine => {
    const s = r?.state;
    return (flow =
      s === 'SUCCESS'
        ? { loginState: s, data: { sessionToken: r.sessionToken } }
        : s === 'REQUIRE_OWNER_APPROVAL'
          ? { loginState: 'OWNER_APPROVAL_REQUIRED' }
          : s === 'REQUIRE_EMAIL_VERIFICATION'
            ? { loginState: VERIFY, data: { stateToken: r.stateToken } }
            : failure('Unknown _state'));
  };

  /**
   * Login and registration. A refusal by the service (4xx) is a FAILURE outcome with the error
   * codes of the specification; a transport failure (network, time-out, 5xx) is thrown.
   */
  const signIn = async (op: Operation, params: RegisterParams, codes: Map<string, LoginErrorCode>, register?: boolean): Promise<StateMachine> => {
    const { email, password, captchaTokens, profile, ...c } = params ?? {};
    try {
      return outcome(await send(op, toWire({ loginId: { email }, password, profile, captchaTokens: captcha(captchaTokens) }, op.i) as object, c));
    } catch (e) {
      const { status, message, code, details } = e as SiteKitError;
      if (!status || status >= 500) throw e;
      const violations: Json = (details as Json)?.details?.validationError?.fieldViolations;
      // A registration rejected for its email (a violation of rule or type EMAIL) says why.
      const email = register && Array.isArray(violations) && violations.find((v) => v?.violatedRule === 'EMAIL' || v?.data?.type === 'EMAIL');
      return (flow = email ? failure(String(email.description ?? message), 'invalidEmail') : failure(message, codes.get(code) ?? (register ? undefined : 'invalidEmail')));
    }
  };

  const self: OAuthAuth = {
    elevated: false,
    captchaInvisibleSiteKey: CAPTCHA_INVISIBLE_SITE_KEY,
    captchaVisibleSiteKey: CAPTCHA_VISIBLE_SITE_KEY,
    attach: (t) => void (transport = t),
    getAuthHeaders: async () => {
      const t = getTokens();
      return { Authorization: (valid(t) ? t : await fresh()).accessToken.value };
    },
    // A 401 means the access token is no good whatever its expiry says: renew once, replay once.
    onUnauthorized: () => fresh(true).then(() => true, () => false),
    generateVisitorTokens: async (tokens, c) => (tokens?.refreshToken?.value && valid(tokens) ? (tokens as Tokens) : obtain(tokens?.refreshToken, c)),
    renewToken,
    generateOAuthData: (redirectUri, originalUri = '') => ({ ...generatePKCE(), state: randomString(43), redirectUri, originalUri }),
    getAuthUrl,
    parseFromUrl,
    getMemberTokens,
    getMemberTokensForDirectLogin: silent,
    getMemberTokensSilently: (o) => silent(undefined, o),
    getMemberTokensForExternalLogin: async (memberId, apiKey, c) =>
      grant({ grant_type: 'authorized_client', scope: 'offline_access', member_id: memberId }, { ...c, headers: { Authorization: (await self.getAuthHeaders()).Authorization + ',' + apiKey } }, 'member'),
    login: (params) => signIn(operations.login, params, LOGIN_CODES),
    register: (params) => signIn(operations.register, params, REGISTER_CODES, true),
    processVerification: async (inputs, state = flow, c) =>
      state.loginState === VERIFY
        ? outcome(await send(operations.verify, { code: inputs?.verificationCode ?? inputs?.code, stateToken: state.data.stateToken }, c))
        : failure('Unknown _state'),
    resendVerificationCode: async (state = flow, c) => {
      if (state.loginState !== VERIFY) throw fail('Unknown _state');
      await send(operations.resendVerification, { stateToken: state.data.stateToken }, c);
    },
    sendPasswordResetEmail: async (email, redirectUri, c) => void (await send(operations.sendRecoveryEmail, { email, redirect: { url: redirectUri, clientId } }, c)),
    recover: async (recoveryToken, password, c) => outcome(await send(operations.recover, { recoveryToken, password }, c)),
    changePassword: async (newPassword, c) => void (await send(operations.changePassword, { newPassword }, c)),
    logout: async (originalUrl, c) => {
      try {
        return { logoutUrl: await redirectSession({ logout: { clientId }, callbacks: { postFlowUrl: originalUrl } }, c) };
      } finally {
        // Signed out locally even when the hosted logout could not be prepared.
        setTokens(empty());
      }
    },
    loggedIn: () => getTokens().refreshToken.role === 'member',
    getTokens,
    setTokens,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  return self;
}
