/**
 * The types of an OAuth client's `client.auth` and of its options, apart from their
 * implementation (./oauth.ts), so the sign-in flows (./sign-in.ts), loaded on first use, can name
 * the methods they implement without importing the module that loads them.
 */
import type { CallOptions } from '../types.js';
import type { IdentityCalls, SignOnOptions } from './identity-calls.js';
import type { AuthStrategy } from './strategy.js';
import type {
  AuthEvent,
  AuthUrl,
  AuthUrlOptions,
  FrameHost,
  LoginParams,
  OAuthCallback,
  OAuthData,
  RefreshToken,
  RegisterParams,
  SilentOptions,
  StateMachine,
  Tokens,
  TokenStorage,
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
export interface OAuthAuth extends AuthStrategy, IdentityCalls {
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
   * returns (e.g. in sessionStorage) and pass it to `getAuthUrl` and `getMemberTokens`. Resolves
   * (not returns) because the S256 challenge is WebCrypto's digest, which only exists as a promise.
   *
   * @example
   * ```ts
   * const data = await client.auth.generateOAuthData(`${location.origin}/callback`, location.href);
   * sessionStorage.setItem('oauth', JSON.stringify(data));
   * location.href = (await client.auth.getAuthUrl(data)).authUrl;
   * ```
   */
  generateOAuthData(redirectUri: string, originalUri?: string): Promise<OAuthData>;
  /**
   * The hosted sign-in page's URL for `oauthData` (prompt `login`, response mode `fragment` by
   * default), with the page's address without its query (`authorizationEndpoint`) and the
   * redirect session's token when the service gives one.
   */
  getAuthUrl(oauthData: Partial<OAuthData>, options?: AuthUrlOptions): Promise<AuthUrl>;
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
  getMemberTokens(
    code: string | null | undefined,
    state: string | null | undefined,
    oauthData: Partial<OAuthData>,
    options?: CallOptions,
  ): Promise<Tokens>;
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
  /**
   * Member tokens for the member with login email `email`, created or updated as needed (a sign-on
   * with the API key), bound to a new session of theirs (servers only). Returned, not stored.
   */
  getMemberTokensForExternalLoginWithSession(email: string, apiKey: string, options?: SignOnOptions): Promise<Tokens>;
  /** Signs a member in with email and password. Failures are outcomes, not exceptions. */
  login(params: LoginParams): Promise<StateMachine>;
  /** Registers a member. Failures are outcomes, not exceptions. */
  register(params: RegisterParams): Promise<StateMachine>;
  /** Sends the emailed verification code while the last outcome (or `state`) requires it. */
  processVerification(
    inputs: { verificationCode?: string; code?: string },
    state?: StateMachine,
    options?: CallOptions,
  ): Promise<StateMachine>;
  /** Sends the verification code again while the last outcome (or `state`) requires it. */
  resendVerificationCode(state?: StateMachine, options?: CallOptions): Promise<void>;
  /** Emails a password-reset link leading back to `redirectUri`. */
  sendPasswordResetEmail(email: string, redirectUri: string, options?: CallOptions): Promise<void>;
  /** Changes the signed-in member's password. */
  changePassword(newPassword: string, options?: CallOptions): Promise<void>;
  /** The hosted logout page's URL (returning to `originalUrl`); the tokens are cleared. */
  logout(originalUrl: string, options?: CallOptions): Promise<{ logoutUrl: string }>;
  /** True when the tokens belong to a member. */
  loggedIn(): boolean;
  /** The current tokens (empty, role `none`, before the first call). */
  getTokens(): Tokens;
  /** The current access token's value (empty before the first call), as it is: not renewed. */
  getActiveToken(): string;
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
