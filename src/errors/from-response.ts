import { ApplicationError } from './application-error.js';
import { HttpError } from './http-error.js';
import { isRecord } from './is-record.js';
import type { SiteKitError } from './site-kit-error.js';
import { codeForStatus, statusTextFor } from './status-text.js';
import { ValidationError, type FieldViolation } from './validation-error.js';

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
}

/**
 * Maps a failed response to the matching sitekit error. Never throws, whatever the body.
 *
 * - < 500 with `details.validationError.fieldViolations` → {@link ValidationError}
 * - < 500 with `details.applicationError` → {@link ApplicationError} with the server's code
 * - other 4xx → {@link HttpError} coded from the status text (`NOT_FOUND`, `CONFLICT`...)
 * - anything else (5xx, unexpected status, details or not) → {@link HttpError} `SYSTEM_ERROR`
 *
 * The request id goes on every error (and into its message); the parsed body, when it
 * parsed, is kept as `details`.
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
  const { status, statusText } = input;
  const requestId = typeof input.requestId === 'string' ? input.requestId : undefined;
  const parsed = parseJson(input.body);
  // `null` (or a non-JSON body) carries nothing worth keeping.
  const details = parsed === null ? undefined : parsed;
  const serverMessage = isRecord(parsed) ? nonEmptyString(parsed.message) : undefined;
  const context = { status, requestId, details };

  if (Number.isInteger(status) && status < 500 && isRecord(parsed) && isRecord(parsed.details)) {
    const validation = parsed.details.validationError;
    const rawViolations = isRecord(validation) ? validation.fieldViolations : undefined;
    if (Array.isArray(rawViolations) && rawViolations.length > 0) {
      return new ValidationError({
        ...context,
        violations: readViolations(rawViolations),
        message: serverMessage,
      });
    }

    // Checked on its own (not assumed from a validationError): a body with one but not the
    // other must not crash, which is exactly where the official SDK throws a TypeError.
    const application = parsed.details.applicationError;
    if (isRecord(application)) {
      const description = nonEmptyString(application.description);
      const text = statusTextFor(status, statusText);
      return new ApplicationError(serverMessage ?? description ?? text ?? `HTTP ${status}`, {
        ...context,
        code: readCode(application.code) ?? codeForStatus(status, statusText),
        description,
        data: application.data,
      });
    }
  }

  // HttpError itself tells 4xx (coded from the status text) from the rest (SYSTEM_ERROR).
  return new HttpError({ status, statusText, serverMessage, requestId, details });
}

/** Parsed JSON, or `undefined` for an empty, HTML, truncated or otherwise invalid body. */
function parseJson(body: unknown): unknown {
  if (typeof body !== 'string' || body.trim() === '') return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

// Login and registration codes such as -19971 may arrive as JSON numbers.
function readCode(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return nonEmptyString(value)?.trim();
}

/**
 * Keeps the entries that say something: an entry needs a field or a description (the other
 * may be missing, e.g. a violation of the whole request); anything else is skipped.
 */
function readViolations(raw: unknown[]): FieldViolation[] {
  const violations: FieldViolation[] = [];
  for (const entry of raw) {
    if (!isRecord(entry)) continue;
    const field = typeof entry.field === 'string' ? entry.field.trim() : '';
    const description = typeof entry.description === 'string' ? entry.description.trim() : '';
    if (field === '' && description === '') continue;
    violations.push({ field, description });
  }
  return violations;
}
