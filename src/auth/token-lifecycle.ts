/**
 * The token lifecycle of an OAuth client: the stored tokens, their validity, token grants, and
 * single-flight renewal (however many calls find the tokens expired at once, one request renews
 * them), with change notifications.
 */
import { token } from '../../generated/operations/token.js';
import { AuthError, isSiteKitError } from '../errors/index.js';
import type { CallSettings, Transport } from '../http/transport.js';
import { isRetryableStatus } from '../http/retry.js';
import type { CallOptions } from '../types.js';
import type { AuthEvent, RefreshToken, TokenRole, Tokens, TokenStorage } from './types.js';

/** Now, in epoch seconds (the unit of `expiresAt`). */
export const nowInSeconds = (): number => Math.floor(Date.now() / 1000);

/** A token pair. */
export const tokenPair = (accessToken: string, expiresAt: number, refreshToken: string, role: TokenRole): Tokens => ({
  accessToken: { value: accessToken, expiresAt },
  refreshToken: { value: refreshToken, role },
});

/** No tokens: what a client holds before its first call and after a logout. */
export const noTokens = (): Tokens => tokenPair('', 0, '', 'none');

/** The longest renewal margin: tokens are renewed a minute before they expire (clock skew, time in flight). */
const MAX_RENEWAL_MARGIN_SECONDS = 60;

/**
 * How long before expiry a token is renewed: a minute, or a quarter of its lifetime when that is
 * shorter, so a token that lives under a minute is still used rather than renewed on every call.
 */
export const renewalMarginSeconds = (lifetimeSeconds: number): number =>
  Math.min(MAX_RENEWAL_MARGIN_SECONDS, Math.max(0, lifetimeSeconds) / 4);

/**
 * True while `tokens` have an access token good for longer than the renewal margin. The margin
 * scales with the lifetime the token was issued with when this client obtained it; for tokens of
 * unknown lifetime (given, or restored from storage) it is the full minute.
 */
export function isUsable(tokens: Partial<Tokens>, lifetimeSeconds?: number): boolean {
  const access = tokens.accessToken;
  if (!access?.value) return false;
  const margin = lifetimeSeconds === undefined ? MAX_RENEWAL_MARGIN_SECONDS : renewalMarginSeconds(lifetimeSeconds);
  return access.expiresAt - nowInSeconds() > margin;
}

/** The grant types the SDK sends, and what each is called in error messages. */
type GrantType = 'anonymous' | 'refresh_token' | 'authorization_code' | 'authorized_client';

// Visitor and refresh grants are safe to repeat, so they take the client's retry policy like a
// read-only call (a POST is otherwise never retried); the others are sent once.
const REPEATABLE_GRANTS: ReadonlySet<GrantType> = new Set(['anonymous', 'refresh_token']);

/** The error body fields of the token endpoint (OAuth's own, or the platform's). */
interface TokenErrorBody {
  error?: unknown;
  error_description?: unknown;
  message?: unknown;
}

/** The server's reason for refusing a grant, from the error's parsed body; else its status line. */
function refusalReason(error: { status?: number; message: string; details?: unknown }): string {
  const body = (typeof error.details === 'object' && error.details !== null ? error.details : {}) as TokenErrorBody;
  const said = [body.error_description, body.message, body.error].find(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
  return said ?? `status ${error.status}`;
}

/**
 * The AuthError of a failed grant: the spec's wording ("any non-200 gives 'something went wrong'"),
 * then the grant and the server's reason.
 */
const grantFailure = (
  grantType: GrantType,
  reason: string,
  cause?: { status?: number; details?: unknown },
): AuthError =>
  new AuthError(`something went wrong: token request failed (grant ${grantType}): ${reason}`, {
    code: 'TOKEN_REQUEST_FAILED',
    status: cause?.status,
    details: cause?.details,
    cause,
  });

/** The wire answer of the token endpoint. */
interface TokenResponse {
  access_token?: string;
  expires_in?: number | string;
  refresh_token?: string;
}

/** What the lifecycle needs from its strategy: the client, and where tokens live. */
export interface TokenLifecycleOptions {
  readonly clientId: string;
  readonly storage: TokenStorage;
  /** The transport to send token requests through (the client's, or the strategy's own). */
  readonly transport: () => Transport;
}

/** The stored tokens of one OAuth client, their grants and their renewal. */
export class TokenLifecycle {
  private readonly listeners = new Set<(event: AuthEvent) => void>();
  /** The one renewal in flight, shared by every call that needs it. */
  private renewal: Promise<Tokens> | undefined;
  /** Bumped by every store, so a renewal that finishes after a login or logout does not overwrite it. */
  private generation = 0;
  /** The lifetime the stored access token was issued with, when this client obtained it. */
  private storedLifetimeSeconds: number | undefined;

  constructor(private readonly options: TokenLifecycleOptions) {}

  /** The stored tokens (no tokens, role `none`, before any). */
  current(): Tokens {
    const tokens = this.options.storage.getTokens();
    return tokens?.accessToken && tokens.refreshToken ? tokens : noTokens();
  }

  /** Stores `tokens` and tells the listeners; returns them. */
  store(tokens: Tokens, lifetimeSeconds?: number): Tokens {
    // Stryker disable next-line UpdateOperator: any change of the number tells a renewal it lost (only !== compares it)
    this.generation++;
    this.storedLifetimeSeconds = lifetimeSeconds;
    this.options.storage.setTokens(tokens);
    this.emit({ type: 'tokens', tokens });
    return tokens;
  }

  /** Calls `listener` on every event; returns the function that unsubscribes. */
  subscribe(listener: (event: AuthEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private emit(event: AuthEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A broken listener must not break the call that changed the tokens; its error still surfaces.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /**
   * One token request. A refusal (or an answer without an access token) is an AuthError naming
   * the grant and the server's reason, the original error as its cause.
   */
  async grant(
    body: Record<string, unknown>,
    role: TokenRole,
    settings?: CallSettings,
    refreshToken = '',
  ): Promise<{ tokens: Tokens; lifetimeSeconds: number }> {
    const grantType = (body.grantType ?? body.grant_type) as GrantType;
    const repeatable = REPEATABLE_GRANTS.has(grantType);
    let response: TokenResponse | undefined;
    try {
      response = (await this.options.transport().send(token, body, { ...settings, anonymous: true, repeatable })) as
        | TokenResponse
        | undefined;
    } catch (error) {
      // Failures without a status (network, time limit, abort) stay what they are.
      if (isSiteKitError(error) && error.status) throw grantFailure(grantType, refusalReason(error), error);
      throw error;
    }
    if (!response?.access_token) throw grantFailure(grantType, 'the answer has no access_token');
    const lifetimeSeconds = Number(response.expires_in) || 0;
    return {
      tokens: tokenPair(
        response.access_token,
        nowInSeconds() + lifetimeSeconds,
        response.refresh_token || refreshToken,
        role,
      ),
      lifetimeSeconds,
    };
  }

  /** A new access token for `refreshToken` (same role). Stores nothing. */
  async renew(refreshToken: RefreshToken, options?: CallOptions): Promise<{ tokens: Tokens; lifetimeSeconds: number }> {
    const body = { clientId: this.options.clientId, grantType: 'refresh_token', refreshToken: refreshToken.value };
    return this.grant(body, refreshToken.role, options, refreshToken.value);
  }

  /**
   * Renews with `refreshToken`, or falls back to visitor tokens, reporting a rejected member.
   * `fromStorage` says the refresh token is the stored one (another tab may have rotated it).
   */
  async obtain(
    refreshToken: RefreshToken | undefined,
    fromStorage: boolean,
    options?: CallOptions,
  ): Promise<{ tokens: Tokens; lifetimeSeconds: number }> {
    if (refreshToken?.value) {
      try {
        return await this.renew(refreshToken, options);
      } catch (error) {
        if (!isGrantRefusal(error)) throw error;
        const current = this.current();
        // Another tab (shared storage) renewed first and the server rotated the refresh token.
        if (fromStorage && current.refreshToken.value !== refreshToken.value && isUsable(current))
          return { tokens: current, lifetimeSeconds: current.accessToken.expiresAt - nowInSeconds() };
        if (refreshToken.role === 'member') this.emit({ type: 'member-refresh-failed', error: error as AuthError });
      }
    }
    return this.grant({ clientId: this.options.clientId, grantType: 'anonymous' }, 'visitor', options);
  }

  /** The stored tokens when they are usable as they are (nothing to renew), else undefined. */
  ready(): Tokens | undefined {
    const current = this.current();
    return isUsable(current, this.storedLifetimeSeconds) ? current : undefined;
  }

  /**
   * Usable stored tokens, renewing them first when needed (or, with `force`, even when they look
   * usable: the server refused them). One renewal at a time, however many calls ask.
   */
  usable(force = false): Tokens | Promise<Tokens> {
    const ready = force ? undefined : this.ready();
    if (ready) return ready;
    const start = this.current();
    const generation = this.generation;
    return (this.renewal ??= this.obtain(start.refreshToken, true)
      // A login or logout that happened meanwhile wins over this renewal.
      .then(({ tokens, lifetimeSeconds }) =>
        generation !== this.generation ? this.current() : this.store(tokens, lifetimeSeconds),
      )
      .finally(() => (this.renewal = undefined)));
  }
}

/**
 * True when the token endpoint refused the grant itself (a 4xx other than 408 and 429): only then
 * is a refresh token dropped. Network errors and 5xx keep the tokens, so the next call tries again.
 */
function isGrantRefusal(error: unknown): boolean {
  const status = isSiteKitError(error) ? (error.status ?? 0) : 0;
  // Stryker disable next-line EqualityOperator: 500 is retryable, so <= 500 refuses nothing more
  return status >= 400 && status < 500 && !isRetryableStatus(status);
}
