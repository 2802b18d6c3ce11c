/**
 * Bulk item writes: the official result shape over the bulk endpoints. Loaded on the first bulk
 * call (most pages never make one), through `bulkWrite` and `bulkPatch` in ./items.ts.
 */
import { bulkPatchDataItems } from '../../generated/operations/bulkPatchDataItems.js';
import type { Transport } from '../http/transport.js';
import { invalid, requireArray, requireObject, requireString } from '../input.js';
import { sendPublic } from '../invoke.js';
import type { Operation } from '../operation.js';
import { fieldModification, PATCH_ACTIONS } from './patch.js';
import type { BulkError, BulkPatchOptions, BulkResult } from './types.js';

/** The bulk actions the service reports, and the counter and id list of each in the official result. */
const RESULT_FIELDS = {
  INSERT: { count: 'inserted', ids: 'insertedItemIds' },
  UPDATE: { count: 'updated', ids: 'updatedItemIds' },
  PATCH: { count: 'updated', ids: 'updatedItemIds' },
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

/** The actions a field modification may name, as the official `FieldModification` spells them. */
const MODIFICATION_ACTIONS = Object.values(PATCH_ACTIONS);

/** One official field modification (`{fieldPath, action, value?}`) in the wire form, checked. */
function wireModification(modification: unknown, index: number) {
  const field = `fieldModifications.${index}`;
  const { fieldPath, action, value } = requireObject(modification, field, 'bulkPatch');
  const known = MODIFICATION_ACTIONS.find((entry) => entry.action === action);
  if (!known)
    invalid(`${field}.action`, `one of ${MODIFICATION_ACTIONS.map((entry) => entry.action).join(', ')}`, 'bulkPatch');
  return fieldModification(known, fieldPath, value);
}

/**
 * `items.bulkPatch(collectionId, itemIds, fieldModifications, options)`: the same field
 * modifications (at least one, in the official form) applied to each of the items, in one request;
 * resolves with the official bulk result (a patched item counts as updated).
 */
export async function bulkPatch(
  transport: Transport,
  collectionId: string,
  itemIds: unknown,
  modifications: unknown,
  options?: BulkPatchOptions,
): Promise<BulkResult> {
  const fieldModifications = requireArray(modifications, 'fieldModifications', 'bulkPatch').map(wireModification);
  if (fieldModifications.length === 0) invalid('fieldModifications', 'non-empty', 'bulkPatch');
  return patchItems(transport, collectionId, itemIds, fieldModifications, options);
}

/**
 * The same field modifications, in the wire form, applied to each of the items in one request: the
 * direct form's request, and the builder form's (`bulkPatch(collectionId, itemIds).setField(...).run()`).
 */
export async function patchItems(
  transport: Transport,
  collectionId: string,
  itemIds: unknown,
  fieldModifications: readonly object[],
  options?: object,
): Promise<BulkResult> {
  const ids = requireArray(itemIds, 'itemIds', 'bulkPatch').map((id) => requireString(id, 'itemIds', 'bulkPatch'));
  const patches = ids.map((dataItemId) => ({ dataItemId, fieldModifications }));
  const response = (await sendPublic(
    transport,
    bulkPatchDataItems,
    { dataCollectionId: collectionId, patches },
    options,
  )) as { results?: BulkResponseEntry[] } | undefined;
  return bulkResult(response?.results ?? [], ids, 'PATCH');
}
