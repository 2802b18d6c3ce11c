/** `patch`: field modifications (SET_FIELD, REMOVE_FIELD, INCREMENT_FIELD, APPEND_TO_ARRAY, REMOVE_FROM_ARRAY) on one item. */
import { applicationError, invalidField } from '../../../errors.js';
import { scopeFor, type ItemAccess } from './access.js';
import { filterToSql } from './filter-sql.js';
import { SYSTEM_KEYS, normaliseValue, requireItem, type ItemData } from './item-store.js';
import { requireInScope } from './permissions.js';
import { rewriteItem } from './writes.js';
import { MAX_VALUE_DEPTH, checkStoredValue, fieldPathSegments, isRecord, ownValue } from '../../../untrusted-json.js';

/** One modification as the request carries it. */
interface FieldModification {
  fieldPath: string;
  action: string;
  setFieldOptions?: { value?: unknown };
  incrementFieldOptions?: { value?: unknown };
  appendToArrayOptions?: { value?: unknown };
  removeFromArrayOptions?: { value?: unknown };
}

/** A patch of one item. */
export interface ItemPatch {
  dataItemId: string;
  fieldModifications: FieldModification[];
}

/**
 * The object holding the last segment of `path`, created on the way when `create`. Walks own
 * properties only (the segments were checked too): a path never reaches a prototype.
 */
function parentOf(
  data: Record<string, unknown>,
  path: string[],
  create: boolean,
  at: string,
): Record<string, unknown> | undefined {
  let node = data;
  for (const segment of path.slice(0, -1)) {
    const child = ownValue(node, segment);
    if (child === undefined) {
      if (!create) return undefined;
      node[segment] = {};
    } else if (!isRecord(child)) throw invalidField(at, `${segment} is not an object`);
    node = node[segment] as Record<string, unknown>;
  }
  return node;
}

/** Applies one modification to `data` (a deep copy the caller owns). */
function apply(data: Record<string, unknown>, modification: FieldModification, at: string): void {
  const { fieldPath, action } = modification;
  const path = fieldPathSegments(fieldPath, `${at}.fieldPath`);
  // The item's data is level 1, so the field sits at level path.length + 1.
  if (path.length >= MAX_VALUE_DEPTH)
    throw invalidField(`${at}.fieldPath`, `nests deeper than ${MAX_VALUE_DEPTH} levels`, 'VALIDATION');
  if ((SYSTEM_KEYS as readonly string[]).includes(path[0]!))
    throw invalidField(
      `${at}.fieldPath`,
      `${path[0]} is set by the service and cannot be patched`,
      'FIELD_NOT_ALLOWED',
    );
  const last = path[path.length - 1]!;
  const value = (options: { value?: unknown } | undefined, name: string) => {
    if (options?.value === undefined) throw invalidField(`${at}.${name}.value`, 'must not be empty', 'REQUIRED_FIELD');
    // An appended element sits one level below its array.
    const depth = path.length + (name == 'appendToArrayOptions' ? 2 : 1);
    checkStoredValue(options.value, `${at}.${name}.value`, depth);
    return normaliseValue(options.value, `${at}.${name}.value`);
  };
  switch (action) {
    case 'SET_FIELD':
      parentOf(data, path, true, at)![last] = value(modification.setFieldOptions, 'setFieldOptions');
      return;
    case 'REMOVE_FIELD': {
      const parent = parentOf(data, path, false, at);
      if (parent && Object.hasOwn(parent, last)) delete parent[last];
      return;
    }
    case 'INCREMENT_FIELD': {
      const amount = value(modification.incrementFieldOptions, 'incrementFieldOptions');
      if (typeof amount != 'number') throw invalidField(`${at}.incrementFieldOptions.value`, 'must be a number');
      const parent = parentOf(data, path, true, at)!;
      const current = ownValue(parent, last) ?? 0;
      if (typeof current != 'number') throw invalidField(`${at}.fieldPath`, `${fieldPath} is not a number`);
      // Past the largest double the sum is Infinity, which JSON stores as null.
      if (!Number.isFinite(current + amount))
        throw invalidField(`${at}.incrementFieldOptions.value`, `takes ${fieldPath} past the largest number`);
      parent[last] = current + amount;
      return;
    }
    case 'APPEND_TO_ARRAY':
    case 'REMOVE_FROM_ARRAY': {
      const appending = action == 'APPEND_TO_ARRAY';
      const element = value(
        appending ? modification.appendToArrayOptions : modification.removeFromArrayOptions,
        appending ? 'appendToArrayOptions' : 'removeFromArrayOptions',
      );
      const parent = parentOf(data, path, appending, at);
      if (!parent) return;
      const current = ownValue(parent, last) ?? [];
      if (!Array.isArray(current)) throw invalidField(`${at}.fieldPath`, `${fieldPath} is not an array`);
      const text = JSON.stringify(element);
      parent[last] = appending ? [...current, element] : current.filter((entry) => JSON.stringify(entry) != text);
      return;
    }
    default:
      throw invalidField(`${at}.action`, `unknown action ${String(action)}`, 'INVALID_ENUM_VALUE');
  }
}

/** Patches one item; `WDE0073` when missing. `condition`, when given, must match the item. */
export function patchItem(access: ItemAccess, patch: ItemPatch | undefined, at: string, condition?: unknown): ItemData {
  if (!isRecord(patch)) throw invalidField(at, 'must not be empty', 'REQUIRED_FIELD');
  const scope = scopeFor(access, 'update');
  const { context, collection } = access;
  if (typeof patch.dataItemId != 'string' || !patch.dataItemId)
    throw invalidField(`${at}.dataItemId`, 'must not be empty', 'REQUIRED_FIELD');
  if (!Array.isArray(patch.fieldModifications) || !patch.fieldModifications.length)
    throw invalidField(`${at}.fieldModifications`, 'must hold at least one modification', 'MIN_SIZE');
  const current = requireItem(context.store, collection.id, patch.dataItemId);
  requireInScope(collection, scope, 'update', current);
  if (condition !== undefined && condition !== null) {
    const where = filterToSql(condition, 'items.data', 'condition');
    const matches = context.store.get(
      'SELECT 1 FROM items WHERE collection_id = ? AND id = ? AND ' + `(${where.sql})`,
      [collection.id, current._id, ...where.params],
    );
    if (!matches)
      throw applicationError(409, 'CONDITION_NOT_MET', `Item ${current._id} does not match the patch condition`, {
        itemId: current._id,
      });
  }
  const data = structuredClone(current) as Record<string, unknown>;
  for (const [index, modification] of patch.fieldModifications.entries())
    apply(data, modification, `${at}.fieldModifications.${index}`);
  return rewriteItem(access, current, data);
}
