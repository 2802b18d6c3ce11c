import { SiteKitError, type ErrorContext } from './site-kit-error.js';
import { causeLine } from './util.js';

/** Options of {@link NetworkError}. */
export interface NetworkErrorInit extends ErrorContext {
  /** What `fetch` threw; required, because it is the only account of what went wrong. */
  cause: unknown;
}

/**
 * The request never got a response: DNS failure, refused connection, CORS rejection,
 * offline browser. Code `NETWORK_ERROR`; `cause` holds what `fetch` threw and the message
 * names it.
 *
 * @example
 * new NetworkError({ cause: new TypeError('Failed to fetch') }).message;
 * // 'Network request failed: TypeError: Failed to fetch'
 */
export class NetworkError extends SiteKitError {
  override name = 'NetworkError';

  constructor(init: NetworkErrorInit) {
    super(causeLine('Network request failed', init.cause), { ...init, code: 'NETWORK_ERROR' });
  }
}
