import { AbortedError } from './aborted-error.js';
import { ApplicationError } from './application-error.js';
import { AuthError } from './auth-error.js';
import { ElevationRequiredError } from './elevation-required-error.js';
import { HttpError } from './http-error.js';
import { NetworkError } from './network-error.js';
import { RequestError } from './request-error.js';
import { SiteKitError } from './site-kit-error.js';
import { TimeoutError } from './timeout-error.js';
import { ValidationError } from './validation-error.js';
import { WebhookError } from './webhook-error.js';
import { BRAND } from './util.js';

// `instanceof` alone is not enough: an error thrown by another copy of sitekit (the CJS build
// next to the ESM one, or two versions in one bundle) has a different prototype. Such an
// error still carries the shared `Symbol.for` brand and its class name, so that is the
// fallback. The names are passed as string literals (as each class's `name` is), so
// minifiers cannot change them.
const guard =
  <T>(Class: new (...args: never[]) => T, name?: string) =>
  (value: unknown): value is T =>
    value instanceof Class ||
    (typeof value == 'object' &&
      (value as { [BRAND]?: unknown } | null)?.[BRAND] === true &&
      (!name || (value as { name?: unknown }).name === name));

/**
 * True for any error thrown by sitekit, from this or another copy of the package.
 *
 * @example
 * catch (e) { if (isSiteKitError(e)) console.warn(e.code, e.requestId); }
 */
export const isSiteKitError = /* @__PURE__ */ guard(SiteKitError);

/** True for a {@link ValidationError} (code `INVALID_ARGUMENT`, with `violations`). */
export const isValidationError = /* @__PURE__ */ guard(ValidationError, 'ValidationError');

/** True for an {@link ApplicationError} (a server business error with its own code). */
export const isApplicationError = /* @__PURE__ */ guard(ApplicationError, 'ApplicationError');

/** True for an {@link HttpError} (a 4xx without details, or any 5xx: `SYSTEM_ERROR`). */
export const isHttpError = /* @__PURE__ */ guard(HttpError, 'HttpError');

/** True for a {@link NetworkError} (no response at all). */
export const isNetworkError = /* @__PURE__ */ guard(NetworkError, 'NetworkError');

/** True for a {@link TimeoutError} (the client's timeout elapsed). */
export const isTimeoutError = /* @__PURE__ */ guard(TimeoutError, 'TimeoutError');

/** True for an {@link AbortedError} (the caller's `AbortSignal` fired). */
export const isAbortedError = /* @__PURE__ */ guard(AbortedError, 'AbortedError');

/** True for an {@link ElevationRequiredError} (the call needs an API-key client). */
export const isElevationRequiredError = /* @__PURE__ */ guard(ElevationRequiredError, 'ElevationRequiredError');

/** True for a {@link RequestError} (bad input caught before sending). */
export const isRequestError = /* @__PURE__ */ guard(RequestError, 'RequestError');

/** True for an {@link AuthError} (sign-in, token or OAuth failure). */
export const isAuthError = /* @__PURE__ */ guard(AuthError, 'AuthError');

/**
 * True for a {@link WebhookError}: a domain event that `client.webhooks.process` refused.
 *
 * @example
 * catch (e) { if (isWebhookError(e) && e.code === 'EXPIRED') console.warn('stale event'); }
 */
export const isWebhookError = /* @__PURE__ */ guard(WebhookError, 'WebhookError');
