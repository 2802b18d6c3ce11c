import { BRAND, trimmedText, toOneLine } from './util.js';

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
  /** The call that failed (an operation such as `getDataCollection`, or `GET /path`); the message starts with it. */
  operation?: string;
  /** How long the server asked the caller to wait before trying again (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
}

/**
 * The context fields of {@link SiteKitErrorInit}, for subclasses whose code is fixed.
 */
export type ErrorContext = Omit<SiteKitErrorInit, 'code'>;

/**
 * Base class of every error a sitekit call rejects with.
 *
 * The message is always a single readable line (at most ~300 characters), never a JSON
 * dump; it starts with the failed call (`getDataCollection: ...`) when known, and ends with
 * ` (request id: <id>)` when the server's request id is known.
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
  /** Stable, machine-readable code. */
  readonly code: string;
  /** HTTP status, when the error came from a response. */
  readonly status?: number;
  /** The server's request id, when known. */
  readonly requestId?: string;
  /** Extra structured data, typically the parsed error body. */
  readonly details?: unknown;
  /** The call that failed, e.g. `getDataCollection`, when known. */
  readonly operation?: string;
  /** The server's `Retry-After`, in milliseconds, when it sent one: wait that long before trying again. */
  readonly retryAfterMs?: number;

  constructor(message: string, init: SiteKitErrorInit) {
    // A blank or non-string request id counts as unknown.
    // (`trimmedText` gives '' for a non-string; its trim changes nothing `toOneLine` would not.)
    const requestId = toOneLine(trimmedText(init.requestId), 200) || undefined;
    const suffix = requestId ? ` (request id: ${requestId})` : '';
    const operation = trimmedText(init.operation) || undefined;
    const own = toOneLine(trimmedText(message), Infinity);
    // The call's name leads the message, once (a message re-wrapped from another error may have it).
    const flat = operation && !own.startsWith(`${operation}: `) ? `${operation}: ${own || init.code}` : own;
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
    this.operation = operation;
    this.retryAfterMs = init.retryAfterMs;
  }
}
