/**
 * The platform's rules for collection ids and field keys, checked in the console's forms before a
 * request is sent (the emulator checks them again: `emulator/services/data/collections-rules.ts`,
 * kept in step with this file by a test; the emulator's code stays out of the console's bundle),
 * and the one list of field types every form offers.
 */
import type { DataCollection, DataCollectionFieldType } from 'sitekit-sdk';

/** One field of a collection, as the collections API reads and writes it. */
export type CollectionField = NonNullable<DataCollection['fields']>[number];

const COLLECTION_ID = /^(@?[A-Za-z0-9_-]+\/)?[A-Za-z0-9_-]+$/;
const COLLECTION_ID_MAX = 256;
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

/**
 * Every field type a field can be given (the platform's `LEGACY_*` types and
 * `UNKNOWN_FIELD_TYPE` are only ever returned), the common ones first.
 */
export const fieldTypes: readonly DataCollectionFieldType[] = [
  'TEXT',
  'NUMBER',
  'BOOLEAN',
  'DATE',
  'DATETIME',
  'TIME',
  'IMAGE',
  'URL',
  'RICH_TEXT',
  'RICH_CONTENT',
  'REFERENCE',
  'MULTI_REFERENCE',
  'ARRAY_STRING',
  'ARRAY',
  'ARRAY_DOCUMENT',
  'OBJECT',
  'DOCUMENT',
  'VIDEO',
  'AUDIO',
  'MEDIA_GALLERY',
  'ADDRESS',
  'PAGE_LINK',
  'LANGUAGE',
  'ANY',
];

/** Whether a field of `type` points at another collection (and so needs its id). */
export const isReferenceType = (type: DataCollectionFieldType): boolean =>
  type === 'REFERENCE' || type === 'MULTI_REFERENCE';
