/**
 * The patch builders (`items.patch(collectionId, itemId)`, and `items.bulkPatch(collectionId,
 * itemIds)`'s builder form) and the run of a one-item patch.
 */
import { patchDataItem } from '../../generated/operations/patchDataItem.js';
import type { Transport } from '../http/transport.js';
import { invalid, requireString } from '../input.js';
import { sendPublic } from '../invoke.js';

/** What a patch's `run(options)` does with its modifications (wire form, at least one). */
export type ApplyPatch = (modifications: readonly object[], options?: object) => Promise<unknown>;

/** The patch methods, and the wire action of each, with the field holding its value (none for removeField). */
export const PATCH_ACTIONS = {
  setField: { action: 'SET_FIELD', valueIn: 'setFieldOptions' },
  incrementField: { action: 'INCREMENT_FIELD', valueIn: 'incrementFieldOptions' },
  appendToArray: { action: 'APPEND_TO_ARRAY', valueIn: 'appendToArrayOptions' },
  removeFromArray: { action: 'REMOVE_FROM_ARRAY', valueIn: 'removeFromArrayOptions' },
  removeField: { action: 'REMOVE_FIELD', valueIn: undefined },
} as const;

/** One field modification in the wire form: `action` on `fieldPath`, carrying `value` when the action takes one. */
export const fieldModification = (
  { action, valueIn }: (typeof PATCH_ACTIONS)[keyof typeof PATCH_ACTIONS],
  fieldPath: unknown,
  value?: unknown,
) => ({ fieldPath: requireString(fieldPath, 'fieldPath'), action, ...(valueIn && { [valueIn]: { value } }) });

/**
 * An immutable patch: each method returns a new patch with one more modification; `run` applies
 * them (at least one) by its `apply`, which decides what is patched (one item, or several).
 */
export class Patch {
  constructor(
    private readonly apply: ApplyPatch,
    private readonly modifications: readonly object[] = [],
  ) {}

  /** The patch with one more modification: `method`'s action on `fieldPath`, carrying `value` when the action takes one. */
  private modify(method: keyof typeof PATCH_ACTIONS, fieldPath: unknown, value?: unknown): Patch {
    return new Patch(this.apply, [...this.modifications, fieldModification(PATCH_ACTIONS[method], fieldPath, value)]);
  }

  /** Sets a field to a value. */
  setField(fieldPath: string, value: unknown): Patch {
    return this.modify('setField', fieldPath, value);
  }
  /** Adds a number to a number field (negative to subtract). */
  incrementField(fieldPath: string, by: number): Patch {
    return Number.isFinite(by)
      ? this.modify('incrementField', fieldPath, by)
      : invalid('by', 'a finite number', 'incrementField');
  }
  /** Appends a value to an array field. */
  appendToArray(fieldPath: string, value: unknown): Patch {
    return this.modify('appendToArray', fieldPath, value);
  }
  /** Removes every occurrence of a value from an array field. */
  removeFromArray(fieldPath: string, value: unknown): Patch {
    return this.modify('removeFromArray', fieldPath, value);
  }
  /** Removes a field. */
  removeField(fieldPath: string): Patch {
    return this.modify('removeField', fieldPath);
  }
  /** Applies the modifications (at least one). */
  async run(options?: object): Promise<unknown> {
    if (this.modifications.length === 0) invalid('patch', 'non-empty');
    return this.apply(this.modifications, options);
  }
}

/** `items.patch(collectionId, itemId)`'s apply: the modifications on one item; resolves with the patched item. */
export const patchItem =
  (transport: Transport, collectionId: string, itemId: string): ApplyPatch =>
  async (fieldModifications, options) => {
    const request = { dataCollectionId: collectionId, patch: { dataItemId: itemId, fieldModifications } };
    return ((await sendPublic(transport, patchDataItem, request, options)) as { dataItem: unknown }).dataItem;
  };
