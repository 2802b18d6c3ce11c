/** The patch builder (`items.patch(collectionId, itemId)`) and its run. */
import { patchDataItem } from '../../generated/operations/patchDataItem.js';
import type { Transport } from '../http/transport.js';
import { invalid, requireString } from '../input.js';
import { sendPublic } from '../invoke.js';
import type { Item } from '../types.js';
import type { DataItemOf, PatchBuilder, PatchOptions } from './types.js';

/** Where a patch applies. */
export interface PatchTarget {
  readonly transport: Transport;
  readonly collectionId: string;
  readonly itemId: string;
}

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

/** An immutable patch of one item: each method returns a new patch with one more modification. */
export class Patch implements PatchBuilder<Item> {
  constructor(
    private readonly target: PatchTarget,
    private readonly modifications: readonly object[] = [],
  ) {}

  /** The patch with one more modification: `method`'s action on `fieldPath`, carrying `value` when the action takes one. */
  private modify(method: keyof typeof PATCH_ACTIONS, fieldPath: unknown, value?: unknown): Patch {
    return new Patch(this.target, [...this.modifications, fieldModification(PATCH_ACTIONS[method], fieldPath, value)]);
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
  /** Applies the modifications (at least one); resolves with the patched item. */
  async run(options?: PatchOptions): Promise<DataItemOf<Item>> {
    if (this.modifications.length === 0) invalid('patch', 'non-empty');
    const { transport, collectionId, itemId } = this.target;
    const request = {
      dataCollectionId: collectionId,
      patch: { dataItemId: itemId, fieldModifications: this.modifications },
    };
    const response = (await sendPublic(transport, patchDataItem, request, options)) as {
      dataItem: DataItemOf<Item>;
    };
    return response.dataItem;
  }
}
