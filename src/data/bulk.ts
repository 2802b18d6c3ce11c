/** Bulk item writes and item references: the official result shapes over the bulk endpoints. */
import { operations as O } from '../../generated/operations.js';
import type { Operation } from '../../generated/request.js';
import type { Transport } from '../http/transport.js';
import { bad, str } from './filter.js';
import { D, exec } from './paging.js';
import type { BulkResult } from './types.js';

const KEYS: Record<string, string> = { INSERT: 'inserted', UPDATE: 'updated', DELETE: 'removed' };

/**
 * The bulk write method `bulk<Name>` (`Insert`, `Update`, `Save`, `Remove`) over
 * `bulk<Name>DataItems`: maps `{results: [{action, itemMetadata}]}` to `{inserted, updated,
 * removed, skipped, errors, ...ItemIds}`. `action` is assumed when a result carries none.
 */
export const bulk =
  (t: Transport, cid: (id: unknown) => string, name: string, action?: string) =>
  async (id: unknown, list: unknown, options?: object): Promise<BulkResult> => {
    const key = name == 'Remove' ? 'dataItemIds' : 'dataItems';
    const op = (O as Record<string, Operation>)[`bulk${name}DataItems`]!;
    if (!Array.isArray(list)) bad(key + ' must be an array', key);
    const out: any = { skipped: 0, errors: [] };
    for (const k in KEYS) (out[KEYS[k]!] = 0), (out[KEYS[k]! + 'ItemIds'] = []);
    for (const { action: a = action, itemMetadata: m = {} } of (await exec(t, op, { [D]: cid(id), [key]: list }, options)).results ?? []) {
      const e = m.error ?? {};
      const k = KEYS[a];
      if (m.error || m.success === false)
        out.errors.push({ index: m.originalIndex, code: e.code ?? 'UNKNOWN', message: e.description ?? e.code ?? 'failed', item: (list as unknown[])[m.originalIndex] });
      else if (k) out[k]++, out[k + 'ItemIds'].push(m.id);
      else out.skipped++;
    }
    return out;
  };

/** The ID of an item reference argument: the string itself, or the item's `_id`. */
export const idOf = (ref: any, field: string): string => str(ref?._id ?? ref, field);

/**
 * `insertReference`/`removeReference` (`name` `Insert`/`Remove`): one referenced item goes to
 * `<name>DataItemReference`, a list to `bulk<Name>DataItemReferences`. Resolves with nothing, as
 * the official methods do.
 */
export const reference =
  (t: Transport, cid: (id: unknown) => string, name: string) =>
  async (id: unknown, field: unknown, left: unknown, right: unknown, options?: object): Promise<void> => {
    const ref = (r: unknown) => ({ referringItemFieldName: str(field), referringItemId: idOf(left, 'referringItemId'), referencedItemId: idOf(r, 'referencedItemId') });
    const list = Array.isArray(right);
    await exec(
      t,
      (O as Record<string, Operation>)[list ? `bulk${name}DataItemReferences` : name.toLowerCase() + 'DataItemReference']!,
      { [D]: cid(id), ...(list ? { dataItemReferences: right[0] ? right.map(ref) : bad('referencedItemId must not be empty', 'referencedItemId') } : { dataItemReference: ref(right) }) },
      options,
    );
  };
