/**
 * sitekit errors: one class per failure kind on a shared {@link SiteKitError} base, type
 * guards that also recognise errors from another copy of the package, and the mapping from
 * a failed response to an error.
 *
 * @packageDocumentation
 */
export { SiteKitError, type SiteKitErrorInit, type ErrorContext } from './site-kit-error.js';
export { ValidationError, type ValidationErrorInit, type FieldViolation } from './validation-error.js';
export { ApplicationError, type ApplicationErrorInit } from './application-error.js';
export { HttpError, SYSTEM_ERROR, type HttpErrorInit } from './http-error.js';
export { NetworkError, type NetworkErrorInit } from './network-error.js';
export { TimeoutError } from './timeout-error.js';
export { AbortedError } from './aborted-error.js';
export { ElevationRequiredError } from './elevation-required-error.js';
export { RequestError, type RequestErrorInit } from './request-error.js';
export { AuthError } from './auth-error.js';
export { WebhookError, type WebhookErrorCode } from './webhook-error.js';
export {
  isSiteKitError,
  isValidationError,
  isApplicationError,
  isHttpError,
  isNetworkError,
  isTimeoutError,
  isAbortedError,
  isElevationRequiredError,
  isRequestError,
  isAuthError,
  isWebhookError,
} from './guards.js';
export { errorFromResponse, type ErrorResponseInput } from './from-response.js';
