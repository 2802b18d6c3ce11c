/** The patch builder (`items.patch(collectionId, itemId)`). */
import * as O from '../../generated/operations.js';
import type { Transport } from '../http/transport.js';
import { bad, str } from './filter.js';
import { D, exec } from './paging.js';
import type { PatchBuilder } from './types.js';

/**
 * An immutable patch of item `itemId`. Each method is named for its action (`setField` →
 * `SET_FIELD`, its value in `setFieldOptions`), so the table is derived rather than spelled out.
 */
export const patch = (t: Transport, id: string, itemId: string, mods: readonly object[] = []): PatchBuilder => {
  const b: any = {
    run: async (options?: object) =>
      (await exec(t, O.patchDataItem, { [D]: id, patch: { dataItemId: itemId, fieldModifications: mods[0] ? mods : bad('patch', 'non-empty') } }, options)).dataItem,
  };
  for (const name of ['setField', 'incrementField', 'appendToArray', 'removeFromArray', 'removeField'])
    b[name] = (fieldPath: unknown, value?: unknown) =>
      name[0] == 'i' && !Number.isFinite(value)
        ? bad(name, 'given a number')
        : patch(t, id, itemId, [
            ...mods,
            // Every action but removeField (the one name with `i` at index 7) carries a value.
            { fieldPath: str(fieldPath), action: name.replace(/[A-Z]/g, '_$&').toUpperCase(), ...(name[7] != 'i' && { [name + 'Options']: { value } }) },
          ]);
  return b;
};
