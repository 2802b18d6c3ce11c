/**
 * What the platform accepts as a collection id and as a field key. No imports: the emulator checks
 * requests with these (`collections-rules.ts`) and the console checks its forms with the same
 * functions (`console/src/data/collection-rules.ts`), so a person reads the problem before the
 * request is sent and the two never drift apart.
 */

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
