/** Tokens, roles, login outcomes and the other shapes of the OAuth strategy (no runtime but constants). */
import type { CallOptions } from '../types.js';
import type { SiteKitError } from '../errors/index.js';

/** Who a refresh token belongs to: `none` (signed out), an anonymous `visitor`, or a signed-in `member`. */
export type TokenRole = 'none' | 'visitor' | 'member';

/** The token roles by name, for code ported from the official SDK (`TokenRole.MEMBER`). */
export const TokenRole = { NONE: 'none', VISITOR: 'visitor', MEMBER: 'member' } as const;

/** An access token and its expiry time in epoch seconds. */
export interface AccessToken {
  value: string;
  expiresAt: number;
}

/** A refresh token and the role it grants. */
export interface RefreshToken {
  value: string;
  role: TokenRole;
}

/** The token pair an OAuth client holds. */
export interface Tokens {
  accessToken: AccessToken;
  refreshToken: RefreshToken;
}

/**
 * Where an OAuth client keeps its tokens: the same shape as the official SDK's `tokenStorage`.
 * `getTokens` returns `null`/`undefined` when nothing is stored yet.
 */
export interface TokenStorage {
  getTokens(): Tokens | null | undefined;
  setTokens(tokens: Tokens): void;
}

/** Outcomes of login, registration and verification: each value is its own name. */
export const LoginState = {
  INITIAL: 'INITIAL',
  SUCCESS: 'SUCCESS',
  FAILURE: 'FAILURE',
  EMAIL_VERIFICATION_REQUIRED: 'EMAIL_VERIFICATION_REQUIRED',
  OWNER_APPROVAL_REQUIRED: 'OWNER_APPROVAL_REQUIRED',
  USER_CAPTCHA_REQUIRED: 'USER_CAPTCHA_REQUIRED',
  SILENT_CAPTCHA_REQUIRED: 'SILENT_CAPTCHA_REQUIRED',
} as const;
/** One of the {@link LoginState} values. */
export type LoginState = (typeof LoginState)[keyof typeof LoginState];

/** Why a login or registration failed, when the server said so. */
export type LoginErrorCode =
  | 'missingCaptchaToken'
  | 'invalidCaptchaToken'
  | 'emailAlreadyExists'
  | 'invalidPassword'
  | 'resetPassword'
  | 'invalidEmail';

/**
 * A failed login, registration or verification. `errorCode` is why, when the server said so: one
 * of {@link LoginErrorCode}, or the server's own state when it answered one the specification
 * maps to FAILURE (e.g. `STATUS_CHECK` for a blocked or offline account), so an app can tell such
 * an account from a wrong password; `identityStatus` is then the account's status as the server
 * gave it (`BLOCKED`, `OFFLINE`, `PENDING`...).
 *
 * @example
 * const outcome = await client.auth.login({ email, password });
 * if (outcome.loginState === 'FAILURE' && outcome.identityStatus === 'BLOCKED') showBlockedNotice();
 */
export interface LoginFailure {
  loginState: 'FAILURE';
  /** The server's words, or `'Unknown _state'` for a state the specification does not name. */
  error: string;
  errorCode?: LoginErrorCode | (string & {});
  identityStatus?: string;
}

/** The outcome of `login`, `register`, `processVerification` and `recover`. */
export type StateMachine =
  | { loginState: 'INITIAL' | 'OWNER_APPROVAL_REQUIRED' | 'USER_CAPTCHA_REQUIRED' | 'SILENT_CAPTCHA_REQUIRED' }
  /** Signed in: exchange `sessionToken` with `getMemberTokensForDirectLogin`. */
  | { loginState: 'SUCCESS'; data: { sessionToken: string } }
  | LoginFailure
  /** Pass the emailed code to `processVerification`. */
  | { loginState: 'EMAIL_VERIFICATION_REQUIRED'; data: { stateToken: string } };

/** Captcha answers; the official SDK's `recaptchaToken` / `invisibleRecaptchaToken` names are accepted too. */
export interface CaptchaTokens {
  recaptcha?: string;
  invisibleRecaptcha?: string;
  recaptchaToken?: string;
  invisibleRecaptchaToken?: string;
}

/** Arguments of `login` (plus per-call `signal` / `timeoutMs`). */
export interface LoginParams extends CallOptions {
  email: string;
  password: string;
  captchaTokens?: CaptchaTokens;
}

/** Arguments of `register`: a login plus an optional identity profile. */
export interface RegisterParams extends LoginParams {
  profile?: Record<string, unknown>;
}

/** What `generateOAuthData` returns; keep it (e.g. in sessionStorage) until the user comes back. */
export interface OAuthData {
  state: string;
  codeVerifier: string;
  codeChallenge: string;
  redirectUri: string;
  originalUri: string;
}

/** What `parseFromUrl` reads from a return URL (`null` where absent). */
export interface OAuthCallback {
  code: string | null;
  state: string | null;
  error?: string;
  errorDescription?: string | null;
}

/** Options of `getAuthUrl` (plus per-call `signal` / `timeoutMs`). */
/** What `getAuthUrl` resolves. */
export interface AuthUrl {
  /** The hosted sign-in page's full URL: where to send the user. */
  authUrl: string;
  /** The page's address without its query. */
  authorizationEndpoint: string;
  /** The redirect session's token, when the service gives one. */
  sessionToken?: string;
}

/** Options of `getAuthUrl`. */
export interface AuthUrlOptions extends CallOptions {
  /** Default `login`. */
  prompt?: 'login' | 'none' | 'consent' | 'select_account';
  /** Default `fragment`. */
  responseMode?: 'fragment' | 'query' | 'web_message';
  sessionToken?: string;
  /** The identity provider to sign in with: `google`, `facebook`, or another connection by id. */
  idp?: IdentityProvider;
}

/**
 * An identity provider of the hosted sign-in: a named one (sent as its fixed connection id), a
 * connection id, or `{connectionId}`.
 */
export type IdentityProvider = 'google' | 'facebook' | { connectionId: string } | (string & {});

/** Options of the flows that turn a session into member tokens without a visible redirect. */
export interface SilentOptions extends CallOptions {
  /** Sent as the authorization request's `redirectUri` (the official SDK sends none here). */
  redirectUri?: string;
}

/**
 * What `subscribe` listeners receive: every change of the stored tokens, and the rejection of a
 * member's refresh token (the client then continues as a visitor, as the specification says).
 */
export type AuthEvent = { type: 'tokens'; tokens: Tokens } | { type: 'member-refresh-failed'; error: SiteKitError };

/**
 * Hidden-iframe plumbing of the silent flow, behind an interface so it can be replaced (tests,
 * popups, webviews). The default uses `document` and `window`.
 */
export interface FrameHost {
  /** Loads `url` out of sight; `remove()` is called when the flow ends. */
  createFrame(url: string): { remove(): void };
  /** Listens to `message` events; returns the function that stops listening. */
  addMessageListener(listener: (event: { origin: string; data: unknown }) => void): () => void;
}

/** The provider's invisible reCAPTCHA site key (public by design). */
export const CAPTCHA_INVISIBLE_SITE_KEY = '6LdoPaUfAAAAAJphvHoUoOob7mx0KDlXyXlgrx5v';
/** The provider's visible reCAPTCHA site key (public by design). */
export const CAPTCHA_VISIBLE_SITE_KEY = '6Ld0J8IcAAAAANyrnxzrRlX1xrrdXsOmsepUYosy';
