/**
 * Codec `x`: free-form item data (item fields, filters, aggregate rows, patch values), where dates
 * travel as `{"$date": "<ISO-8601>"}` because the JSON carries no schema to say which strings are dates.
 */
import type { Codec } from './codec.js';
import { formatDate, parseDate } from './date.js';
import { isPlainObject, mapArray, mapEntries } from './plain.js';

/** Deep copy of `value` along the paths that hold a `Date`, each replaced by `{$date: iso}`. */
export function encodeItemData(value: unknown): unknown {
  if (value instanceof Date) {
    const iso = formatDate(value);
    return iso === undefined ? value : { $date: iso };
  }
  if (Array.isArray(value)) return mapArray(value, encodeItemData);
  return isPlainObject(value) ? mapEntries(value, (key, v) => [key, encodeItemData(v)]) : value;
}

/**
 * Deep copy of `value` along the paths that hold an object that is exactly `{$date: string}`, each
 * replaced by a `Date`. One that does not parse stays an object: data is never dropped.
 */
export function decodeItemData(value: unknown): unknown {
  if (Array.isArray(value)) return mapArray(value, decodeItemData);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === '$date') {
    const date = parseDate(value.$date);
    if (date) return date;
  }
  return mapEntries(value, (key, v) => [key, decodeItemData(v)]);
}

/** `Date` ↔ `{$date: iso}` at any depth. */
export const itemDataCodec: Codec = [encodeItemData, decodeItemData];
