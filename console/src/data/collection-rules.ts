/**
 * The platform's rules for collection ids and field keys, checked in the console's forms before a
 * request is sent: the emulator's own functions (`emulator/services/data/collection-names.ts`, a
 * module without imports), which check the request again. And the one list of field types every
 * form offers.
 */
import type { DataCollection, DataCollectionFieldType } from 'sitekit-sdk';

export { collectionIdProblem, fieldKeyProblem } from '../../../emulator/services/data/collection-names.js';

/** One field of a collection, as the collections API reads and writes it. */
export type CollectionField = NonNullable<DataCollection['fields']>[number];

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
