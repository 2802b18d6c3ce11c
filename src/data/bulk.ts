/** Bulk item writes and item references: the official result shapes over the bulk endpoints. */
import type { Operation } from '../operation.js';
import type { Transport } from '../http/transport.js';
import { bad, isArray, str } from './filter.js';
import { D, exec } from './paging.js';
import type { BulkResult } from './types.js';

const KEYS: Record<string, string> = { INSERT: 'inserted', UPDATE: 'updated', DELETE: 'removed' };

/**
 * A bulk write method over `op` (`bulk<Name>DataItems`): maps `{results: [{action,
 * itemMetadata}]}` to `{inserted, updated, removed, skipped, errors, ...ItemIds}`. `action` is
 * assumed when a result carries none; `DELETE` (bulkRemove) takes item IDs, the others items.
 */
export const bulk =
  (t: Transport, op: Operation, action?: string) =>
  async (id: unknown, list: unknown, options?: object): Promise<BulkResult> => {
    const key = 'dataItem' + (action == 'DELETE' ? 'Ids' : 's');
    if (!isArray(list)) bad(key, 'an array');
    const out: any = { skipped: 0, errors: [] };
    for (const k in KEYS) (out[KEYS[k]!] = 0), (out[KEYS[k]! + 'ItemIds'] = []);
    for (const { action: a = action, itemMetadata: { error: e, success, originalIndex: index, id: itemId } = {} as any } of (await exec(t, op, { [D]: id, [key]: list }, options)).results ?? []) {
      const k = KEYS[a];
      if (e || success === false) out.errors.push({ index, code: e?.code ?? 'UNKNOWN', message: e?.description ?? e?.code ?? 'failed', item: (list as unknown[])[index] });
      else if (k) out[k]++, out[k + 'ItemIds'].push(itemId);
      else out.skipped++;
    }
    return out;
  };

/** `{[field]: id}`: the ID of an item reference argument (the string itself, or the item's `_id`), checked. */
export const idOf = (field: string, ref: any) => ({ [field]: str(ref?._id ?? ref, field) });

/** The referring side of a reference: the reference field and the referring item's ID, checked. */
export const referring = (field: unknown, left: unknown) => ({ referringItemFieldName: str(field), ...idOf('referringItemId', left) });

/**
 * `insertReference`/`removeReference`: one referenced item goes to `one`
 * (`<name>DataItemReference`), a list to `many` (`bulk<Name>DataItemReferences`). Resolves with
 * nothing, as the official methods do.
 */
export const reference =
  (t: Transport, one: Operation, many: Operation) =>
  async (id: unknown, field: unknown, left: unknown, right: unknown, options?: object): Promise<void> => {
    const list = isArray(right);
    const refs = (list ? right : [right]).map((r) => ({ ...referring(field, left), ...idOf('referencedItemId', r) }));
    await exec(t, list ? many : one, { [D]: id, ['dataItemReference' + (list ? 's' : '')]: refs[0] ? (list ? refs : refs[0]) : bad('referencedItemId', 'given') }, options);
  };
