import { SiteKitError } from './site-kit-error.js';

/**
 * A sign-in, token or OAuth failure raised by the auth module, with a code naming the case
 * (e.g. `OAUTH_TIMEOUT`) and the documented message (e.g. `OAuth flow timed out`).
 * Takes the same arguments as {@link SiteKitError}: the code is the caller's.
 *
 * @example
 * throw new AuthError('OAuth flow timed out', { code: 'OAUTH_TIMEOUT' });
 */
export class AuthError extends SiteKitError {
  override name = 'AuthError';
}
