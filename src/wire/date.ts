/** Codec `date`: date-time fields, ISO-8601 strings on the wire and `Date` in the public form. */
import type { Codec } from './codec.js';

// Demands an ISO-8601 date at the start: `Date.parse` alone accepts loose forms ("foo 1") that
// would turn arbitrary strings into dates. Extended years (`+010000-01-01`) are ISO too.
const ISO_DATE = /^[+-]?\d{4,6}-\d\d-\d\d/;

/** The date itself when it is valid, else `undefined`. */
const valid = (date: Date): Date | undefined => (Number.isNaN(date.getTime()) ? undefined : date);

/** Parses an ISO-8601 string into a `Date`; `undefined` for anything else or an invalid date. */
export const parseDate = (value: unknown): Date | undefined =>
  typeof value == 'string' && ISO_DATE.test(value) ? valid(new Date(value)) : undefined;

/** ISO-8601 string of a valid `Date`; `undefined` otherwise (`toISOString` throws on invalid dates). */
export const formatDate = (value: unknown): string | undefined =>
  value instanceof Date ? valid(value)?.toISOString() : undefined;

/** `Date` ↔ ISO string. A string given to toWire passes through, as does one that does not parse. */
export const dateCodec: Codec = {
  toWire: (value) => formatDate(value) ?? value,
  toPublic: (value) => parseDate(value) ?? value,
};
