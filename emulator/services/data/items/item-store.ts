/** Items as stored: the wire `data` object as JSON, plus the columns the default order and ownership need. */
import { randomUUID } from 'node:crypto';
import { applicationError, invalidField } from '../../../errors.js';
import type { Clock } from '../../../clock.js';
import type { Store } from '../../../store/store.js';
import { checkStoredValue, isRecord } from '../../../untrusted-json.js';
import { isDateValue, normalDate } from './json-path.js';

/** An item's data in wire form: `{_id, _createdDate: {$date}, _updatedDate: {$date}, _owner, ...fields}`. */
export type ItemData = Record<string, unknown> & { _id: string };

/** The wire form of an item in responses. */
export interface WireItem {
  id: string;
  dataCollectionId: string;
  data: ItemData;
}

/** Fields the service sets; a write cannot change them. */
export const SYSTEM_KEYS = ['_id', '_createdDate', '_updatedDate', '_owner'] as const;

/** 404 `WDE0073`: no such item. */
export const itemNotFound = (collectionId: string, itemId: string) =>
  applicationError(404, 'WDE0073', `Item ${itemId} not found in the ${collectionId} collection`, {
    collectionId,
    itemId,
  });

/** 409 `WDE0074`: an item with that id exists. */
export const itemExists = (collectionId: string, itemId: string) =>
  applicationError(409, 'WDE0074', `Item ${itemId} already exists in the ${collectionId} collection`, {
    collectionId,
    itemId,
  });

/**
 * Dates normalised to `toISOString()` at every depth, so stored dates compare as strings; invalid
 * dates refused. Recursive: the caller has checked the value with `checkStoredValue` first.
 */
export function normaliseValue(value: unknown, field: string): unknown {
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) copy[index] = normaliseEntry(value[index], field, index);
    return copy;
  }
  if (isDateValue(value)) {
    const iso = normalDate(value.$date);
    if (!iso) throw invalidField(field, `${JSON.stringify(value.$date)} is not a valid date`, 'FORMAT');
    return { $date: iso };
  }
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const entry = normaliseEntry(value[key], field, key);
      // An own property, as JSON.parse makes it, even for a key that an assignment would not create.
      if (key == '__proto__') Object.defineProperty(copy, key, { value: entry, enumerable: true, writable: true });
      else copy[key] = entry;
    }
    return copy;
  }
  if (typeof value == 'number' && !Number.isFinite(value))
    throw invalidField(field, 'must be a finite number', 'VALIDATION');
  return value;
}

/**
 * An entry of an array or object, normalised. Its field path (`data.tags.0`) is built only for
 * an object or array, or an error: a bulk insert of 1,000 items has thousands of plain values.
 */
function normaliseEntry(entry: unknown, parent: string, key: string | number): unknown {
  if (typeof entry == 'object' && entry !== null) return normaliseValue(entry, `${parent}.${key}`);
  if (typeof entry == 'number' && !Number.isFinite(entry))
    throw invalidField(`${parent}.${key}`, 'must be a finite number', 'VALIDATION');
  return entry;
}

/** The id a written item gets: `dataItem.id`, else `data._id`, else a new UUID; both given must agree. */
export function itemIdOf(dataItem: { id?: unknown; data?: Record<string, unknown> }, field: string): string {
  const fromData = dataItem.data?._id;
  if (fromData !== undefined && typeof fromData != 'string')
    throw invalidField(`${field}.data._id`, 'must be a string', 'VALIDATION');
  if (dataItem.id !== undefined && typeof dataItem.id != 'string')
    throw invalidField(`${field}.id`, 'must be a string', 'VALIDATION');
  if (dataItem.id && fromData && dataItem.id != fromData)
    throw invalidField(`${field}.id`, `does not match data._id (${fromData})`, 'VALIDATION');
  const id = (dataItem.id as string | undefined) || fromData || randomUUID();
  if (!id.trim()) throw invalidField(`${field}.id`, 'must not be blank');
  return id;
}

/** The item's `data` object from the request, checked. */
export function requestData(dataItem: unknown, field: string): Record<string, unknown> {
  if (!isRecord(dataItem)) throw invalidField(field, 'must be an object', 'REQUIRED_FIELD');
  const data = dataItem.data ?? {};
  if (!isRecord(data)) throw invalidField(`${field}.data`, 'must be an object', 'VALIDATION');
  checkStoredValue(data, `${field}.data`);
  return normaliseValue(data, `${field}.data`) as Record<string, unknown>;
}

/** Reads one item's data, or `undefined`. */
export function findItem(store: Store, collectionId: string, itemId: string): ItemData | undefined {
  const row = store.get<{ data: string }>('SELECT data FROM items WHERE collection_id = ? AND id = ?', [
    collectionId,
    itemId,
  ]);
  return row ? (JSON.parse(row.data) as ItemData) : undefined;
}

/** Reads one item's data, or throws `WDE0073`. */
export function requireItem(store: Store, collectionId: string, itemId: string): ItemData {
  const item = findItem(store, collectionId, itemId);
  if (!item) throw itemNotFound(collectionId, itemId);
  return item;
}

/**
 * Inserts a new item: one statement, the primary key refusing a duplicate (`WDE0074`) where a
 * SELECT first would cost a second statement per item.
 */
export function insertNewItem(store: Store, collectionId: string, data: ItemData): void {
  const created = (data._createdDate as { $date: string }).$date;
  try {
    store.run('INSERT INTO items (collection_id, id, data, created_date, owner) VALUES (?, ?, ?, ?, ?)', [
      collectionId,
      data._id,
      JSON.stringify(data),
      created,
      typeof data._owner == 'string' ? data._owner : null,
    ]);
  } catch (error) {
    if ((error as { code?: unknown }).code == 'SQLITE_CONSTRAINT_PRIMARYKEY') throw itemExists(collectionId, data._id);
    throw error;
  }
}

/** Writes an item (insert or replace). */
export function writeItem(store: Store, collectionId: string, data: ItemData): void {
  const created = (data._createdDate as { $date: string }).$date;
  store.run(
    'INSERT INTO items (collection_id, id, data, created_date, owner) VALUES (?, ?, ?, ?, ?) ON CONFLICT (collection_id, id) DO UPDATE SET data = excluded.data, owner = excluded.owner',
    [collectionId, data._id, JSON.stringify(data), created, typeof data._owner == 'string' ? data._owner : null],
  );
}

/** Deletes an item and the references it holds (both or neither: a nested transaction). */
export function deleteItem(store: Store, collectionId: string, itemId: string): void {
  store.transaction(() => {
    store.run('DELETE FROM items WHERE collection_id = ? AND id = ?', [collectionId, itemId]);
    store.run('DELETE FROM item_references WHERE collection_id = ? AND referring_id = ?', [collectionId, itemId]);
  });
}

/** An item in the response's wire form. */
export const wireItem = (collectionId: string, data: ItemData): WireItem => ({
  id: data._id,
  dataCollectionId: collectionId,
  data,
});

/** Now on the emulator's clock, as stored. */
export const nowDate = (clock: Clock) => ({ $date: clock.iso() });
