/**
 * Collection ids and field keys checked as the platform checks them: its validation error, every
 * bad key by position. The rules themselves are in `collection-names.ts`, which the console's
 * forms use too.
 */
import { validationError, type FieldViolation } from '../../errors.js';
import { collectionIdProblem, fieldKeyProblem } from './collection-names.js';
import { SYSTEM_FIELDS, type CollectionField } from './collection-store.js';

/** The collection id, checked: the platform's validation error when it is not acceptable. */
export function requireCollectionId(id: unknown): string {
  const problem = typeof id == 'string' ? collectionIdProblem(id) : 'must not be empty';
  if (problem) throw validationError([{ field: 'collection.id', description: problem, violatedRule: ruleOf(problem) }]);
  return id as string;
}

/**
 * Checks the keys of a collection's own fields (system fields aside: their definitions are the
 * emulator's), all at once: one validation error listing every bad key by its position.
 */
export function requireFieldKeys(fields: readonly CollectionField[]): void {
  const violations: FieldViolation[] = [];
  for (const [index, field] of fields.entries()) {
    if (SYSTEM_FIELDS.some((system) => system.key == field.key)) continue;
    const problem = fieldKeyProblem(typeof field.key == 'string' ? field.key : '');
    if (problem)
      violations.push({
        field: `collection.fields[${index}].key`,
        description: problem,
        violatedRule: ruleOf(problem),
      });
  }
  if (violations.length) throw validationError(violations);
}

/** The violated rule's name, as the platform's validation errors give it. */
const ruleOf = (problem: string) => (problem == 'must not be empty' ? 'REQUIRED_FIELD' : 'FORMAT');
