import { SiteKitError, type SiteKitErrorInit } from './site-kit-error.js';

/** Options of {@link ApplicationError}. */
export interface ApplicationErrorInit extends SiteKitErrorInit {
  /** The server's human-readable description of the error. */
  description?: string;
  /** Structured data the server attached to the error. */
  data?: unknown;
}

/**
 * A business error reported by the server (`details.applicationError`), with the server's
 * own code, e.g. `WDE0073`.
 *
 * @example
 * if (isApplicationError(e) && e.code === 'WDE0073') showNotFound();
 */
export class ApplicationError extends SiteKitError {
  override name = 'ApplicationError';
  /** The server's human-readable description. */
  readonly description?: string;
  /** Structured data the server attached to the error. */
  readonly data?: unknown;

  constructor(message: string, init: ApplicationErrorInit) {
    super(message, init);
    this.description = init.description;
    this.data = init.data;
  }
}
