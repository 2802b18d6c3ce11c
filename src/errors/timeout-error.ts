import { SiteKitError, type ErrorContext } from './site-kit-error.js';

/**
 * The request took longer than its time limit and was cancelled: the client's or the call's
 * `timeoutMs`, the per-attempt limit, or a caller's `AbortSignal.timeout()`. Code `TIMEOUT`.
 * Distinct from {@link AbortedError}, which means the caller cancelled it.
 *
 * @example
 * new TimeoutError(30000).message; // 'Request timed out after 30000 ms'
 */
export class TimeoutError extends SiteKitError {
  override name = 'TimeoutError';
  /** The time limit that elapsed, in milliseconds; undefined for a caller's own timed signal. */
  readonly timeoutMs: number | undefined;

  constructor(timeoutMs: number | undefined, init?: ErrorContext) {
    super(timeoutMs === undefined ? 'Request timed out' : `Request timed out after ${timeoutMs} ms`, {
      ...init,
      code: 'TIMEOUT',
    });
    this.timeoutMs = timeoutMs;
  }
}
