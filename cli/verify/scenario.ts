/**
 * What `sitekit-sdk verify` asks both sites: steps, each one call of an operation of the route
 * table with its wire-form request. The reads of the site's own collections are planned from the
 * live site's first answers (which fields it has, which values its first items hold); the writes
 * go only to a scratch collection the run creates and removes. A request may name values that
 * differ from one site to the other with placeholders, filled in per site when the step is sent:
 * the scratch collection's ID, and a value of an earlier answer (a paging cursor).
 */
import type { OperationId } from '../../generated/operations.js';

/** A JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Stands, in a request, for the ID of the scratch collection on the site the step is sent to. */
export const SCRATCH = '$scratch';

/** Stands, in a request, for the value at `path` (dotted) of an earlier step's answer on the same site. */
export interface AnswerValue {
  $answer: string;
  path: string;
}

/** One call both sites answer. */
export interface Step {
  /** What it asks, for people: `Movies: query, startsWith on title`. Unique in a scenario. */
  name: string;
  operationId: OperationId;
  /** The wire-form request, with placeholders ({@link SCRATCH}, {@link AnswerValue}). */
  request: Json;
  /** A write (or read) of the scratch collection: its dates and owner are the site's own, so they are normalized. */
  scratch?: true;
  /** Its answer holds members' personal data: anonymized before it is kept, compared or printed. */
  personal?: true;
}

/** A collection as planning reads it (wire form of `listDataCollections`). */
export interface CollectionFacts {
  id: string;
  fields?: { key: string; type?: string }[];
}

/** Items per page in the reads (small: a run is bounded in calls and in the size of a recording). */
const PAGE = 5;
/** Items of the first page that planning reads (more than a page: references are looked for in them). */
const SURVEY_PAGE = 10;

/** Every query is sorted: without a sort the platform's order is not documented, and two sites may differ in it. */
const BY_ID = [{ fieldName: '_id', order: 'ASC' }];

/** The steps that read what planning needs: one page of each collection. */
export function surveySteps(collectionIds: readonly string[]): Step[] {
  return collectionIds.map((id) => ({
    name: `${id}: first page`,
    operationId: 'queryDataItems',
    request: { dataCollectionId: id, query: { sort: BY_ID, paging: { limit: SURVEY_PAGE } }, returnTotalCount: true },
  }));
}

/** The members listing and the media listing (no personal data leaves the members' answer un-anonymized). */
export function accountSteps(): Step[] {
  return [
    {
      name: 'members: query, full field set, oldest first',
      operationId: 'queryMembers',
      request: {
        fieldsets: ['FULL'],
        query: {
          sort: [
            { fieldName: 'createdDate', order: 'ASC' },
            { fieldName: 'id', order: 'ASC' },
          ],
          paging: { limit: 20, offset: 0 },
        },
      },
      personal: true,
    },
    {
      name: 'media: list the root folder by name',
      operationId: 'listFiles',
      request: { sort: { fieldName: 'displayName', order: 'ASC' }, paging: { limit: 20 } },
    },
  ];
}

/** The first field of one of `types` whose value in `item` passes `accept`, with that value. */
function fieldWith<T extends Json>(
  collection: CollectionFacts,
  item: Record<string, Json>,
  types: readonly string[],
  accept: (value: Json | undefined) => value is T,
): { key: string; value: T } | undefined {
  for (const field of collection.fields ?? []) {
    const value = item[field.key];
    if (field.type && types.includes(field.type) && accept(value)) return { key: field.key, value };
  }
  return undefined;
}

const isText = (value: Json | undefined): value is string => typeof value == 'string' && value.length >= 3;
const isNumber = (value: Json | undefined): value is number => typeof value == 'number';
const isTextList = (value: Json | undefined): value is string[] =>
  Array.isArray(value) && value.length > 0 && value.every((entry) => typeof entry == 'string');
const isReference = (value: Json | undefined): value is Json => value !== undefined && value !== null;

/**
 * The reads of one of the site's collections: get (and a missing item), count, a query per
 * operator family on the fields its first item fills, sorting with offset paging, cursor
 * paging, distinct values, an aggregation and its references. A family whose field the
 * collection lacks is left out.
 */
export function collectionSteps(collection: CollectionFacts, firstItems: readonly Record<string, Json>[]): Step[] {
  const id = collection.id;
  const first = firstItems[0];
  const steps: Step[] = [{ name: `${id}: count`, operationId: 'count', request: { dataCollectionId: id } }];
  const query = (what: string, filter: Json, extra: Record<string, Json> = {}): Step => ({
    name: `${id}: query, ${what}`,
    operationId: 'queryDataItems',
    request: { dataCollectionId: id, query: { filter, sort: BY_ID, paging: { limit: PAGE } }, ...extra },
  });
  steps.push({
    name: `${id}: get a missing item`,
    operationId: 'get',
    request: { dataCollectionId: id, dataItemId: 'sitekit-verify-missing' },
  });
  if (!first) return steps;
  const itemId = first._id as string;
  steps.push({
    name: `${id}: get ${itemId}`,
    operationId: 'get',
    request: { dataCollectionId: id, dataItemId: itemId },
  });

  const text = fieldWith(collection, first, ['TEXT'], isText);
  const number = fieldWith(collection, first, ['NUMBER'], isNumber);
  const list = fieldWith(collection, first, ['ARRAY_STRING', 'ARRAY', 'TAGS'], isTextList);
  if (text) {
    const { key, value } = text;
    steps.push(
      query(`eq on ${key}`, { [key]: value }),
      query(`ne on ${key}`, { [key]: { $ne: value } }),
      query(`lt on ${key} (text order)`, { [key]: { $lt: value } }),
      // The string operators are case-insensitive: the value is sent in another case.
      query(`startsWith on ${key}`, { [key]: { $startsWith: value.slice(0, 3).toUpperCase() } }),
      query(`contains on ${key}`, { [key]: { $contains: value.slice(1, 4).toLowerCase() } }),
      query(`endsWith on ${key}`, { [key]: { $endsWith: value.slice(-3) } }),
      query(`hasSome on ${key}`, { [key]: { $hasSome: [value, 'sitekit-verify-none'] } }),
      query(`not eq on ${key}`, { $not: [{ [key]: value }] }),
      {
        name: `${id}: distinct ${key}`,
        operationId: 'queryDistinctValues',
        request: { dataCollectionId: id, fieldName: key, order: 'ASC', paging: { limit: PAGE } },
      },
      {
        name: `${id}: query, sorted by ${key} descending, offset paging`,
        operationId: 'queryDataItems',
        request: {
          dataCollectionId: id,
          query: { sort: [{ fieldName: key, order: 'DESC' }, ...BY_ID], paging: { limit: 3, offset: 2 } },
          returnTotalCount: true,
        },
      },
    );
  }
  if (number) {
    const { key, value } = number;
    steps.push(
      query(`gt on ${key}`, { [key]: { $gt: value } }),
      query(`lte on ${key}`, { [key]: { $lte: value } }),
      query(`exists on ${key}`, { [key]: { $exists: true } }),
      query(`isEmpty on ${key}`, { [key]: null }),
      {
        name: `${id}: count, ${key} gte`,
        operationId: 'count',
        request: { dataCollectionId: id, filter: { [key]: { $gte: value } } },
      },
    );
    if (text)
      steps.push(
        query(`or of ${text.key} and ${key}`, { $or: [{ [text.key]: text.value }, { [key]: { $gt: value } }] }),
        query(`and of ${text.key} and ${key}`, {
          $and: [{ [text.key]: { $ne: text.value } }, { [key]: { $lt: value } }],
        }),
      );
  }
  if (list) steps.push(query(`hasAll on ${list.key}`, { [list.key]: { $hasAll: [list.value[0]!] } }));
  const group = text ?? list;
  if (group)
    steps.push({
      name: `${id}: aggregate by ${group.key}`,
      operationId: 'aggregateDataItems',
      request: {
        dataCollectionId: id,
        aggregation: {
          groupingFields: [group.key],
          operations: [
            { resultFieldName: 'items', itemCount: {} },
            ...(number ? [{ resultFieldName: 'total', sum: { itemFieldName: number.key } }] : []),
          ],
        },
        sort: [{ fieldName: group.key, order: 'ASC' }],
        paging: { limit: PAGE },
      },
    });
  steps.push(
    {
      name: `${id}: query, cursor paging, page 1`,
      operationId: 'queryDataItems',
      request: { dataCollectionId: id, query: { sort: BY_ID, cursorPaging: { limit: 3 } } },
    },
    {
      name: `${id}: query, cursor paging, page 2`,
      operationId: 'queryDataItems',
      request: {
        dataCollectionId: id,
        query: {
          cursorPaging: {
            limit: 3,
            cursor: { $answer: `${id}: query, cursor paging, page 1`, path: 'pagingMetadata.cursors.next' },
          },
        },
      },
    },
  );
  for (const field of collection.fields ?? []) {
    if (field.type != 'REFERENCE' && field.type != 'MULTI_REFERENCE') continue;
    const referring = firstItems.find((item) => isReference(item[field.key])) ?? first;
    steps.push(query(`include ${field.key}`, {}, { includeReferences: [{ field: field.key, limit: 5 }] }));
    if (field.type == 'MULTI_REFERENCE')
      steps.push({
        name: `${id}: query referenced ${field.key} of ${referring._id as string}`,
        operationId: 'queryReferencedDataItems',
        request: {
          dataCollectionId: id,
          referringItemIds: [referring._id as string],
          referringItemFieldName: field.key,
          paging: { limit: PAGE },
        },
      });
  }
  return steps;
}

/** A scratch item's wire form. */
const scratchItem = (id: string, data: Record<string, Json>): Json => ({ id, data: { _id: id, ...data } });

/**
 * The writes, all inside the scratch collection: create it, insert (and insert again: the
 * conflict), update, patch, bulk insert, bulk remove, references, truncate, then remove it.
 */
export function scratchSteps(): Step[] {
  const collection = { dataCollectionId: SCRATCH };
  const steps: Omit<Step, 'scratch'>[] = [
    {
      name: 'scratch: create the collection',
      operationId: 'createDataCollection',
      request: {
        collection: {
          id: SCRATCH,
          displayName: 'sitekit verify (temporary)',
          fields: [
            { key: 'title', type: 'TEXT' },
            { key: 'count', type: 'NUMBER' },
            { key: 'tags', type: 'ARRAY_STRING' },
            {
              key: 'related',
              type: 'MULTI_REFERENCE',
              typeMetadata: { multiReference: { referencedCollectionId: SCRATCH } },
            },
          ],
          permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
        },
      },
    },
    {
      name: 'scratch: insert one',
      operationId: 'insert',
      request: { ...collection, dataItem: scratchItem('verify-1', { title: 'First', count: 1, tags: ['a', 'b'] }) },
    },
    {
      name: 'scratch: insert another',
      operationId: 'insert',
      request: { ...collection, dataItem: scratchItem('verify-2', { title: 'Second', count: 2, tags: ['b'] }) },
    },
    {
      name: 'scratch: insert an ID that exists',
      operationId: 'insert',
      request: { ...collection, dataItem: scratchItem('verify-1', { title: 'Again' }) },
    },
    {
      name: 'scratch: update',
      operationId: 'update',
      request: {
        ...collection,
        dataItem: scratchItem('verify-1', { title: 'First, updated', count: 10, tags: ['a'] }),
      },
    },
    {
      name: 'scratch: patch (increment, set)',
      operationId: 'patchDataItem',
      request: {
        ...collection,
        patch: {
          dataItemId: 'verify-2',
          fieldModifications: [
            { action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: 5 } },
            { action: 'SET_FIELD', fieldPath: 'title', setFieldOptions: { value: 'Second, patched' } },
          ],
        },
      },
    },
    {
      name: 'scratch: bulk insert',
      operationId: 'bulkInsertDataItems',
      request: {
        ...collection,
        dataItems: [
          scratchItem('verify-3', { title: 'Third', count: 3 }),
          scratchItem('verify-4', { title: 'Fourth' }),
        ],
        returnEntity: true,
      },
    },
    {
      name: 'scratch: bulk remove',
      operationId: 'bulkRemoveDataItems',
      request: { ...collection, dataItemIds: ['verify-4'] },
    },
    {
      name: 'scratch: insert references',
      operationId: 'bulkInsertDataItemReferences',
      request: {
        ...collection,
        dataItemReferences: ['verify-2', 'verify-3'].map((referencedItemId) => ({
          referringItemFieldName: 'related',
          referringItemId: 'verify-1',
          referencedItemId,
        })),
      },
    },
    {
      name: 'scratch: is referenced',
      operationId: 'isReferenced',
      request: {
        ...collection,
        referringItemFieldName: 'related',
        referringItemId: 'verify-1',
        referencedItemId: 'verify-3',
      },
    },
    {
      name: 'scratch: query referenced',
      operationId: 'queryReferencedDataItems',
      request: {
        ...collection,
        referringItemIds: ['verify-1'],
        referringItemFieldName: 'related',
        paging: { limit: PAGE },
      },
    },
    {
      name: 'scratch: query with references included',
      operationId: 'queryDataItems',
      request: {
        ...collection,
        query: { sort: BY_ID, paging: { limit: PAGE } },
        includeReferences: [{ field: 'related' }],
        returnTotalCount: true,
      },
    },
    { name: 'scratch: truncate', operationId: 'truncate', request: collection },
    { name: 'scratch: count after truncate', operationId: 'count', request: collection },
    { name: 'scratch: remove the collection', operationId: 'deleteDataCollection', request: collection },
  ];
  return steps.map((step) => ({ ...step, scratch: true }));
}

/** The step that removes the scratch collection (also run on its own when a run stops early). */
export const REMOVE_SCRATCH = 'scratch: remove the collection';
