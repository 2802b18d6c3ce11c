import { SiteKitError, type ErrorContext } from './site-kit-error.js';

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
  readonly violations: FieldViolation[];

  constructor(init: ValidationErrorInit) {
    // Copy before sorting: the caller's array is not ours to reorder.
    const violations = init.violations
      .map((v) => ({ field: v.field, description: v.description }))
      .sort(byField);
    super(validationMessage(violations, init.message), {
      code: 'INVALID_ARGUMENT',
      status: init.status,
      requestId: init.requestId,
      details: init.details,
      cause: init.cause,
    });
    this.violations = violations;
  }
}

// localeCompare depends on the runtime's ICU data; `<` gives one order in every engine.
function byField(a: FieldViolation, b: FieldViolation): number {
  if (a.field < b.field) return -1;
  if (a.field > b.field) return 1;
  return 0;
}

function validationMessage(violations: FieldViolation[], fallback: string | undefined): string {
  if (violations.length === 0) return fallback?.trim() ? fallback : 'INVALID_ARGUMENT';
  const list = violations
    .map((v) => (v.field === '' ? v.description : `${v.field}: ${v.description}`))
    .join(', ');
  return `INVALID_ARGUMENT: ${list}`;
}
