/** The patch builder (`items.patch(collectionId, itemId)`). */
import { invalid, requireString } from '../input.js';
import { loadOnFirstUse } from '../lazy.js';
import type { Item } from '../types.js';
import type { PatchTarget } from './item-requests.js';
import type { DataItemOf, PatchBuilder, PatchOptions } from './types.js';

// Running a patch loads on the first run (see ./item-requests.ts).
const loadItemRequests = loadOnFirstUse(() => import('./item-requests.js'));

/** The patch methods, and the wire action of each, with the field holding its value (none for removeField). */
const PATCH_ACTIONS = {
  setField: { action: 'SET_FIELD', valueIn: 'setFieldOptions' },
  incrementField: { action: 'INCREMENT_FIELD', valueIn: 'incrementFieldOptions' },
  appendToArray: { action: 'APPEND_TO_ARRAY', valueIn: 'appendToArrayOptions' },
  removeFromArray: { action: 'REMOVE_FROM_ARRAY', valueIn: 'removeFromArrayOptions' },
  removeField: { action: 'REMOVE_FIELD', valueIn: undefined },
} as const;

/** An immutable patch of one item: each method returns a new patch with one more modification. */
export class Patch implements PatchBuilder<Item> {
  constructor(
    private readonly target: PatchTarget,
    private readonly modifications: readonly object[] = [],
  ) {}

  /** The patch with one more modification: `method`'s action on `fieldPath`, carrying `value` when the action takes one. */
  private modify(method: keyof typeof PATCH_ACTIONS, fieldPath: unknown, value?: unknown): Patch {
    const { action, valueIn } = PATCH_ACTIONS[method];
    const modification = {
      fieldPath: requireString(fieldPath, 'fieldPath'),
      action,
      ...(valueIn && { [valueIn]: { value } }),
    };
    return new Patch(this.target, [...this.modifications, modification]);
  }

  /** Sets a field to a value. */
  setField(fieldPath: string, value: unknown): Patch {
    return this.modify('setField', fieldPath, value);
  }
  /** Adds a number to a number field (negative to subtract). */
  incrementField(fieldPath: string, by: number): Patch {
    return Number.isFinite(by)
      ? this.modify('incrementField', fieldPath, by)
      : invalid('incrementField', 'given a number');
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
  /** Applies the modifications; resolves with the patched item. */
  async run(options?: PatchOptions): Promise<DataItemOf<Item>> {
    return (await loadItemRequests()).runPatch(this.target, this.modifications, options);
  }
}
