/**
 * Item references. A REFERENCE field holds the referenced item's id in the item's data; a
 * MULTI_REFERENCE field lives in `item_references` (ordered), and is returned only when the
 * query includes it (`includeReferences`), as the platform does.
 */
import { invalidField } from '../../../errors.js';
import type { Caller } from '../../../service.js';
import type { Store } from '../../../store/store.js';
import { fieldOf, findCollection, type Collection } from '../collection-store.js';
import { findItem, type ItemData } from './item-store.js';
import { permittedScope, type Scope } from './permissions.js';

/** A reference field of a collection. */
export interface ReferenceField {
  key: string;
  kind: 'single' | 'multi';
  /** The collection the referenced items live in. */
  targetCollectionId: string;
}

/** The reference field `key` of `collection`, if it is one. */
function findReferenceField(collection: Collection, key: string): ReferenceField | undefined {
  const field = fieldOf(collection, key);
  if (field?.type == 'REFERENCE')
    return {
      key,
      kind: 'single',
      targetCollectionId: field.typeMetadata?.reference?.referencedCollectionId ?? collection.id,
    };
  if (field?.type == 'MULTI_REFERENCE')
    return {
      key,
      kind: 'multi',
      targetCollectionId: field.typeMetadata?.multiReference?.referencedCollectionId ?? collection.id,
    };
  return undefined;
}

/** The reference field `key`, or a validation error naming `requestField`. */
export function requireReferenceField(collection: Collection, key: string, requestField: string): ReferenceField {
  const field = findReferenceField(collection, key);
  if (!field) throw invalidField(requestField, `${key} is not a reference field of the ${collection.id} collection`);
  return field;
}

/** The referenced ids of a multi-reference field, in order. */
export function referencedIds(store: Store, collectionId: string, field: string, referringId: string): string[] {
  return store
    .all<{ referenced_id: string }>(
      'SELECT referenced_id FROM item_references WHERE collection_id = ? AND field = ? AND referring_id = ? ORDER BY position, referenced_id',
      [collectionId, field, referringId],
    )
    .map((row) => row.referenced_id);
}

/** Adds a multi-reference (at the end); false when it was there already. */
export function addReference(
  store: Store,
  collectionId: string,
  field: string,
  referringId: string,
  referencedId: string,
): boolean {
  const next = store.get<{ position: number }>(
    'SELECT COALESCE(MAX(position), -1) + 1 AS position FROM item_references WHERE collection_id = ? AND field = ? AND referring_id = ?',
    [collectionId, field, referringId],
  )!.position;
  return (
    store.run(
      'INSERT OR IGNORE INTO item_references (collection_id, field, referring_id, referenced_id, position) VALUES (?, ?, ?, ?, ?)',
      [collectionId, field, referringId, referencedId, next],
    ).changes > 0
  );
}

/** Removes a multi-reference; false when there was none. */
export function dropReference(
  store: Store,
  collectionId: string,
  field: string,
  referringId: string,
  referencedId: string,
): boolean {
  return (
    store.run(
      'DELETE FROM item_references WHERE collection_id = ? AND field = ? AND referring_id = ? AND referenced_id = ?',
      [collectionId, field, referringId, referencedId],
    ).changes > 0
  );
}

/** Replaces all references of a multi-reference field, keeping the given order. */
export function setReferences(
  store: Store,
  collectionId: string,
  field: string,
  referringId: string,
  ids: readonly string[],
): void {
  store.run('DELETE FROM item_references WHERE collection_id = ? AND field = ? AND referring_id = ?', [
    collectionId,
    field,
    referringId,
  ]);
  for (const [position, id] of [...new Set(ids)].entries())
    store.run(
      'INSERT INTO item_references (collection_id, field, referring_id, referenced_id, position) VALUES (?, ?, ?, ?, ?)',
      [collectionId, field, referringId, id, position],
    );
}

/** The id a reference value stands for: the id itself, or an item's `_id`. */
function referenceId(value: unknown, at: string): string {
  const id = typeof value == 'object' && value !== null ? (value as { _id?: unknown })._id : value;
  if (typeof id != 'string' || !id) throw invalidField(at, 'must be an item id or an item with an _id', 'VALIDATION');
  return id;
}

const isReferenceField = (field: { type: string }) => field.type == 'REFERENCE' || field.type == 'MULTI_REFERENCE';

/**
 * Splits reference values out of written data: single references are stored as ids, multi
 * references are returned for `item_references` (and removed from the data). The data is returned
 * as it is when there is nothing to split.
 */
export function splitReferences(
  collection: Collection,
  data: Record<string, unknown>,
  at: string,
): { data: Record<string, unknown>; multi: Map<string, string[]> } {
  const multi = new Map<string, string[]>();
  // Most collections have no reference field: nothing to split, no copy (a bulk insert asks per item).
  if (!collection.fields.some(isReferenceField)) return { data, multi };
  const result = { ...data };
  for (const [key, value] of Object.entries(data)) {
    const field = findReferenceField(collection, key);
    if (!field || value === null || value === undefined) continue;
    if (field.kind == 'single') result[key] = referenceId(value, `${at}.${key}`);
    else {
      if (!Array.isArray(value))
        throw invalidField(`${at}.${key}`, 'must be an array of item ids or items', 'VALIDATION');
      multi.set(
        key,
        value.map((entry, index) => referenceId(entry, `${at}.${key}.${index}`)),
      );
      delete result[key];
    }
  }
  return { data: result, multi };
}

/** A reference field a read returns in full, and at most how many referenced items per item. */
export interface IncludedReference {
  field: string;
  limit: number;
}

/** Referenced items returned per item and included field when the request gives no `limit` (as on the platform). */
export const INCLUDE_LIMIT = 50;

/**
 * The fields named by `includeReferences` (`{field, limit?}` objects as real clients send them,
 * or bare field names), each with its limit.
 */
export function includedReferences(includeReferences: unknown): IncludedReference[] {
  if (includeReferences === undefined || includeReferences === null) return [];
  if (!Array.isArray(includeReferences)) throw invalidField('includeReferences', 'must be an array of field names');
  return includeReferences.map((entry, index) => {
    const at = `includeReferences.${index}`;
    const isObject = typeof entry == 'object' && entry !== null;
    const name = isObject ? (entry as { field?: unknown }).field : entry;
    if (typeof name != 'string' || !name) throw invalidField(at, 'must be a field name', 'VALIDATION');
    const limit = isObject ? (entry as { limit?: unknown }).limit : undefined;
    if (limit === undefined || limit === null) return { field: name, limit: INCLUDE_LIMIT };
    if (typeof limit != 'number' || !Number.isInteger(limit) || limit < 1)
      throw invalidField(`${at}.limit`, 'must be a whole number of at least 1', 'MIN');
    return { field: name, limit };
  });
}

/**
 * Whether the caller may read an item of a collection: that collection's read rule, and for
 * SITE_MEMBER_AUTHOR its author scope. Reading through a reference must not reach further than
 * reading the item directly (a `GET` of it).
 */
export type ReadCheck = (collectionId: string, item: ItemData) => boolean;

/** The {@link ReadCheck} of a caller; each collection's rule is looked up once per check. */
export function readCheckFor(store: Store, caller: Caller): ReadCheck {
  const scopes = new Map<string, Scope | undefined>();
  return (collectionId, item) => {
    if (!scopes.has(collectionId)) {
      const collection = findCollection(store, collectionId);
      scopes.set(collectionId, collection && permittedScope(collection, 'read', caller));
    }
    const scope = scopes.get(collectionId);
    return scope !== undefined && (scope.items == 'all' || item._owner === scope.ownerId);
  };
}

/** A referenced item the caller may read, or `undefined` for one that is missing or that it may not read. */
export function readableItem(store: Store, canRead: ReadCheck, collectionId: string, id: string): ItemData | undefined {
  const item = findItem(store, collectionId, id);
  return item && canRead(collectionId, item) ? item : undefined;
}

/**
 * Replaces the included reference fields of `items` with the referenced items' data: a single
 * reference whose item is missing or unreadable stays its id; a multi reference lists at most
 * `limit` items, leaving out those missing or unreadable.
 */
export function expandReferences(
  store: Store,
  collection: Collection,
  items: ItemData[],
  include: readonly IncludedReference[],
  canRead: ReadCheck,
): ItemData[] {
  if (!include.length) return items;
  const fields = include.map((entry, index) => ({
    ...requireReferenceField(collection, entry.field, `includeReferences.${index}`),
    limit: entry.limit,
  }));
  return items.map((item) => {
    const expanded: ItemData = { ...item };
    for (const field of fields) {
      if (field.kind == 'single') {
        const id = item[field.key];
        if (typeof id == 'string')
          expanded[field.key] = readableItem(store, canRead, field.targetCollectionId, id) ?? id;
      } else {
        expanded[field.key] = referencedIds(store, collection.id, field.key, item._id)
          .slice(0, field.limit)
          .map((id) => readableItem(store, canRead, field.targetCollectionId, id))
          .filter((found) => found !== undefined);
      }
    }
    return expanded;
  });
}
