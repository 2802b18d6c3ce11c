import { describeCause } from './describe-cause.js';
import { isRecord } from './is-record.js';
import { SiteKitError, type ErrorContext } from './site-kit-error.js';

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
    super(abortMessage(init.cause), { ...init, code: 'ABORTED' });
  }
}

function abortMessage(reason: unknown): string {
  // The default reason (a DOMException "This operation was aborted") says nothing new;
  // a reason the caller chose ("user left the page") is worth showing.
  const isDefault = isRecord(reason) && reason.name === 'AbortError';
  const what = isDefault ? undefined : describeCause(reason);
  return what === undefined ? 'Request was aborted' : `Request was aborted: ${what}`;
}
