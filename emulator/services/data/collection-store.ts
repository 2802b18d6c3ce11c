/** Collections as stored: read, write, and the facts the items service needs (fields, permissions). */
import { applicationError } from '../../errors.js';
import type { Migration, Store } from '../../store/store.js';
import type { PermissionRole } from '../../auth/decisions.js';

/** A collection field, wire form (`generated` schema `DataCollectionField`). */
export interface CollectionField {
  key: string;
  type: string;
  displayName?: string;
  systemField?: boolean;
  typeMetadata?: {
    reference?: { referencedCollectionId?: string };
    multiReference?: { referencedCollectionId?: string; referencingFieldKey?: string; referencingDisplayName?: string };
  };
  [other: string]: unknown;
}

/** The four collection roles, weakest requirement last. */
export type CollectionRole = PermissionRole;

/** Who may read, insert, update and remove items. */
export interface CollectionPermissions {
  read: CollectionRole;
  insert: CollectionRole;
  update: CollectionRole;
  remove: CollectionRole;
}

/** A collection in wire form, as the API returns it. */
export interface Collection {
  id: string;
  collectionType: string;
  displayName?: string;
  fields: CollectionField[];
  permissions: CollectionPermissions;
  revision: string;
  createdDate: string;
  updatedDate: string;
  [other: string]: unknown;
}

/** The data services' tables: collections, items (data as JSON, wire form) and multi-references. */
export const dataMigrations: Migration[] = [
  {
    id: 'data-001-tables',
    sql: `CREATE TABLE collections (
      id TEXT PRIMARY KEY,
      body TEXT NOT NULL,
      created_date TEXT NOT NULL
    );
    CREATE TABLE items (
      collection_id TEXT NOT NULL,
      id TEXT NOT NULL,
      data TEXT NOT NULL,
      created_date TEXT NOT NULL,
      owner TEXT,
      PRIMARY KEY (collection_id, id)
    );
    CREATE INDEX items_default_order ON items (collection_id, created_date DESC, id);
    CREATE TABLE item_references (
      collection_id TEXT NOT NULL,
      field TEXT NOT NULL,
      referring_id TEXT NOT NULL,
      referenced_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (collection_id, field, referring_id, referenced_id)
    );
    CREATE INDEX item_references_referenced ON item_references (referenced_id);`,
  },
];

/** The system fields every collection has (present in every item). */
export const SYSTEM_FIELDS: readonly CollectionField[] = [
  { key: '_id', displayName: 'ID', type: 'TEXT', systemField: true },
  { key: '_createdDate', displayName: 'Created Date', type: 'DATETIME', systemField: true },
  { key: '_updatedDate', displayName: 'Updated Date', type: 'DATETIME', systemField: true },
  { key: '_owner', displayName: 'Owner', type: 'TEXT', systemField: true },
];

/** Permissions of a collection created without any: everyone reads, only the owner writes. */
export const DEFAULT_PERMISSIONS: CollectionPermissions = {
  read: 'ANYONE',
  insert: 'ADMIN',
  update: 'ADMIN',
  remove: 'ADMIN',
};

/** 404 `WDE0025`: the collection does not exist. */
export const collectionNotFound = (collectionId: string) =>
  applicationError(
    404,
    'WDE0025',
    `The ${collectionId} collection does not exist. You cannot work with a collection that does not exist in the Data Manager.`,
    { collectionId },
  );

/** Most collections a store's cache holds; past it, the cache starts over (a test suite creating thousands). */
const CACHE_LIMIT = 1000;

/**
 * Collections read so far, per store: every item request opens its collection, and reading and
 * parsing its row each time was a measurable part of a small request. The store empties the
 * cache on any change to the table and on any rollback (Store.onChange), so it never holds what
 * the table does not.
 */
const caches = new WeakMap<Store, Map<string, Collection>>();

function cacheOf(store: Store): Map<string, Collection> {
  let cache = caches.get(store);
  if (!cache) {
    const created = new Map<string, Collection>();
    store.onChange('collections', () => created.clear());
    caches.set(store, created);
    cache = created;
  }
  return cache;
}

/** Freezes a value at every depth: a cached collection is shared by every request that reads it. */
function deepFreeze<Value>(value: Value): Value {
  if (typeof value == 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
}

/** The collection (frozen: build a new one to change it), or `undefined`. */
export function findCollection(store: Store, collectionId: string): Collection | undefined {
  const cache = cacheOf(store);
  const cached = cache.get(collectionId);
  if (cached) return cached;
  const row = store.get<{ body: string }>('SELECT body FROM collections WHERE id = ?', [collectionId]);
  if (!row) return undefined;
  const collection = deepFreeze(JSON.parse(row.body) as Collection);
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(collectionId, collection);
  return collection;
}

/** The collection (frozen), or a `WDE0025` error. */
export function requireCollection(store: Store, collectionId: string): Collection {
  const collection = findCollection(store, collectionId);
  if (!collection) throw collectionNotFound(collectionId);
  return collection;
}

/**
 * A field as the service answers it: the flags and the multi-reference names the official types
 * promise are always there (`false` and `''` when not given); only the system fields are system
 * fields, whatever a caller sent.
 */
function answeredField(field: CollectionField): CollectionField {
  const multiReference = field.typeMetadata?.multiReference;
  return {
    ...field,
    encrypted: field.encrypted === true,
    systemField: SYSTEM_FIELDS.some((system) => system.key == field.key),
    ...(multiReference && {
      typeMetadata: {
        ...field.typeMetadata,
        multiReference: { referencingFieldKey: '', referencingDisplayName: '', ...multiReference },
      },
    }),
  };
}

/** Inserts or replaces a collection; returns it as stored (and answered: see `answeredField`). */
export function saveCollection(store: Store, given: Collection): Collection {
  const collection = { ...given, fields: given.fields.map(answeredField) };
  store.run(
    'INSERT INTO collections (id, body, created_date) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET body = excluded.body',
    [collection.id, JSON.stringify(collection), collection.createdDate],
  );
  return collection;
}

/** The field of a collection by key (top-level keys only). */
export const fieldOf = (collection: Collection, key: string): CollectionField | undefined =>
  collection.fields.find((field) => field.key == key);
