/** Turns the schema validator's (ajv) errors into the platform's field violations. */
import type { FieldViolation } from '../errors.js';
import { nearestNames } from '../nearest-names.js';
import type { SchemaError } from './schema-validator.js';

/** Longer lists of allowed values are not written out whole: the nearest ones are named instead. */
const LISTED_VALUES = 12;

/** `; nearest: a, b, c` when there are names to suggest. */
const nearest = (name: string, candidates: readonly string[]): string =>
  candidates.length ? ` (nearest: ${nearestNames(name, candidates).join(', ')})` : '';

/** The description of an `enum` refusal: the allowed values, or the nearest of many. */
function enumDescription(error: SchemaError): string {
  const allowed = (error.params.allowedValues as unknown[]).map(String);
  if (allowed.length <= LISTED_VALUES) return `must be one of ${allowed.join(', ')}`;
  return `is not one of the ${allowed.length} names it may be${nearest(String(error.data), allowed)}`;
}

const RULES: Record<string, string> = {
  required: 'REQUIRED_FIELD',
  type: 'VALIDATION',
  enum: 'INVALID_ENUM_VALUE',
  const: 'INVALID_ENUM_VALUE',
  format: 'FORMAT',
  minimum: 'MIN',
  exclusiveMinimum: 'MIN',
  maximum: 'MAX',
  exclusiveMaximum: 'MAX',
  minLength: 'MIN_LENGTH',
  maxLength: 'MAX_LENGTH',
  minItems: 'MIN_SIZE',
  maxItems: 'MAX_SIZE',
  additionalProperties: 'FIELD_NOT_ALLOWED',
  oneOf: 'ONE_OF_ALIGNMENT',
  anyOf: 'ONE_OF_ALIGNMENT',
  pattern: 'FORMAT',
};

/** `/query/paging/limit` → `query.paging.limit`; array positions stay as numbers (`dataItems.0.id`). */
export const dotted = (instancePath: string): string =>
  instancePath
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

const join = (parent: string, child: unknown): string => (parent ? `${parent}.${String(child)}` : String(child));

/** One violation per distinct field and rule, as the platform reports them. */
export function fieldViolations(errors: readonly SchemaError[]): FieldViolation[] {
  const seen = new Set<string>();
  const violations: FieldViolation[] = [];
  for (const error of errors) {
    // An `if` only says which `then` failed; that failure is reported itself.
    if (error.keyword == 'if') continue;
    let field = dotted(error.instancePath);
    let description = error.message ?? 'is not valid';
    if (error.keyword == 'required') {
      field = join(field, error.params.missingProperty);
      description = 'must not be empty';
    } else if (error.keyword == 'additionalProperties') {
      const unknown = String(error.params.additionalProperty);
      field = join(field, unknown);
      description = `is not an allowed field${nearest(unknown, Object.keys(error.parentSchema?.properties ?? {}))}`;
    } else if (error.keyword == 'enum') {
      description = enumDescription(error);
    }
    const violatedRule = RULES[error.keyword] ?? 'VALIDATION';
    const key = `${field}\u0000${violatedRule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push({ field: field || 'request', description, violatedRule });
  }
  return violations;
}
