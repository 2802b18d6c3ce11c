import { SiteKitError, type ErrorContext } from './site-kit-error.js';
import { colon, trimmedText } from './util.js';
import { codeForStatus, statusTextFor } from './status-text.js';

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

/** `<status> <Status Text>`, or the status alone when no text is known. @internal */
export const statusLine = (status: number, statusText?: string): string => {
  const text = statusTextFor(status, statusText);
  return text ? `${status} ${text}` : `${status}`;
};

/**
 * A failed response without more specific details.
 *
 * - 4xx: code is the upper-snake status text (`404 Not Found` → `NOT_FOUND`, `429` →
 *   `TOO_MANY_REQUESTS`); message `<status> <Status Text>`, plus `: <server message>`.
 * - 5xx and any other status: code `SYSTEM_ERROR`, message `<status> <Status Text>: System error
 *   occurred`; the server's text is deliberately not shown (it is often a proxy's HTML page), but
 *   the parsed body is kept in `details` when there was one.
 *
 * The message starts with the failed call when it is known (`operation`).
 *
 * @example
 * new HttpError({ status: 404, statusText: '' }).code; // 'NOT_FOUND'
 * new HttpError({ status: 503, operation: 'getDataCollection' }).message;
 * // 'getDataCollection: 503 Service Unavailable: System error occurred'
 */
export class HttpError extends SiteKitError {
  override name = 'HttpError';
  /** Always set: the response's HTTP status. */
  // `declare`: only narrows the type of the base class's field, which its constructor sets (a
  // field declared here would be initialised again, to undefined, after super()).
  declare readonly status: number;

  constructor(init: HttpErrorInit) {
    const { status, statusText } = init;
    const isClientError = Number.isInteger(status) && status >= 400 && status < 500;
    super(
      init.message ??
        colon(
          statusLine(status, statusText),
          isClientError ? trimmedText(init.serverMessage) : 'System error occurred',
        ),
      // (The base reads only its own fields of `init`.)
      { ...init, code: init.code ?? (isClientError ? codeForStatus(status, statusText) : SYSTEM_ERROR) },
    );
  }
}
