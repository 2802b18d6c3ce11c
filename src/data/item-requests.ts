/**
 * The code of item requests that only runs once a request is sent: the direct forms of
 * `items.count`, `items.query` and `items.distinct`, and `Patch.run()`. Loaded on the first such call, through
 * ./items.ts and ./patch.ts: the builders stay eager and sync without it.
 */
import * as operations from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { invalid, optionsObject, requireString } from '../input.js';
import { sendPublic } from '../invoke.js';
import type { CallOptions, Item } from '../types.js';
import { optionalFilter } from './filter.js';
import { collectionIdOf, includedReferences } from './items.js';
import { fetchPages } from './paged-result.js';
import { limitOf, skipOf } from './paging.js';
import type {
  CountOptions,
  DataItemOf,
  DistinctRequest,
  FilterLike,
  FindOptions,
  PagedResult,
  PatchOptions,
} from './types.js';

/** `items.count(collectionId, options)`: the number of items matching `options.filter` (all items without one). */
export async function countItems(
  transport: Transport,
  collectionId: unknown,
  options?: { filter?: FilterLike } & CountOptions,
): Promise<number> {
  const request = { dataCollectionId: collectionIdOf(collectionId), filter: optionalFilter(options?.filter) };
  return ((await sendPublic(transport, operations.count, request, options)) as number | undefined) ?? 0;
}

/** `items.query(collectionId, query, options)`, the direct form: one page of items and its paging metadata. */
export async function queryItems(
  transport: Transport,
  collectionId: unknown,
  query: unknown,
  options?: FindOptions & { includeReferences?: readonly unknown[] },
): Promise<{ items: unknown[]; pagingMetadata: unknown }> {
  const dataCollectionId = collectionIdOf(collectionId);
  const { filter, ...rest } = optionsObject(query, 'query', 'items.query');
  const request = {
    dataCollectionId,
    query: { ...rest, filter: optionalFilter(filter) },
    includeReferences: includedReferences(options?.includeReferences),
  };
  const response = (await sendPublic(transport, operations.queryDataItems, request, options)) as {
    dataItems?: unknown[];
    pagingMetadata?: unknown;
  };
  return { items: response.dataItems ?? [], pagingMetadata: response.pagingMetadata };
}

/** `items.distinct(collectionId, field, options)`: the distinct values of a field among the items matching `options.filter`, paged by `options.paging`. */
export function distinctValues(
  transport: Transport,
  collectionId: unknown,
  field: unknown,
  options?: DistinctRequest,
): Promise<PagedResult<unknown>> {
  const base = { dataCollectionId: collectionIdOf(collectionId), fieldName: requireString(field, 'fieldName') };
  return fetchPages(
    {
      transport,
      operation: operations.queryDistinctValues,
      base,
      rest: { filter: optionalFilter(options?.filter) },
      entries: (response) => response.distinctValues as unknown[] | undefined,
      options,
    },
    { limit: limitOf(options?.paging?.limit), skip: skipOf(options?.paging?.offset ?? 0) },
  );
}

/** Where a patch applies (see ./patch.ts). */
export interface PatchTarget {
  readonly transport: Transport;
  readonly collectionId: string;
  readonly itemId: string;
}

/** `Patch.run()`: applies the field modifications (at least one); resolves with the patched item. */
export async function runPatch(
  target: PatchTarget,
  modifications: readonly object[],
  options?: PatchOptions & CallOptions,
): Promise<DataItemOf<Item>> {
  if (modifications.length === 0) invalid('patch', 'non-empty');
  const { transport, collectionId, itemId } = target;
  const request = { dataCollectionId: collectionId, patch: { dataItemId: itemId, fieldModifications: modifications } };
  const response = (await sendPublic(transport, operations.patchDataItem, request, options)) as {
    dataItem: DataItemOf<Item>;
  };
  return response.dataItem;
}
