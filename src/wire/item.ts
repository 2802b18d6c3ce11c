/**
 * Codec `I`: one data item. Public `{_id, _createdDate, _updatedDate, _owner, ...fields}` ↔ wire
 * `{id, data: {_id, ...fields}}` (responses add `dataCollectionId`), with item-data dates.
 */
import type { Codec } from './codec.js';
import { decodeItemData, encodeItemData } from './item-data.js';
import { isPlainObject, type PlainObject } from './plain.js';

/** Wire form of an item: all public fields go in `data`; `id` only when `_id` is known (inserts may omit it). */
export function encodeItem(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const data = encodeItemData(value);
  return value._id == null ? { data } : { id: value._id, data };
}

/**
 * Public form of a wire item: its decoded `data`, with `_id` taken from `id` when `data` lacks it
 * (the service may answer with the id only beside the data).
 */
export function decodeItem(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const data = decodeItemData(isPlainObject(value.data) ? value.data : {}) as PlainObject;
  return data._id === undefined && value.id != null ? { ...data, _id: value.id } : data;
}

/** Public item ↔ `{id, data}`. */
export const itemCodec: Codec = [encodeItem, decodeItem];
