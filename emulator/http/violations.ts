/** Turns the schema validator's (ajv) errors into the platform's field violations. */
import type { FieldViolation } from '../errors.js';
import type { SchemaError } from './schema-validator.js';

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
    let field = dotted(error.instancePath);
    let description = error.message ?? 'is not valid';
    if (error.keyword == 'required') {
      field = join(field, error.params.missingProperty);
      description = 'must not be empty';
    } else if (error.keyword == 'additionalProperties') {
      field = join(field, error.params.additionalProperty);
      description = 'is not an allowed field';
    } else if (error.keyword == 'enum') {
      description = `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    }
    const violatedRule = RULES[error.keyword] ?? 'VALIDATION';
    const key = `${field}\u0000${violatedRule}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push({ field: field || 'request', description, violatedRule });
  }
  return violations;
}
