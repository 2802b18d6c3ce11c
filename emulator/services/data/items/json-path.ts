/** Field names → SQLite JSON paths, and the item-data value kinds the filter language distinguishes. */
import { fieldPathSegments } from '../../../untrusted-json.js';

/**
 * `title` → `$."title"`, `address.city` → `$."address"."city"`. Each segment is quoted, so field
 * names never become path syntax; a name that cannot be quoted (a quote, a backslash, a control
 * character) or that names a prototype part is refused with a 400 (`untrusted-json.ts`).
 */
export function jsonPath(fieldName: unknown, requestField: string): string {
  return (
    '$' +
    fieldPathSegments(fieldName, requestField)
      .map((segment) => `."${segment}"`)
      .join('')
  );
}

/** What a value of item data is, in the filter language's terms. */
export type ValueKind = 'null' | 'string' | 'number' | 'boolean' | 'date' | 'array' | 'object';

/** `{"$date": "..."}`: a date in wire form. */
export const isDateValue = (value: unknown): value is { $date: string } =>
  typeof value == 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.keys(value).length == 1 &&
  typeof (value as { $date?: unknown }).$date == 'string';

/** The kind of a wire value. */
export function kindOf(value: unknown): ValueKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (isDateValue(value)) return 'date';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'object';
  }
}

/** A date's ISO form as stored (`toISOString()`), or `undefined` when it is not a date. */
export function normalDate(iso: string): string | undefined {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
