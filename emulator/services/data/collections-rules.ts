/**
 * What the platform accepts as a collection id and as a field key, and the field types a field
 * can be given (the `LEGACY_*` types and `UNKNOWN_FIELD_TYPE` are only ever returned). The
 * console checks its forms with the same rules (`console/src/data/collection-rules.ts`; a test
 * keeps both in step), so a person reads the problem before the request is sent.
 */
import { validationError, type FieldViolation } from '../../errors.js';
import { SYSTEM_FIELDS, type CollectionField } from './collection-store.js';

/**
 * A collection id: letters, digits, `_` and `-`, optionally after an app namespace and one `/`
 * (`@acme/recipes`, as app-owned collections are named). No spaces, no other punctuation: the id
 * goes into paths and queries as it is.
 */
const COLLECTION_ID = /^(@?[A-Za-z0-9_-]+\/)?[A-Za-z0-9_-]+$/;
const COLLECTION_ID_MAX = 256;

/** A field key: a letter, then letters, digits and `_` (a leading `_` is for system fields). */
const FIELD_KEY = /^[A-Za-z][A-Za-z0-9_]*$/;
const FIELD_KEY_MAX = 64;

/** Why `id` is not a collection id the platform accepts, or `undefined` when it is one. */
export function collectionIdProblem(id: string): string | undefined {
  if (!id) return 'must not be empty';
  if (id.length > COLLECTION_ID_MAX) return `must be at most ${COLLECTION_ID_MAX} characters`;
  if (!COLLECTION_ID.test(id))
    return 'may hold only letters, digits, "_" and "-" (optionally after an app namespace and one "/"), no spaces';
  return undefined;
}

/** Why `key` is not a field key the platform accepts, or `undefined` when it is one. */
export function fieldKeyProblem(key: string): string | undefined {
  if (!key) return 'must not be empty';
  if (key.length > FIELD_KEY_MAX) return `must be at most ${FIELD_KEY_MAX} characters`;
  if (key.startsWith('_')) return 'must not start with "_" (reserved for system fields)';
  if (!FIELD_KEY.test(key)) return 'must start with a letter and hold only letters, digits and "_"';
  return undefined;
}

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
