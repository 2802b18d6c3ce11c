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
  readonly violations: FieldViolation[];

  constructor(init: ValidationErrorInit) {
    // Copy before sorting: the caller's array is not ours to reorder. localeCompare depends on
    // the runtime's ICU data; `<` and `>` give one order in every engine.
    const violations = init.violations
      .map(({ field, description }) => ({ field, description }))
      .sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
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
