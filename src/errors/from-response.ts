import { ApplicationError } from './application-error.js';
import { HttpError, statusLine, SYSTEM_ERROR } from './http-error.js';
import type { SiteKitError } from './site-kit-error.js';
import { ValidationError, type FieldViolation } from './validation-error.js';
import { codeForStatus } from './status-text.js';
import { colon, isRecord, trimmedText } from './util.js';

/** A failed response, already read: what {@link errorFromResponse} needs. */
export interface ErrorResponseInput {
  /** HTTP status. */
  status: number;
  /** The response's status text; often empty (HTTP/2). */
  statusText?: string;
  /** The response body as text; may be empty, HTML or truncated. */
  body: string;
  /** The `x-wix-request-id` response header, if present. */
  requestId?: string | null;
  /** The call that failed (`getDataCollection`, `GET /path`): the message starts with it. */
  operation?: string;
  /** The response's `Retry-After`, in milliseconds, if it had one. */
  retryAfterMs?: number | null;
}

/** `value` itself when it is a string with something besides whitespace. */
const nonEmpty = (value: unknown): string | undefined => (trimmedText(value) ? (value as string) : undefined);

/**
 * Maps a failed response to the matching sitekit error. Never throws, whatever the body.
 *
 * - < 500 with `details.validationError.fieldViolations` → {@link ValidationError}
 * - any status with `details.applicationError` → {@link ApplicationError} with the server's
 *   code, message and description: `getDataCollection: 403 Forbidden (WDE0027: <message>)`
 * - other 4xx → {@link HttpError} coded from the status text (`NOT_FOUND`, `CONFLICT`...)
 * - anything else (5xx, unexpected status) → {@link HttpError} `SYSTEM_ERROR`
 *
 * The request id and the operation go on every error (and into its message), so does the
 * `Retry-After`; the parsed body, when it parsed, is kept as `details`.
 *
 * @example
 * const error = errorFromResponse({
 *   status: res.status,
 *   statusText: res.statusText,
 *   body: await res.text(),
 *   requestId: res.headers.get('x-wix-request-id'),
 * });
 */
export function errorFromResponse(input: ErrorResponseInput): SiteKitError {
  const { status, statusText, body } = input;
  // Any JSON value, or undefined for an empty, HTML, truncated or otherwise invalid body. The
  // optional chains below read it without trusting its shape: on a JSON value that is not an
  // object (string, number, boolean, array) every property read here is undefined.
  let parsed: any;
  try {
    parsed = typeof body == 'string' ? JSON.parse(body) : undefined;
  } catch {
    // not JSON
  }
  const serverMessage = nonEmpty(parsed?.message);
  const context = {
    status,
    // SiteKitError keeps a string request id only (`null`: unknown).
    requestId: input.requestId as string | undefined,
    // `null` (or a non-JSON body) carries nothing worth keeping.
    details: parsed ?? undefined,
    operation: input.operation,
    retryAfterMs: input.retryAfterMs ?? undefined,
  };
  const problem = parsed?.details;

  if (Number.isInteger(status) && status < 500) {
    const violations = problem?.validationError?.fieldViolations;
    if (Array.isArray(violations) && violations.length) {
      return new ValidationError({ ...context, violations: readViolations(violations), message: serverMessage });
    }
  }

  // Checked on its own (not assumed from a validationError): a body with one but not the other
  // must not crash, which is exactly where the official SDK throws a TypeError. A 5xx may carry
  // one too: the server's code and message say more than "system error".
  const application = problem?.applicationError;
  if (isRecord(application)) {
    const description = nonEmpty(application.description);
    // Login and registration codes such as -19971 may arrive as JSON numbers.
    const code =
      (Number.isFinite(application.code) ? `${application.code}` : trimmedText(application.code)) ||
      (status >= 500 ? SYSTEM_ERROR : codeForStatus(status, statusText));
    const said = [serverMessage, description !== serverMessage ? description : undefined].filter(Boolean).join('; ');
    return new ApplicationError(`${statusLine(status, statusText)} (${colon(code, said)})`, {
      ...context,
      code,
      description,
      data: application.data,
    });
  }

  // HttpError itself tells 4xx (coded from the status text) from the rest (SYSTEM_ERROR).
  return new HttpError({ ...context, statusText, serverMessage });
}

/**
 * Keeps the entries that say something: an entry needs a field or a description (the other
 * may be missing, e.g. a violation of the whole request); anything else is skipped.
 */
const readViolations = (raw: any[]): FieldViolation[] =>
  raw.flatMap((entry) => {
    const field = trimmedText(entry?.field);
    const description = trimmedText(entry?.description);
    return field || description ? [{ field, description }] : [];
  });
