/**
 * Reads that survive stored JSON SQLite cannot parse (items, members). SQLite's JSON functions stop
 * at 1,000 levels of nesting; writes are now bounded far below that (`untrusted-json.ts`), but a
 * store written by an older emulator, or an imported state, may still hold a deeper row. One such
 * item made every filtered or sorted read of its collection fail with a 500.
 */

/**
 * The stored JSON as the filter and sort SQL sees it: a row SQLite cannot parse counts as `{}` (it
 * matches no field condition and sorts as missing) and is still returned whole.
 */
const readableJson = (column: string) => `(CASE WHEN json_valid(${column}) THEN ${column} ELSE '{}' END)`;

/** SQLite's error for JSON it cannot parse (too deep, or not JSON at all). */
const isUnreadableJson = (error: unknown) => error instanceof Error && error.message == 'malformed JSON';

/**
 * Runs `read` with the stored JSON column as its SQL expression. The plain column is the fast path;
 * only when SQLite meets a row it cannot parse does the read run again over the guarded form,
 * because that form validates every row's JSON once more (a third more time on a filtered read).
 */
export function readingStoredJson<Result>(column: string, read: (json: string) => Result): Result {
  try {
    return read(column);
  } catch (error) {
    if (!isUnreadableJson(error)) throw error;
    return read(readableJson(column));
  }
}
