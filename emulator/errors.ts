/**
 * The production error shapes (validation errors with field violations, application errors with
 * codes), raised by every service module.
 * A handler throws one of these; the server's error handler turns it into the response.
 */

/** One violated field of a validation error, as the platform sends it. */
export interface FieldViolation {
  /** Dotted path of the field in the request (`collection.id`). */
  field: string;
  description: string;
  /** The platform's rule name: `REQUIRED_FIELD`, `FORMAT`, `INVALID_ENUM_VALUE`... */
  violatedRule: string;
  data?: Record<string, unknown>;
}

/** The JSON body of an error response. */
export interface ErrorBody {
  message: string;
  details: {
    validationError?: { fieldViolations: FieldViolation[] };
    applicationError?: { code: string; description: string; data?: Record<string, unknown> };
  };
}

/** An error a service raises on purpose: it carries its HTTP status and its production body. */
export class EmulatorError extends Error {
  override readonly name = 'EmulatorError';

  constructor(
    /** HTTP status of the response. */
    readonly status: number,
    /** The response body. */
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}

/** An application error (`details.applicationError`) with the platform's `code`. */
export function applicationError(
  status: number,
  code: string,
  description: string,
  data?: Record<string, unknown>,
): EmulatorError {
  return new EmulatorError(status, {
    message: description,
    details: { applicationError: data ? { code, description, data } : { code, description } },
  });
}

/** A validation error (400, `details.validationError`), its violations sorted by field as the platform sorts them. */
export function validationError(violations: FieldViolation[]): EmulatorError {
  const sorted = [...violations].sort((left, right) =>
    left.field < right.field ? -1 : left.field > right.field ? 1 : 0,
  );
  const summary = sorted.map((violation) => `${violation.field}: ${violation.description}`).join('; ');
  return new EmulatorError(400, {
    message: `INVALID_ARGUMENT: ${summary}`,
    details: { validationError: { fieldViolations: sorted } },
  });
}

/** Shorthand for a validation error naming one field. */
export function invalidField(field: string, description: string, violatedRule = 'VALIDATION'): EmulatorError {
  return validationError([{ field, description, violatedRule }]);
}

/** 401: a missing, expired or forged credential. */
export function unauthenticated(description: string): EmulatorError {
  return applicationError(401, 'UNAUTHENTICATED', description);
}

/** 403: the caller may not do this (an elevated-only route called by a visitor or member). */
export function permissionDenied(description: string): EmulatorError {
  return applicationError(403, 'PERMISSION_DENIED', description);
}
