/**
 * Bulk item writes: the official result shape over the bulk endpoints. Loaded on the first bulk
 * call (most pages never make one), through `bulkWrite` in ./items.ts.
 */
import type { Transport } from '../http/transport.js';
import { requireArray } from '../input.js';
import { sendPublic } from '../invoke.js';
import type { Operation } from '../operation.js';
import type { BulkError, BulkResult } from './types.js';

/** The bulk actions the service reports, and the counter and id list of each in the official result. */
const RESULT_FIELDS = {
  INSERT: { count: 'inserted', ids: 'insertedItemIds' },
  UPDATE: { count: 'updated', ids: 'updatedItemIds' },
  DELETE: { count: 'removed', ids: 'removedItemIds' },
} as const;

/** A bulk action: the one a bulk write method assumes for an entry that names none. */
export type BulkAction = keyof typeof RESULT_FIELDS;

/** One entry of a bulk response. */
interface BulkResponseEntry {
  action?: string;
  itemMetadata?: {
    id?: string;
    originalIndex?: number;
    success?: boolean;
    error?: { code?: string; description?: string };
  };
}

/** Maps bulk response entries to the official result; `assumedAction` stands for an entry that carries none. */
function bulkResult(
  entries: readonly BulkResponseEntry[],
  input: readonly unknown[],
  assumedAction?: BulkAction,
): BulkResult {
  const result: BulkResult = {
    inserted: 0,
    updated: 0,
    removed: 0,
    skipped: 0,
    errors: [],
    insertedItemIds: [],
    updatedItemIds: [],
    removedItemIds: [],
  };
  for (const { action = assumedAction, itemMetadata = {} } of entries) {
    const { error, success, originalIndex: index, id } = itemMetadata;
    if (error || success === false) {
      const failure: BulkError = {
        index,
        code: error?.code ?? 'UNKNOWN',
        message: error?.description ?? error?.code ?? 'failed',
        item: index === undefined ? undefined : input[index],
      };
      result.errors.push(failure);
      continue;
    }
    const fields =
      action !== undefined && Object.hasOwn(RESULT_FIELDS, action) ? RESULT_FIELDS[action as BulkAction] : undefined;
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
    const response = (await sendPublic(
      transport,
      operation,
      { dataCollectionId: collectionId, [field]: list },
      options,
    )) as { results?: BulkResponseEntry[] } | undefined;
    return bulkResult(response?.results ?? [], list, action);
  };
