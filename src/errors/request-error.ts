import { SiteKitError, type ErrorContext } from './site-kit-error.js';

/** Options of {@link RequestError}. */
export interface RequestErrorInit extends ErrorContext {
  /** The argument or field at fault, e.g. `collectionId` or `limit`. */
  field?: string;
}

/**
 * Bad input caught on the client before any request is sent: a missing path parameter, a
 * non-positive limit, a malformed filter. Code `INVALID_REQUEST`.
 *
 * @example
 * if (!(limit > 0)) throw new RequestError('limit must be a positive integer', { field: 'limit' });
 */
export class RequestError extends SiteKitError {
  override name = 'RequestError';
  /** The argument or field at fault, when there is one. */
  readonly field?: string;

  constructor(message: string, init?: RequestErrorInit) {
    super(message, { ...init, code: 'INVALID_REQUEST' });
    this.field = init?.field;
  }
}
