import { requireObject } from '../input.js';

/**
 * What the transport needs from authentication, and nothing more: the transport depends on this
 * interface, and the strategies in `auth/` implement it (never the other way round).
 */
export interface TransportAuth {
  /** True for elevated (API-key) clients, which may call the operations the schema marks elevated. */
  readonly elevated: boolean;
  /**
   * `{headers}` that authenticate one request (`Authorization: <token>`, site/account ids), the
   * official SDK's shape. May renew tokens first. Called before every attempt, so a retry carries
   * fresh credentials.
   */
  getAuthHeaders(): Promise<AuthHeaders>;
  /**
   * Called once when a call is answered 401. Resolve true when credentials were renewed and one
   * replay of the call may succeed.
   */
  onUnauthorized?(): Promise<boolean>;
}

/** What `getAuthHeaders()` resolves: the headers that authenticate a request. */
export interface AuthHeaders {
  headers: Record<string, string>;
}

/** What a strategy has at hand without a wait: its headers, or undefined when it must work for them. */
type ReadyHeaders = () => Record<string, string> | undefined;

/** The synchronous twins of strategies' `getAuthHeaders` functions, keyed by the function itself. */
const readyTwins = new WeakMap<TransportAuth['getAuthHeaders'], ReadyHeaders>();

/**
 * Gives a strategy's `getAuthHeaders` a twin that returns the same headers without a wait when they
 * are at hand (an API key; an access token that needs no renewal), so the transport skips a wait
 * per call. Keyed by the function: a strategy copied with `getAuthHeaders` replaced (a wrapper that
 * adds a header, a test's spy) has no twin, and its own function is awaited on every call.
 */
export function withReadyHeaders<F extends TransportAuth['getAuthHeaders']>(getAuthHeaders: F, ready: ReadyHeaders): F {
  readyTwins.set(getAuthHeaders, ready);
  return getAuthHeaders;
}

/** The headers `auth.getAuthHeaders()` would give, when its twin has them at hand; else undefined. */
export const readyAuthHeaders = (auth: TransportAuth): Record<string, string> | undefined =>
  readyTwins.get(auth.getAuthHeaders)?.();

/**
 * The headers of what a strategy's `getAuthHeaders()` resolved, checked: a custom strategy that
 * resolves the headers themselves (not `{headers}`) would send no credentials, silently.
 */
export const headersOf = (auth: unknown): Record<string, string> =>
  requireObject(
    (auth as Partial<AuthHeaders> | null | undefined)?.headers,
    'getAuthHeaders().headers',
    'auth',
  ) as Record<string, string>;
