import { SiteKitError, type ErrorContext } from './site-kit-error.js';
import { causeLine } from './util.js';

/**
 * The caller cancelled the request through its `AbortSignal`. Code `ABORTED`; pass the
 * signal's `reason` as `cause`.
 *
 * @example
 * if (signal.aborted) throw new AbortedError({ cause: signal.reason });
 */
export class AbortedError extends SiteKitError {
  override name = 'AbortedError';

  constructor(init: ErrorContext = {}) {
    const reason = init.cause as { name?: unknown } | undefined;
    // The default reason (a DOMException "This operation was aborted") says nothing new;
    // a reason the caller chose ("user left the page") is worth showing. (Only objects have a
    // name worth showing, so `?.name` is enough here.)
    super(causeLine('Request was aborted', reason?.name === 'AbortError' ? undefined : reason), {
      ...init,
      code: 'ABORTED',
    });
  }
}
