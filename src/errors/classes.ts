/**
 * The error classes: one per failure kind, on a shared {@link SiteKitError} base. (One module:
 * in a bundle every module costs its own wrapper.)
 */
import { codeForStatus, statusTextFor } from './status-text.js';
import { BRAND, causeLine, colon, str, toOneLine } from './util.js';

/**
 * What every sitekit error carries besides its message.
 */
export interface SiteKitErrorInit {
  /** Stable, machine-readable code, e.g. `INVALID_ARGUMENT`, `NOT_FOUND`, `WDE0073`. */
  code: string;
  /** HTTP status of the response that caused the error, when there was one. */
  status?: number;
  /** The server's request id (`x-wix-request-id`), when known; quote it in support requests. */
  requestId?: string;
  /** Extra structured data, typically the parsed error body. */
  details?: unknown;
  /** The underlying error, e.g. the `TypeError` thrown by `fetch`. */
  cause?: unknown;
}

/**
 * The context fields of {@link SiteKitErrorInit}, for subclasses whose code is fixed.
 */
export type ErrorContext = Omit<SiteKitErrorInit, 'code'>;

/**
 * Base class of every error a sitekit call rejects with.
 *
 * The message is always a single readable line (at most ~300 characters), never a JSON
 * dump, and ends with ` (request id: <id>)` when the server's request id is known.
 * Branch on `code` or on the `isX()` guards rather than on the message.
 *
 * @example
 * try {
 *   await client.items.get('todos', id);
 * } catch (e) {
 *   if (isSiteKitError(e) && e.code === 'NOT_FOUND') return undefined;
 *   throw e;
 * }
 */
export class SiteKitError extends Error {
  override name = 'SiteKitError';
  // The fields are `declare`d and assigned in the constructor (same own keys, same order as
  // initialised fields, without the extra field definitions in the output).
  /** Stable, machine-readable code. */
  declare readonly code: string;
  /** HTTP status, when the error came from a response. */
  declare readonly status?: number;
  /** The server's request id, when known. */
  declare readonly requestId?: string;
  /** Extra structured data, typically the parsed error body. */
  declare readonly details?: unknown;

  constructor(message: string, init: SiteKitErrorInit) {
    // A blank or non-string request id counts as unknown.
    // (`str` gives '' for a non-string; its trim changes nothing `toOneLine` would not.)
    const requestId = toOneLine(str(init.requestId), 200) || undefined;
    const suffix = requestId ? ` (request id: ${requestId})` : '';
    const flat = toOneLine(str(message), Infinity);
    super(
      // A message re-wrapped from another sitekit error may already carry the suffix; strip it
      // before capping so the id is appended exactly once and never lost to the cap.
      (toOneLine(requestId ? flat.replaceAll(suffix.trim(), ' ') : flat) || init.code) + suffix,
      init.cause === undefined ? undefined : { cause: init.cause },
    );
    // Keeps `instanceof` working when this class is down-levelled to ES5 by a consumer's
    // bundler, where extending built-ins loses the subclass prototype.
    Object.setPrototypeOf(this, new.target.prototype);
    // Non-enumerable so it stays out of logs, spreads and equality checks.
    Object.defineProperty(this, BRAND, { value: true });
    this.code = init.code;
    this.status = init.status;
    this.requestId = requestId;
    this.details = init.details;
  }
}

/** One rejected field of a request, as reported by the server. */
export interface FieldViolation {
  /** Path of the offending field, e.g. `collection.id`. */
  field: string;
  /** What is wrong with it, e.g. `must not be empty`. */
  description: string;
}

/** Options of {@link ValidationError}. */
export interface ValidationErrorInit extends ErrorContext {
  /** The server's field violations; any order. */
  violations: readonly FieldViolation[];
  /** Message to use when there are no violations (the server's own message). */
  message?: string;
}

const INVALID_ARGUMENT = 'INVALID_ARGUMENT';

/**
 * The server rejected the request's content (code `INVALID_ARGUMENT`), listing one
 * violation per offending field, sorted by field.
 *
 * @example
 * if (isValidationError(e)) {
 *   for (const v of e.violations) form.setError(v.field, v.description);
 * }
 */
export class ValidationError extends SiteKitError {
  override name = 'ValidationError';
  /** Violations sorted by `field` (plain code-unit order, so it is the same everywhere). */
  declare readonly violations: FieldViolation[];

  constructor(init: ValidationErrorInit) {
    // Copy before sorting: the caller's array is not ours to reorder. localeCompare depends on
    // the runtime's ICU data; `<` and `>` give one order in every engine.
    const violations = init.violations
      .map(({ field, description }) => ({ field, description }))
      .sort((a, b) => +(a.field > b.field) || -(a.field < b.field));
    super(
      // Without violations: the server's message, else (blank) the code.
      violations.length
        ? `${INVALID_ARGUMENT}: ${violations.map((v) => (v.field === '' ? v.description : `${v.field}: ${v.description}`)).join(', ')}`
        : (init.message as string),
      { ...init, code: INVALID_ARGUMENT },
    );
    this.violations = violations;
  }
}

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
  declare readonly description?: string;
  /** Structured data the server attached to the error. */
  declare readonly data?: unknown;

  constructor(message: string, init: ApplicationErrorInit) {
    super(message, init);
    this.description = init.description;
    this.data = init.data;
  }
}

/** Options of {@link HttpError}. */
export interface HttpErrorInit extends ErrorContext {
  /** The response's HTTP status. */
  status: number;
  /** The response's status text; may be empty (HTTP/2), then a built-in table is used. */
  statusText?: string;
  /** The `message` string of the response body, if any; shown after the status on 4xx. */
  serverMessage?: string;
  /** Replaces the derived message, for cases the status alone does not explain. */
  message?: string;
  /** Replaces the derived code. */
  code?: string;
}

/** Code of every 5xx (and otherwise unexpected) response. */
export const SYSTEM_ERROR = 'SYSTEM_ERROR';

/**
 * A failed response without more specific details.
 *
 * - 4xx: code is the upper-snake status text (`404 Not Found` → `NOT_FOUND`, `429` →
 *   `TOO_MANY_REQUESTS`); message `<status> <Status Text>`, plus `: <server message>`.
 * - 5xx and any other status: code `SYSTEM_ERROR`, message `System error occurred`; the
 *   server's text is deliberately not shown (it is often a proxy's HTML page), but the
 *   parsed body is kept in `details` when there was one.
 *
 * @example
 * new HttpError({ status: 404, statusText: '' }).code; // 'NOT_FOUND'
 * new HttpError({ status: 503 }).message;              // 'System error occurred'
 */
export class HttpError extends SiteKitError {
  override name = 'HttpError';
  /** Always set: the response's HTTP status. */
  declare readonly status: number;

  constructor(init: HttpErrorInit) {
    const { status, statusText } = init;
    const text = statusTextFor(status, statusText);
    const isClientError = Number.isInteger(status) && status > 399 && status < 500;
    super(
      init.message ??
        (isClientError ? colon(text ? `${status} ${text}` : `${status}`, str(init.serverMessage)) : 'System error occurred'),
      // (The base reads only its own fields of `init`.)
      { ...init, code: init.code ?? (isClientError ? codeForStatus(status, statusText) : SYSTEM_ERROR) },
    );
  }
}

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

/**
 * The request took longer than the client's timeout and was cancelled. Code `TIMEOUT`.
 * Distinct from {@link AbortedError}, which means the caller cancelled it.
 *
 * @example
 * new TimeoutError(30000).message; // 'Request timed out after 30000 ms'
 */
export class TimeoutError extends SiteKitError {
  override name = 'TimeoutError';
  /** The timeout that elapsed, in milliseconds. */
  declare readonly timeoutMs: number;

  constructor(timeoutMs: number, init?: ErrorContext) {
    super(`Request timed out after ${timeoutMs} ms`, { ...init, code: 'TIMEOUT' });
    this.timeoutMs = timeoutMs;
  }
}

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
    const reason = init.cause as { name?: unknown } | undefined;
    // The default reason (a DOMException "This operation was aborted") says nothing new;
    // a reason the caller chose ("user left the page") is worth showing. (Only objects have a
    // name worth showing, so `?.name` is enough here.)
    super(causeLine('Request was aborted', reason?.name === 'AbortError' ? undefined : reason), {
      ...init,
      code: 'ABORTED',
    });
  }
}

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
  declare readonly operation: string;

  constructor(operation: string, init?: ErrorContext) {
    super(`${operation} requires an elevated client (ApiKeyStrategy)`, { ...init, code: 'ELEVATION_REQUIRED' });
    this.operation = operation;
  }
}

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
  declare readonly field?: string;

  constructor(message: string, init?: RequestErrorInit) {
    super(message, { ...init, code: 'INVALID_REQUEST' });
    this.field = init?.field;
  }
}

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
