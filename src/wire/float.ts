/** Codec `f`: floats that may be NaN or ±Infinity, which JSON cannot carry as numbers. */
import type { Codec } from './codec.js';

/**
 * Non-finite numbers ↔ `"NaN"`, `"Infinity"`, `"-Infinity"`; finite numbers as they are.
 * `String`/`Number` convert exactly these three spellings both ways.
 */
export const floatCodec: Codec = [
  (value) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value),
  (value) => (value === 'NaN' || value === 'Infinity' || value === '-Infinity' ? Number(value) : value),
];
