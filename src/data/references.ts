/**
 * The item reference methods of `client.items` (`queryReferenced`, `insertReference`,
 * `removeReference`), given a checked collection ID. Loaded on the first call of one, through
 * ./items.ts: most pages never make one.
 */
import { bulkInsertDataItemReferences } from '../../generated/operations/bulkInsertDataItemReferences.js';
import { bulkRemoveDataItemReferences } from '../../generated/operations/bulkRemoveDataItemReferences.js';
import { insertDataItemReference } from '../../generated/operations/insertDataItemReference.js';
import { queryReferencedDataItems } from '../../generated/operations/queryReferencedDataItems.js';
import type { Transport } from '../http/transport.js';
import type * as M from '../../generated/models.js';
import { invalid, requireString } from '../input.js';
import { itemIdOf, sendPublic } from '../invoke.js';
import type { CallOptions } from '../types.js';
import { fetchPages, limitOf, skipOf } from './paging.js';
import type {
  DataItemOf,
  ItemRef,
  PagedResult,
  QueryReferencedItemsOptions,
  QueryReferencedOptions,
  ReferencedItemsPage,
  ReferencedResult,
} from './types.js';

/** The ID of an item reference argument (the string itself, or the item's `_id`), checked. */
export const checkedItemId = (reference: unknown, field: string): string => requireString(itemIdOf(reference), field);

/** The referring side of a reference: the reference field and the referring item's ID, checked. */
export const referringSide = (field: unknown, referringItem: unknown) => ({
  referringItemFieldName: requireString(field, 'referringItemFieldName'),
  referringItemId: checkedItemId(referringItem, 'referringItemId'),
});

/** The references from `referringItem`'s `field` to one referenced item or to several; at least one. */
export function referencesOf(
  field: unknown,
  referringItem: unknown,
  referenced: unknown,
): { list: boolean; references: object[] } {
  const list = Array.isArray(referenced);
  const referencedItems: unknown[] = list ? referenced : [referenced];
  if (referencedItems.length === 0) invalid('referencedItemId', 'given');
  const side = referringSide(field, referringItem);
  return {
    list,
    references: referencedItems.map((item) => ({ ...side, referencedItemId: checkedItemId(item, 'referencedItemId') })),
  };
}

/** `items.queryReferenced`: the items a reference field of an item refers to, as a paged result. */
export function queryReferenced<T extends object>(
  transport: Transport,
  collectionId: string,
  itemId: ItemRef,
  field: string,
  options?: QueryReferencedOptions,
): Promise<PagedResult<DataItemOf<T>>> {
  const { limit, skip = 0, ...rest } = options ?? {};
  return fetchPages(
    {
      transport,
      operation: queryReferencedDataItems,
      base: { dataCollectionId: collectionId, ...referringSide(field, itemId) },
      rest: {},
      entries: (response) =>
        (response.results as { dataItem?: unknown }[] | undefined)?.flatMap((result) => result.dataItem ?? []),
      options: rest,
    },
    { limit: limitOf(limit), skip: skipOf(skip) },
  );
}

/** One wire result of `queryReferencedDataItems` (its item already in the public form). */
interface WireReferencedResult {
  referringItemId?: string;
  dataItem?: unknown;
  unresolvedReference?: { referencedItemId?: string; referringItemId?: string; unauthorized?: boolean };
}

/** A wire result in the official shape: the item, or the reference that did not resolve. */
const referencedResult = <T>({ referringItemId, dataItem, unresolvedReference }: WireReferencedResult) =>
  (dataItem
    ? { referringItemId, item: dataItem }
    : {
        referringItemId: referringItemId ?? unresolvedReference?.referringItemId,
        unresolvedReference: {
          referencedItemId: unresolvedReference?.referencedItemId,
          unauthorized: unresolvedReference?.unauthorized ?? false,
        },
      }) as ReferencedResult<T>;

/**
 * `items.queryReferencedItems`, the official form: one page of the items the reference field
 * `field` of one referring item or of several refers to (theirs one after the other), each result
 * with its referring item's ID; paged by `options.paging` or `options.cursorPaging`.
 */
export async function queryReferencedItems<T extends object>(
  transport: Transport,
  collectionId: string,
  referringItem: ItemRef | readonly ItemRef[],
  field: string,
  options?: QueryReferencedItemsOptions,
): Promise<ReferencedItemsPage<DataItemOf<T>>> {
  const referringItems: readonly unknown[] = Array.isArray(referringItem) ? referringItem : [referringItem];
  if (referringItems.length === 0) invalid('referringItemIds', 'given', 'queryReferencedItems');
  const request = {
    dataCollectionId: collectionId,
    referringItemIds: referringItems.map((item) => checkedItemId(item, 'referringItemIds')),
    referringItemFieldName: requireString(field, 'referringItemFieldName', 'queryReferencedItems'),
  };
  const response = (await sendPublic(transport, queryReferencedDataItems, request, options)) as {
    results?: WireReferencedResult[];
    pagingMetadata?: M.PagingMetadata;
  };
  return {
    results: (response.results ?? []).map((result) => referencedResult<DataItemOf<T>>(result)),
    pagingMetadata: response.pagingMetadata ?? {},
  };
}

/** `items.insertReference`: one referenced item goes to the single insert route, several to the bulk one. */
export async function insertReference(
  transport: Transport,
  collectionId: string,
  field: string,
  referringItem: ItemRef,
  referenced: ItemRef | readonly ItemRef[],
  options?: CallOptions,
): Promise<void> {
  const dataCollectionId = collectionId;
  const { list, references } = referencesOf(field, referringItem, referenced);
  const request = list
    ? { dataCollectionId, dataItemReferences: references }
    : { dataCollectionId, dataItemReference: references[0] };
  await sendPublic(transport, list ? bulkInsertDataItemReferences : insertDataItemReference, request, options);
}

/** `items.removeReference`: always the bulk form (one or many references), as the official client sends it. */
export async function removeReference(
  transport: Transport,
  collectionId: string,
  field: string,
  referringItem: ItemRef,
  referenced: ItemRef | readonly ItemRef[],
  options?: CallOptions,
): Promise<void> {
  const dataCollectionId = collectionId;
  const { references } = referencesOf(field, referringItem, referenced);
  await sendPublic(
    transport,
    bulkRemoveDataItemReferences,
    { dataCollectionId, dataItemReferences: references },
    options,
  );
}
