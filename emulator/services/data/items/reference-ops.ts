/** The reference operations: insert, remove, replace, is-referenced, query-referenced (single and bulk). */
import { invalidField } from '../../../errors.js';
import type { PagingMetadata } from '../paging.js';
import { pageOf } from '../paging.js';
import { scopeFor, type ItemAccess } from './access.js';
import { requireItem, wireItem, type ItemData } from './item-store.js';
import { requireInScope } from './permissions.js';
import {
  addReference,
  dropReference,
  readableItem,
  readCheckFor,
  referencedIds,
  requireReferenceField,
  setReferences,
  type ReferenceField,
} from './references.js';
import { decodeCursor, encodeCursor, type PagingInput } from './paging-sql.js';
import { rewriteItem } from './writes.js';
import { isRecord } from '../../../untrusted-json.js';

/** A reference as requests carry it. */
export interface ItemReference {
  referringItemFieldName: string;
  referringItemId: string;
  referencedItemId: string;
}

const text = (value: unknown, field: string): string => {
  if (typeof value != 'string' || !value) throw invalidField(field, 'must not be empty', 'REQUIRED_FIELD');
  return value;
};

/** A copy of `data` without `key`. */
const withoutField = (data: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(data).filter(([name]) => name != key));

/** The referring item and its reference field, checked for the caller's right to change it. */
function referring(
  access: ItemAccess,
  fieldName: unknown,
  itemId: unknown,
  at: string,
  action: 'read' | 'update',
): { field: ReferenceField; item: ItemData } {
  const scope = scopeFor(access, action);
  const field = requireReferenceField(
    access.collection,
    text(fieldName, `${at}referringItemFieldName`),
    `${at}referringItemFieldName`,
  );
  const item = requireItem(access.context.store, access.collection.id, text(itemId, `${at}referringItemId`));
  requireInScope(access.collection, scope, action, item);
  return { field, item };
}

/** The ids a reference field of an item holds, in order. */
function idsOf(access: ItemAccess, field: ReferenceField, item: ItemData): string[] {
  if (field.kind == 'multi') return referencedIds(access.context.store, access.collection.id, field.key, item._id);
  return typeof item[field.key] == 'string' ? [item[field.key] as string] : [];
}

/**
 * What an insert or a remove names: the referring item and its reference field (checked for the
 * caller's right to update it), the referenced item's id, and the reference as the answer gives it.
 */
function referenceChange(access: ItemAccess, reference: ItemReference | undefined, at: string) {
  const { field, item } = referring(
    access,
    reference?.referringItemFieldName,
    reference?.referringItemId,
    at,
    'update',
  );
  const referencedId = text(reference?.referencedItemId, `${at}referencedItemId`);
  const answer: ItemReference = {
    referringItemFieldName: field.key,
    referringItemId: item._id,
    referencedItemId: referencedId,
  };
  return { field, item, referencedId, answer };
}

/** Adds one reference (idempotent). */
export function insertReference(access: ItemAccess, reference: ItemReference | undefined, at: string): ItemReference {
  const { field, item, referencedId, answer } = referenceChange(access, reference, at);
  if (field.kind == 'multi')
    addReference(access.context.store, access.collection.id, field.key, item._id, referencedId);
  else if (item[field.key] !== referencedId) rewriteItem(access, item, { ...item, [field.key]: referencedId });
  return answer;
}

/** Removes one reference (no error when it was not there). */
export function removeReference(access: ItemAccess, reference: ItemReference | undefined, at: string): ItemReference {
  const { field, item, referencedId, answer } = referenceChange(access, reference, at);
  if (field.kind == 'multi')
    dropReference(access.context.store, access.collection.id, field.key, item._id, referencedId);
  else if (item[field.key] === referencedId) rewriteItem(access, item, withoutField(item, field.key));
  return answer;
}

/** Replaces every reference of a field with `newReferencedItemIds`. */
export function replaceReferences(
  access: ItemAccess,
  input: { referringItemFieldName?: unknown; referringItemId?: unknown; newReferencedItemIds?: unknown },
): { dataItemReferences: ItemReference[] } {
  const { field, item } = referring(access, input.referringItemFieldName, input.referringItemId, '', 'update');
  const ids = input.newReferencedItemIds;
  if (!Array.isArray(ids)) throw invalidField('newReferencedItemIds', 'must be an array of item ids', 'REQUIRED_FIELD');
  for (const [index, id] of ids.entries()) text(id, `newReferencedItemIds.${index}`);
  if (field.kind == 'multi')
    setReferences(access.context.store, access.collection.id, field.key, item._id, ids as string[]);
  else {
    if (ids.length > 1)
      throw invalidField(
        'newReferencedItemIds',
        `${field.key} is a single reference field: give at most one id`,
        'MAX_SIZE',
      );
    const rest = withoutField(item, field.key);
    rewriteItem(access, item, ids.length ? { ...rest, [field.key]: ids[0] } : rest);
  }
  return {
    dataItemReferences: (ids as string[]).map((referencedItemId) => ({
      referringItemFieldName: field.key,
      referringItemId: item._id,
      referencedItemId,
    })),
  };
}

/** Whether the referring item's field references the item. */
export function isReferenced(
  access: ItemAccess,
  input: { referringItemFieldName?: unknown; referringItemId?: unknown; referencedItemId?: unknown },
): { isReferenced: boolean } {
  const { field, item } = referring(access, input.referringItemFieldName, input.referringItemId, '', 'read');
  return { isReferenced: idsOf(access, field, item).includes(text(input.referencedItemId, 'referencedItemId')) };
}

interface ReferencedRequest {
  referringItemFieldName?: unknown;
  /** The referring items (the official client's form). */
  referringItemIds?: unknown;
  /** One referring item: the deprecated form, still accepted. */
  referringItemId?: unknown;
  order?: 'ASC' | 'DESC';
  returnTotalCount?: boolean;
  fields?: string[];
}

/** Most referring items one query-referenced request may name. */
const MAX_REFERRING_ITEMS = 100;

/** The referring item IDs of a request: `referringItemIds`, or the deprecated single `referringItemId`. */
function referringIdsOf(request: ReferencedRequest): string[] {
  const ids = request.referringItemIds;
  if (ids === undefined || ids === null) return [text(request.referringItemId, 'referringItemId')];
  if (!Array.isArray(ids) || ids.length == 0)
    throw invalidField('referringItemIds', 'must not be empty', 'REQUIRED_FIELD');
  if (ids.length > MAX_REFERRING_ITEMS)
    throw invalidField('referringItemIds', `may hold at most ${MAX_REFERRING_ITEMS} item IDs`, 'MAX_SIZE');
  return ids.map((id, index) => text(id, `referringItemIds.${index}`));
}

/** One reference of a query-referenced listing: which referring item holds it and the item it refers to. */
interface ListedReference {
  referringItemId: string;
  referencedItemId: string;
}

/** A referenced item's data cut to the requested fields (and `_id`). */
const projected = (item: ItemData, fields: string[] | undefined): ItemData =>
  fields?.length
    ? (Object.fromEntries([
        ['_id', item._id],
        ...fields.filter((key) => Object.hasOwn(item, key)).map((key) => [key, item[key]]),
      ]) as ItemData)
    : item;

/** The shape of a query-referenced cursor's saved request (a cursor is the caller's input like any other). */
const isReferencedRequest = (request: unknown): request is ReferencedRequest => {
  if (!isRecord(request)) return false;
  const { order, returnTotalCount, fields } = request;
  return (
    (order === undefined || typeof order == 'string') &&
    (returnTotalCount === undefined || typeof returnTotalCount == 'boolean') &&
    (fields === undefined || (Array.isArray(fields) && fields.every((field) => typeof field == 'string')))
  );
};

/**
 * The referenced items of a field of one or more referring items (theirs one after the other, each
 * in reference order; `order: DESC` reverses each), paged by offset or by cursor. An item that is
 * missing, or that the caller may not read (its collection's read rule and author scope), comes
 * back as an unresolved reference: its ID only.
 */
export function queryReferenced(
  access: ItemAccess,
  input: ReferencedRequest & PagingInput,
): { results: object[]; pagingMetadata: PagingMetadata } {
  let request: ReferencedRequest = {
    referringItemFieldName: input.referringItemFieldName,
    referringItemIds: input.referringItemIds,
    referringItemId: input.referringItemId,
    order: input.order,
    returnTotalCount: input.returnTotalCount,
    fields: input.fields,
  };
  let offset = input.paging?.offset ?? 0;
  let limit = input.cursorPaging?.limit ?? input.paging?.limit;
  if (input.cursorPaging?.cursor) {
    const state = decodeCursor<ReferencedRequest>(
      input.cursorPaging.cursor,
      'referenced',
      access.collection.id,
      'cursorPaging.cursor',
      isReferencedRequest,
    );
    request = state.request;
    offset = state.offset;
    limit = input.cursorPaging.limit ?? state.limit;
  }
  const { store } = access.context;
  const sides = referringIdsOf(request).map((id) => referring(access, request.referringItemFieldName, id, '', 'read'));
  // One field name for every referring item: the first one's field is theirs too (never an empty list).
  const { field } = sides[0]!;
  const references: ListedReference[] = sides.flatMap(({ item }) => {
    const ids = idsOf(access, field, item);
    if (request.order == 'DESC') ids.reverse();
    return ids.map((referencedItemId) => ({ referringItemId: item._id, referencedItemId }));
  });
  const target = field.targetCollectionId;
  const canRead = readCheckFor(store, access.call.caller);
  const page = pageOf(references, { limit, offset });
  const results = page.items.map(({ referringItemId, referencedItemId }) => {
    const found = readableItem(store, canRead, target, referencedItemId);
    if (!found)
      return {
        referringItemId,
        unresolvedReference: { referencedItemId, referringItemId, referringItemFieldName: field.key },
      };
    return { referringItemId, dataItem: wireItem(target, projected(found, request.fields)) };
  });
  const metadata: PagingMetadata = { count: page.metadata.count, hasNext: page.metadata.hasNext };
  if (input.cursorPaging) {
    if (page.metadata.hasNext)
      metadata.cursors = {
        next: encodeCursor({
          kind: 'referenced',
          collectionId: access.collection.id,
          request,
          offset: offset + page.items.length,
          limit: limit ?? page.items.length,
        }),
      };
  } else metadata.offset = page.metadata.offset;
  if (request.returnTotalCount) {
    metadata.total = references.length;
    metadata.tooManyToCount = false;
  }
  return { results, pagingMetadata: metadata };
}
