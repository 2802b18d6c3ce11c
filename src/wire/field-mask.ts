/** Codec `m`: field masks, a list of paths in the public form and one comma-joined string on the wire. */
import type { Codec } from './codec.js';

/** True for an array of strings only: the one public shape a field mask can have. */
export const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((path) => typeof path === 'string');

/** `string[]` ↔ `"a,b.c"`; `[]` ↔ `""`. */
export const fieldMaskCodec: Codec = [
  (value) => (isStringArray(value) ? value.join(',') : value),
  (value) => (typeof value === 'string' ? (value ? value.split(',') : []) : value),
];
