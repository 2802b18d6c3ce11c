/**
 * Bulk operations: each entry succeeds or fails on its own, and the response lists every entry
 * in the production shape (`results` with `itemMetadata`, `bulkActionMetadata`).
 */
import { EmulatorError, invalidField } from '../../../errors.js';
import type { ItemAccess } from './access.js';
import { wireItem, type ItemData, type WireItem } from './item-store.js';

/** Most entries one bulk request may hold. */
export const BULK_LIMIT = 1000;

/** One entry's outcome. */
interface BulkEntry {
  action?: string;
  itemMetadata: { id?: string; originalIndex: number; success: boolean; error?: { code: string; description: string; data?: Record<string, unknown> } };
  dataItem?: WireItem;
}

/** The list of a bulk request, checked (an array of at most {@link BULK_LIMIT}). */
export function bulkList(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(field, 'must be an array', 'REQUIRED_FIELD');
  if (value.length > BULK_LIMIT) throw invalidField(field, `must hold at most ${BULK_LIMIT} entries`, 'MAX_SIZE');
  return value;
}

/** The production error of a failed entry; anything but an EmulatorError is a bug and propagates. */
function entryError(error: unknown) {
  if (!(error instanceof EmulatorError)) throw error;
  const application = error.body.details.applicationError;
  if (application) return { code: application.code, description: application.description, ...(application.data ? { data: application.data } : {}) };
  return { code: 'INVALID_ARGUMENT', description: error.body.message };
}

/**
 * Runs `write` for each entry. A failing entry is reported and the others go on; entries that
 * succeeded stay written (the request's transaction commits them together).
 */
export function runBulk(
  access: ItemAccess,
  entries: readonly unknown[],
  write: (entry: unknown, index: number) => { action: string; data: ItemData },
  idOf: (entry: unknown) => string | undefined,
  returnEntity: boolean,
): { results: BulkEntry[]; bulkActionMetadata: { totalSuccesses: number; totalFailures: number; undetailedFailures: number } } {
  const results = entries.map((entry, index): BulkEntry => {
    try {
      const { action, data } = write(entry, index);
      const result: BulkEntry = { action, itemMetadata: { id: data._id, originalIndex: index, success: true } };
      if (returnEntity) result.dataItem = wireItem(access.collection.id, data);
      return result;
    } catch (error) {
      const id = idOf(entry);
      return { itemMetadata: { ...(id ? { id } : {}), originalIndex: index, success: false, error: entryError(error) } };
    }
  });
  const totalSuccesses = results.filter((result) => result.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses, totalFailures: results.length - totalSuccesses, undetailedFailures: 0 } };
}
