/** Codec `d`: date-time fields, ISO-8601 strings on the wire and `Date` in the public form. */
import type { Codec } from './codec.js';

// Demands an ISO-8601 date at the start: `Date.parse` alone accepts loose forms ("foo 1") that
// would turn arbitrary strings into dates. Extended years (`+010000-01-01`) are ISO too.
const ISO_DATE = /^[+-]?\d{4,6}-\d\d-\d\d/;

/** Parses an ISO-8601 string into a `Date`; `undefined` for anything else or an invalid date. */
export function parseDate(value: unknown): Date | undefined {
  if (typeof value !== 'string' || !ISO_DATE.test(value)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** ISO-8601 string of a valid `Date`; `undefined` otherwise (`toISOString` throws on invalid dates). */
export function formatDate(value: unknown): string | undefined {
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
}

/** `Date` ↔ ISO string. A string given to toWire passes through, as does one that does not parse. */
export const dateCodec: Codec = [(value) => formatDate(value) ?? value, (value) => parseDate(value) ?? value];
