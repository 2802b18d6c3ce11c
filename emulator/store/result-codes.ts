/**
 * SQLite's result code names (`SQLITE_CONSTRAINT_PRIMARYKEY`...) by number, as its documentation
 * lists them: better-sqlite3 and sql.js put the name in an error's `code`, node:sqlite only the
 * number (`errcode`), and the services tell a duplicate key from other failures by the name.
 */

/** The primary result codes (the low byte of every extended code). */
const PRIMARY = [
  'OK',
  'ERROR',
  'INTERNAL',
  'PERM',
  'ABORT',
  'BUSY',
  'LOCKED',
  'NOMEM',
  'READONLY',
  'INTERRUPT',
  'IOERR',
  'CORRUPT',
  'NOTFOUND',
  'FULL',
  'CANTOPEN',
  'PROTOCOL',
  'EMPTY',
  'SCHEMA',
  'TOOBIG',
  'CONSTRAINT',
  'MISMATCH',
  'MISUSE',
  'NOLFS',
  'AUTH',
  'FORMAT',
  'RANGE',
  'NOTADB',
];

/** The extended codes worth telling apart (the constraint kinds), by number. */
const EXTENDED: Readonly<Record<number, string>> = {
  275: 'CONSTRAINT_CHECK',
  531: 'CONSTRAINT_COMMITHOOK',
  787: 'CONSTRAINT_FOREIGNKEY',
  1043: 'CONSTRAINT_FUNCTION',
  1299: 'CONSTRAINT_NOTNULL',
  1555: 'CONSTRAINT_PRIMARYKEY',
  1811: 'CONSTRAINT_TRIGGER',
  2067: 'CONSTRAINT_UNIQUE',
  2323: 'CONSTRAINT_VTAB',
  2579: 'CONSTRAINT_ROWID',
  2835: 'CONSTRAINT_PINNED',
  3091: 'CONSTRAINT_DATATYPE',
  261: 'BUSY_RECOVERY',
  517: 'BUSY_SNAPSHOT',
  773: 'BUSY_TIMEOUT',
};

/** `SQLITE_<name>` for an extended result code; the primary code's name when the extended one is not listed. */
export function resultCodeName(code: number): string {
  return `SQLITE_${EXTENDED[code] ?? PRIMARY[code & 0xff] ?? 'ERROR'}`;
}
