/**
 * sitekit errors: one class per failure kind on a shared {@link SiteKitError} base, type
 * guards that also recognise errors from another copy of the package, and the mapping from
 * a failed response to an error.
 *
 * @packageDocumentation
 */
export {
  SiteKitError,
  ValidationError,
  ApplicationError,
  HttpError,
  SYSTEM_ERROR,
  NetworkError,
  TimeoutError,
  AbortedError,
  ElevationRequiredError,
  RequestError,
  AuthError,
  type SiteKitErrorInit,
  type ErrorContext,
  type ValidationErrorInit,
  type FieldViolation,
  type ApplicationErrorInit,
  type HttpErrorInit,
  type NetworkErrorInit,
  type RequestErrorInit,
} from './classes.js';
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
} from './guards.js';
export { errorFromResponse, type ErrorResponseInput } from './from-response.js';
