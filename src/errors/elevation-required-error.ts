import { SiteKitError, type ErrorContext } from './site-kit-error.js';

/**
 * The operation is only allowed with an elevated (API-key) client, and this client signs in
 * visitors or members. Thrown before any request is sent. Code `ELEVATION_REQUIRED`.
 *
 * @example
 * new ElevationRequiredError('collections.create').message;
 * // 'collections.create requires an elevated client (ApiKeyStrategy)'
 */
export class ElevationRequiredError extends SiteKitError {
  override name = 'ElevationRequiredError';
  /** The operation that was refused, e.g. `collections.create`. */
  // `declare`: only narrows the type of the base class's field, which its constructor sets (a
  // field declared here would be initialised again, to undefined, after super()).
  declare readonly operation: string;

  constructor(operation: string, init?: ErrorContext) {
    super(`${operation} requires an elevated client (ApiKeyStrategy)`, { ...init, code: 'ELEVATION_REQUIRED' });
    this.operation = operation;
  }
}
