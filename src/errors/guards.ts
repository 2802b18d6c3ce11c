import { AbortedError } from './aborted-error.js';
import { ApplicationError } from './application-error.js';
import { AuthError } from './auth-error.js';
import { SITEKIT_ERROR_BRAND } from './brand.js';
import { ElevationRequiredError } from './elevation-required-error.js';
import { HttpError } from './http-error.js';
import { NetworkError } from './network-error.js';
import { RequestError } from './request-error.js';
import { SiteKitError } from './site-kit-error.js';
import { TimeoutError } from './timeout-error.js';
import { ValidationError } from './validation-error.js';

// `instanceof` alone is not enough: an error thrown by another copy of sitekit (the CJS build
// next to the ESM one, or two versions in one bundle) has a different prototype. Such an
// error still carries the shared `Symbol.for` brand and its class name, so that is the
// fallback. `name` is a string literal in each class, so minifiers cannot change it.

function hasBrand(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [SITEKIT_ERROR_BRAND]?: unknown })[SITEKIT_ERROR_BRAND] === true
  );
}

function isNamed(value: unknown, name: string): boolean {
  return hasBrand(value) && (value as { name?: unknown }).name === name;
}

/**
 * True for any error thrown by sitekit, from this or another copy of the package.
 *
 * @example
 * catch (e) { if (isSiteKitError(e)) console.warn(e.code, e.requestId); }
 */
export function isSiteKitError(value: unknown): value is SiteKitError {
  return value instanceof SiteKitError || hasBrand(value);
}

/** True for a {@link ValidationError} (code `INVALID_ARGUMENT`, with `violations`). */
export function isValidationError(value: unknown): value is ValidationError {
  return value instanceof ValidationError || isNamed(value, 'ValidationError');
}

/** True for an {@link ApplicationError} (a server business error with its own code). */
export function isApplicationError(value: unknown): value is ApplicationError {
  return value instanceof ApplicationError || isNamed(value, 'ApplicationError');
}

/** True for an {@link HttpError} (a 4xx without details, or any 5xx: `SYSTEM_ERROR`). */
export function isHttpError(value: unknown): value is HttpError {
  return value instanceof HttpError || isNamed(value, 'HttpError');
}

/** True for a {@link NetworkError} (no response at all). */
export function isNetworkError(value: unknown): value is NetworkError {
  return value instanceof NetworkError || isNamed(value, 'NetworkError');
}

/** True for a {@link TimeoutError} (the client's timeout elapsed). */
export function isTimeoutError(value: unknown): value is TimeoutError {
  return value instanceof TimeoutError || isNamed(value, 'TimeoutError');
}

/** True for an {@link AbortedError} (the caller's `AbortSignal` fired). */
export function isAbortedError(value: unknown): value is AbortedError {
  return value instanceof AbortedError || isNamed(value, 'AbortedError');
}

/** True for an {@link ElevationRequiredError} (the call needs an API-key client). */
export function isElevationRequiredError(value: unknown): value is ElevationRequiredError {
  return value instanceof ElevationRequiredError || isNamed(value, 'ElevationRequiredError');
}

/** True for a {@link RequestError} (bad input caught before sending). */
export function isRequestError(value: unknown): value is RequestError {
  return value instanceof RequestError || isNamed(value, 'RequestError');
}

/** True for an {@link AuthError} (sign-in, token or OAuth failure). */
export function isAuthError(value: unknown): value is AuthError {
  return value instanceof AuthError || isNamed(value, 'AuthError');
}
