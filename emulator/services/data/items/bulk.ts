/**
 * Bulk operations: each entry succeeds or fails on its own, and the response lists every entry
 * in the production shape (`results` with `itemMetadata` or `referenceMetadata`, and
 * `bulkActionMetadata`).
 */
import { EmulatorError, invalidField } from '../../../errors.js';
import type { Store } from '../../../store/store.js';
import type { ItemAccess } from './access.js';
import { wireItem, type ItemData, type WireItem } from './item-store.js';
import type { ItemReference } from './reference-ops.js';

/** Most entries one bulk request may hold. */
const BULK_LIMIT = 1000;

/** The error of a failed entry, as bulk results carry it. */
interface EntryError {
  code: string;
  description: string;
  data?: Record<string, unknown>;
}

/** What became of one entry. */
type Outcome<Value> = { success: true; value: Value } | { success: false; error: EntryError };

/** Totals of a bulk response. */
interface BulkActionMetadata {
  totalSuccesses: number;
  totalFailures: number;
  undetailedFailures: number;
}

/** The list of a bulk request, checked (an array of at most {@link BULK_LIMIT}). */
export function bulkList(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(field, 'must be an array', 'REQUIRED_FIELD');
  if (value.length > BULK_LIMIT) throw invalidField(field, `must hold at most ${BULK_LIMIT} entries`, 'MAX_SIZE');
  return value;
}

/** The production error of a failed entry; anything but an EmulatorError is a bug and propagates. */
function entryError(error: unknown): EntryError {
  if (!(error instanceof EmulatorError)) throw error;
  const application = error.body.details.applicationError;
  if (application)
    return {
      code: application.code,
      description: application.description,
      ...(application.data ? { data: application.data } : {}),
    };
  return { code: 'INVALID_ARGUMENT', description: error.body.message };
}

/**
 * Runs `write` for each entry: a failing entry leaves nothing behind and is reported, and the
 * others go on (the request's transaction commits them together). With `savepoints`, each entry
 * runs in its own; without, each `write` must be atomic by itself: a single statement (SQLite
 * undoes a failed one), or its statements in a nested transaction, with its errors thrown before
 * or by the statement that writes (the item writes of writes.ts). A savepoint per entry was a
 * tenth of a bulk insert's time.
 */
function eachEntry<Value>(
  store: Store,
  entries: readonly unknown[],
  write: (entry: unknown, index: number) => Value,
  savepoints: boolean,
): Outcome<Value>[] {
  return entries.map((entry, index) => {
    try {
      return { success: true, value: savepoints ? store.transaction(() => write(entry, index)) : write(entry, index) };
    } catch (error) {
      return { success: false, error: entryError(error) };
    }
  });
}

function totals(outcomes: readonly Outcome<unknown>[]): BulkActionMetadata {
  const totalSuccesses = outcomes.filter((outcome) => outcome.success).length;
  return { totalSuccesses, totalFailures: outcomes.length - totalSuccesses, undetailedFailures: 0 };
}

/**
 * A bulk write of items: `results[].itemMetadata` (id, originalIndex, success, error) and the
 * item when `returnEntity`. `write` is atomic by itself (see {@link eachEntry}).
 */
export function bulkItems(
  access: ItemAccess,
  entries: readonly unknown[],
  write: (entry: unknown, index: number) => { action: string; data: ItemData },
  idOf: (entry: unknown) => string | undefined,
  returnEntity: boolean,
) {
  const outcomes = eachEntry(access.context.store, entries, write, false);
  const results = outcomes.map((outcome, index) => {
    if (!outcome.success) {
      const id = idOf(entries[index]);
      return { itemMetadata: { ...(id ? { id } : {}), originalIndex: index, success: false, error: outcome.error } };
    }
    const { action, data } = outcome.value;
    const result: { action: string; itemMetadata: object; dataItem?: WireItem } = {
      action,
      itemMetadata: { id: data._id, originalIndex: index, success: true },
    };
    if (returnEntity) result.dataItem = wireItem(access.collection.id, data);
    return result;
  });
  return { results, bulkActionMetadata: totals(outcomes) };
}

/** A bulk write of references: `results[].referenceMetadata` and the reference of each success. */
export function bulkReferences(
  store: Store,
  entries: readonly unknown[],
  action: 'INSERT' | 'DELETE',
  write: (entry: unknown, index: number) => ItemReference,
) {
  const outcomes = eachEntry(store, entries, write, true);
  const results = outcomes.map((outcome, index) =>
    outcome.success
      ? { action, referenceMetadata: { originalIndex: index, success: true }, dataItemReference: outcome.value }
      : { action, referenceMetadata: { originalIndex: index, success: false, error: outcome.error } },
  );
  return { results, bulkActionMetadata: totals(outcomes) };
}
