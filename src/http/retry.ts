/**
 * The retry policy as pure functions: whether to try a failed request again, and how long to
 * wait first. No timers and no fetch here, so every branch is table-testable (the transport
 * owns the sleeping and the replaying).
 */

/**
 * How a client retries failed requests. Pass `retry: false` to the client to never retry.
 *
 * @example
 * ```ts
 * createClient({ auth, retry: { retries: 4, maxDelayMs: 2000 } });
 * ```
 */
export interface RetryOptions {
  /** Extra attempts after the first one. Default 2 (so at most 3 requests). */
  retries?: number;
  /** Backoff ceiling for the first retry, doubled on each later one. Default 300 ms. */
  baseDelayMs?: number;
  /** Upper bound of the backoff ceiling. Default 5000 ms. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client will wait for; a longer one makes it give up at once, so
   * a caller is not stuck behind a server asking for minutes. Default 30000 ms.
   */
  maxRetryAfterMs?: number;
  /** Random source in [0, 1) for the jitter; injectable so tests are deterministic. Default `Math.random`. */
  random?: () => number;
}

/** Fills in the defaults; `??` (not `||`) so an explicit 0 is honoured. */
const withDefaults = (options: RetryOptions) => ({
  retries: options.retries ?? 2,
  baseDelayMs: options.baseDelayMs ?? 300,
  maxDelayMs: options.maxDelayMs ?? 5000,
  maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
  random: options.random ?? Math.random,
});

/**
 * Whether a response status is worth retrying: 408 (request timeout), 429 (rate limited) and
 * any 5xx. Other 4xx mean the request itself is wrong, so sending it again cannot help.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

const SAFE_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'];

/**
 * Whether replaying a request cannot change the outcome. GET, HEAD, PUT, DELETE and OPTIONS
 * are idempotent by HTTP semantics; POST and PATCH only when the schema marks the operation
 * read-only (query, count, aggregate, search... are POSTs only because their bodies are big).
 */
export function isIdempotent(method: string, readOnly: boolean): boolean {
  const upperCase = method.toUpperCase();
  return SAFE_METHODS.includes(upperCase) || (readOnly && (upperCase === 'POST' || upperCase === 'PATCH'));
}

/**
 * Decides whether to send a failed request again.
 *
 * Never replays a non-idempotent write, not even after a network error or a 503: the server
 * may have applied it before the failure, and a duplicate insert is worse than an error.
 *
 * @example
 * ```ts
 * shouldRetry({ method: 'GET', readOnly: false, attempt: 1, options: {}, status: 503 }); // true
 * shouldRetry({ method: 'POST', readOnly: false, attempt: 1, options: {}, networkError: true }); // false
 * ```
 */
export function shouldRetry(input: {
  method: string;
  readOnly: boolean;
  /** Attempts already made, >= 1. */
  attempt: number;
  options: RetryOptions | false;
  status?: number;
  networkError?: boolean;
  /** The parsed `Retry-After` of the failed response, if any. */
  retryAfterMs?: number | null;
}): boolean {
  const { options, status, retryAfterMs } = input;
  if (options === false) return false;
  const settings = withDefaults(options);
  return (
    input.attempt <= settings.retries &&
    isIdempotent(input.method, input.readOnly) &&
    // Stryker disable next-line ConditionalExpression: isRetryableStatus(undefined) is false too (the check is for the type)
    (input.networkError === true || (status !== undefined && isRetryableStatus(status))) &&
    (retryAfterMs == null || retryAfterMs <= settings.maxRetryAfterMs)
  );
}

/**
 * Parses a `Retry-After` header into milliseconds from `now` (never negative): either
 * delta-seconds (`"120"`, `"1.5"`) or an HTTP-date (a date in the past gives 0).
 * Anything else gives `null`, meaning "no hint".
 */
export function parseRetryAfter(header: string | null | undefined, now: number): number | null {
  // Stryker disable next-line StringLiteral: any text other than a number or an HTTP-date gives null, as '' does
  const value = header?.trim() ?? '';
  if (/^\d*\.?\d+$/.test(value)) return Math.ceil(Number(value) * 1000);
  // Date.parse alone accepts junk like "foo 1" (as 2001), so require the HTTP-date shape first:
  // a weekday name and a time. asctime dates carry no zone but are GMT by definition.
  if (!/^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? .*\d\d:\d\d:\d\d/i.test(value)) return null;
  const date = Date.parse(/gmt$/i.test(value) ? value : `${value} GMT`);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * How long to wait before the next attempt: exponential backoff with full jitter,
 * `random() * min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1))`. Full jitter spreads clients
 * that failed together, so they do not hammer a recovering server in lock-step.
 * A `Retry-After` is a floor (the server knows best), capped at `maxRetryAfterMs`.
 */
export function retryDelay(input: {
  /** Attempts already made, >= 1. */
  attempt: number;
  options: RetryOptions;
  retryAfterMs?: number | null;
}): number {
  const settings = withDefaults(input.options);
  // The exponent is clamped so a huge attempt count cannot overflow to Infinity (0 * Infinity is NaN).
  const exponent = Math.min(Math.max(input.attempt - 1, 0), 30);
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** exponent);
  const jittered = settings.random() * ceiling;
  const { retryAfterMs } = input;
  return retryAfterMs == null ? jittered : Math.min(settings.maxRetryAfterMs, Math.max(retryAfterMs, jittered));
}
