/**
 * Blobs as `Buffer`s: better-sqlite3 returns them so, node:sqlite and sql.js return plain
 * `Uint8Array`s; the store hands out the same on every engine ({@link SqlValue}).
 */
import type { Row } from '../engine.js';
import type { SqlValue } from '../store.js';

/** `value`, a `Uint8Array` made a `Buffer` over the same bytes. */
export function blobAsBuffer(value: unknown): SqlValue {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : (value as SqlValue);
}

/** `row` with its blobs as `Buffer`s (changed in place: rows are fresh objects). */
export function rowWithBuffers(row: Record<string, unknown>): Row {
  for (const column in row) {
    const value = row[column];
    if (typeof value == 'object' && value !== null) row[column] = blobAsBuffer(value);
  }
  return row as Row;
}
