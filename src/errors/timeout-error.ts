import { SiteKitError, type ErrorContext } from './site-kit-error.js';

/**
 * The request took longer than the client's timeout and was cancelled. Code `TIMEOUT`.
 * Distinct from {@link AbortedError}, which means the caller cancelled it.
 *
 * @example
 * new TimeoutError(30000).message; // 'Request timed out after 30000 ms'
 */
export class TimeoutError extends SiteKitError {
  override name = 'TimeoutError';
  /** The timeout that elapsed, in milliseconds. */
  declare readonly timeoutMs: number;

  constructor(timeoutMs: number, init?: ErrorContext) {
    super(`Request timed out after ${timeoutMs} ms`, { ...init, code: 'TIMEOUT' });
    this.timeoutMs = timeoutMs;
  }
}
