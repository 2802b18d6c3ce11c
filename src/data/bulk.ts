/** Bulk item writes and item references: the official result shapes over the bulk endpoints. */
import type { Transport } from '../http/transport.js';
import { invalid, requireArray, requireString } from '../input.js';
import { itemIdOf, sendPublic } from '../invoke.js';
import type { Operation } from '../operation.js';
import type { BulkError, BulkResult } from './types.js';

/** The bulk actions the service reports, and the counter and id list of each in the official result. */
const RESULT_FIELDS = {
  INSERT: { count: 'inserted', ids: 'insertedItemIds' },
  UPDATE: { count: 'updated', ids: 'updatedItemIds' },
  DELETE: { count: 'removed', ids: 'removedItemIds' },
} as const;

type BulkAction = keyof typeof RESULT_FIELDS;

/** One entry of a bulk response. */
interface BulkResponseEntry {
  action?: string;
  itemMetadata?: { id?: string; originalIndex?: number; success?: boolean; error?: { code?: string; description?: string } };
}

/** Maps bulk response entries to the official result; `assumedAction` stands for an entry that carries none. */
function bulkResult(entries: readonly BulkResponseEntry[], input: readonly unknown[], assumedAction?: BulkAction): BulkResult {
  const result: BulkResult = { inserted: 0, updated: 0, removed: 0, skipped: 0, errors: [], insertedItemIds: [], updatedItemIds: [], removedItemIds: [] };
  for (const { action = assumedAction, itemMetadata = {} } of entries) {
    const { error, success, originalIndex: index, id } = itemMetadata;
    if (error || success === false) {
      const failure: BulkError = { index, code: error?.code ?? 'UNKNOWN', message: error?.description ?? error?.code ?? 'failed', item: index === undefined ? undefined : input[index] };
      result.errors.push(failure);
      continue;
    }
    const fields = action !== undefined && Object.hasOwn(RESULT_FIELDS, action) ? RESULT_FIELDS[action as BulkAction] : undefined;
    if (!fields) {
      result.skipped++;
      continue;
    }
    result[fields.count]++;
    result[fields.ids].push(id as string);
  }
  return result;
}

/**
 * A bulk write method over `operation` (`bulk<Name>DataItems`). `DELETE` (bulkRemove) takes item
 * IDs, the others items; `action` is assumed for a response entry that carries none.
 */
export const bulkWrite =
  (transport: Transport, operation: Operation, action?: BulkAction) =>
  async (collectionId: string, entries: unknown, options?: object): Promise<BulkResult> => {
    const field = action === 'DELETE' ? 'dataItemIds' : 'dataItems';
    const list = requireArray(entries, field);
    const response = (await sendPublic(transport, operation, { dataCollectionId: collectionId, [field]: list }, options)) as { results?: BulkResponseEntry[] } | undefined;
    return bulkResult(response?.results ?? [], list, action);
  };

/** The ID of an item reference argument (the string itself, or the item's `_id`), checked. */
export const checkedItemId = (reference: unknown, field: string): string => requireString(itemIdOf(reference), field);

/** The referring side of a reference: the reference field and the referring item's ID, checked. */
export const referringSide = (field: unknown, referringItem: unknown) => ({
  referringItemFieldName: requireString(field, 'referringItemFieldName'),
  referringItemId: checkedItemId(referringItem, 'referringItemId'),
});

/** The references from `referringItem`'s `field` to one referenced item or to several; at least one. */
export function referencesOf(field: unknown, referringItem: unknown, referenced: unknown): { list: boolean; references: object[] } {
  const list = Array.isArray(referenced);
  const referencedItems: unknown[] = list ? referenced : [referenced];
  if (referencedItems.length === 0) invalid('referencedItemId', 'given');
  const side = referringSide(field, referringItem);
  return { list, references: referencedItems.map((item) => ({ ...side, referencedItemId: checkedItemId(item, 'referencedItemId') })) };
}
