/** Item writes shared by the single and bulk operations: insert, update, save, remove. */
import { domainEvent } from '../../../events.js';
import type { ItemAccess } from './access.js';
import { scopeFor } from './access.js';
import {
  SYSTEM_KEYS,
  deleteItem,
  findItem,
  insertNewItem,
  itemIdOf,
  itemNotFound,
  nowDate,
  requestData,
  wireItem,
  writeItem,
  type ItemData,
} from './item-store.js';
import { ownerOf, requireInScope } from './permissions.js';
import { setReferences, splitReferences } from './references.js';

const FQDN = 'wix.data.v2.data_item';

/** The result of one write: what happened and the item after it (before it, for removals). */
export interface WriteResult {
  action: 'INSERT' | 'UPDATE' | 'DELETE';
  data: ItemData;
}

const systemKeys = new Set<string>(SYSTEM_KEYS);

/**
 * Request-side data with the system fields dropped (the service owns them). A plain loop: it runs
 * per item of a bulk write. `data` comes from requestData, which refuses a `__proto__` key.
 */
function ownFields(data: Record<string, unknown>): Record<string, unknown> {
  const own: Record<string, unknown> = {};
  for (const key of Object.keys(data)) if (!systemKeys.has(key)) own[key] = data[key];
  return own;
}

/**
 * Writes an item and its multi-references. One statement alone needs no savepoint (SQLite undoes
 * a failed statement by itself); with references, the statements go in a nested transaction, so
 * that a bulk entry that fails leaves nothing behind (bulk.ts).
 */
function store(access: ItemAccess, data: ItemData, multi: Map<string, string[]>, isNew: boolean): void {
  const { context, collection } = access;
  const write = () => {
    if (isNew) insertNewItem(context.store, collection.id, data);
    else writeItem(context.store, collection.id, data);
    for (const [field, ids] of multi) setReferences(context.store, collection.id, field, data._id, ids);
  };
  if (multi.size) context.store.transaction(write);
  else write();
}

/**
 * Inserts a new item; `WDE0074` when its id exists. `scopeChecked`: the caller has checked (and
 * recorded) the insert permission already, as a bulk insert does once for all its items; an
 * insert's scope does not depend on the item.
 */
export function insertItem(access: ItemAccess, dataItem: unknown, at: string, scopeChecked = false): WriteResult {
  if (!scopeChecked) scopeFor(access, 'insert');
  const { context, collection, call } = access;
  const requested = requestData(dataItem, at);
  const id = itemIdOf(dataItem as { id?: unknown; data?: Record<string, unknown> }, at);
  const { data: fields, multi } = splitReferences(collection, ownFields(requested), `${at}.data`);
  const now = nowDate(context.clock);
  const owner = ownerOf(call.caller, context.site);
  // `fields` is this call's own copy (requestData, ownFields): the system fields go on it, after
  // the item's own (the order a spread would give), without one more copy per item.
  const data = fields as ItemData;
  data._id = id;
  data._createdDate = now;
  data._updatedDate = now;
  if (owner) data._owner = owner;
  // The primary key refuses an id that exists (WDE0074).
  store(access, data, multi, true);
  call.emit(
    domainEvent(
      FQDN,
      'created',
      id,
      { createdEvent: { entity: wireItem(collection.id, data) } },
      access.identity,
      'wix.data.v2.data_item_created',
    ),
  );
  return { action: 'INSERT', data };
}

/** Replaces an existing item's fields (keeping its creation date and owner); `WDE0073` when missing. */
export function updateItem(access: ItemAccess, dataItem: unknown, at: string): WriteResult {
  const scope = scopeFor(access, 'update');
  const { context, collection, call } = access;
  const requested = requestData(dataItem, at);
  const id = itemIdOf(dataItem as { id?: unknown; data?: Record<string, unknown> }, at);
  const current = findItem(context.store, collection.id, id);
  if (!current) throw itemNotFound(collection.id, id);
  requireInScope(collection, scope, 'update', current);
  const { data: fields, multi } = splitReferences(collection, ownFields(requested), `${at}.data`);
  const data: ItemData = {
    ...fields,
    _id: id,
    _createdDate: current._createdDate,
    _updatedDate: nowDate(context.clock),
    ...(current._owner !== undefined ? { _owner: current._owner } : {}),
  };
  store(access, data, multi, false);
  call.emit(
    domainEvent(
      FQDN,
      'updated',
      id,
      { updatedEvent: { currentEntity: wireItem(collection.id, data) } },
      access.identity,
      'wix.data.v2.data_item_updated',
    ),
  );
  return { action: 'UPDATE', data };
}

/** Inserts, or updates when the id exists. */
export function saveItem(access: ItemAccess, dataItem: unknown, at: string): WriteResult {
  requestData(dataItem, at);
  const id =
    (dataItem as { id?: unknown; data?: { _id?: unknown } }).id ?? (dataItem as { data?: { _id?: unknown } }).data?._id;
  const exists = typeof id == 'string' && findItem(access.context.store, access.collection.id, id) !== undefined;
  return exists ? updateItem(access, dataItem, at) : insertItem(access, dataItem, at);
}

/** Removes an item; `WDE0073` when missing. Returns the removed item. */
export function removeItem(access: ItemAccess, itemId: string): WriteResult {
  const scope = scopeFor(access, 'remove');
  const { context, collection, call } = access;
  const current = findItem(context.store, collection.id, itemId);
  if (!current) throw itemNotFound(collection.id, itemId);
  requireInScope(collection, scope, 'remove', current);
  deleteItem(context.store, collection.id, itemId);
  call.emit(
    domainEvent(
      FQDN,
      'deleted',
      itemId,
      { deletedEvent: { deletedEntity: wireItem(collection.id, current) } },
      access.identity,
      'wix.data.v2.data_item_deleted',
    ),
  );
  return { action: 'DELETE', data: current };
}

/** Writes an item whose data was changed in place (patch, single references), with a new update date. */
export function rewriteItem(access: ItemAccess, current: ItemData, changed: Record<string, unknown>): ItemData {
  const data: ItemData = {
    ...changed,
    _id: current._id,
    _createdDate: current._createdDate,
    _updatedDate: nowDate(access.context.clock),
    ...(current._owner !== undefined ? { _owner: current._owner } : {}),
  };
  writeItem(access.context.store, access.collection.id, data);
  access.call.emit(
    domainEvent(
      FQDN,
      'updated',
      data._id,
      { updatedEvent: { currentEntity: wireItem(access.collection.id, data) } },
      access.identity,
      'wix.data.v2.data_item_updated',
    ),
  );
  return data;
}
