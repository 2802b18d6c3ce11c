/** The state's tables: their reset, and the import of a version 1 export (table → rows), checked row by row. */
import { invalidField, validationError, type EmulatorError, type FieldViolation } from '../errors.js';
import { infrastructureTables, type EmulatorContext, type ServiceModule } from '../service.js';
import type { SqlValue, Store } from '../store/store.js';
import { isRecord } from '../untrusted-json.js';
import { rowViolations, type StateColumn } from './state-rows.js';

/** The most violations one refused import lists (a file of 10,000 bad rows would otherwise answer 10,000). */
const MAX_VIOLATIONS = 50;

/** The export format of version 1 (older emulators; still imported): table name → rows (column → value). */
export type StateExport = {
  format: 'sitekit-emulator-state';
  version: 1;
  exportedAt: string;
  tables: Record<string, Record<string, SqlValue>[]>;
};

/** The tables that hold the site's state, with their columns. */
function stateTables(store: Store): Map<string, Map<string, StateColumn>> {
  const tables = store
    .all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .map((row) => row.name)
    .filter((name) => !infrastructureTables.includes(name));
  return new Map(tables.map((name) => [name, tableColumns(store, name)]));
}

/** The columns of one table: name → type, nullability, default. */
function tableColumns(store: Store, table: string): Map<string, StateColumn> {
  const rows = store.all<{ name: string; type: string; notnull: number; dflt_value: string | null }>(
    'SELECT name, type, "notnull", dflt_value FROM pragma_table_info(?)',
    [table],
  );
  return new Map(
    rows.map((row) => [
      row.name,
      { type: row.type.toUpperCase(), notNull: row.notnull == 1, hasDefault: row.dflt_value !== null },
    ]),
  );
}

/** The state tables and their columns, for the check that `state-columns.ts` names only real ones. */
export function stateTableColumns(store: Store): Map<string, string[]> {
  return new Map([...stateTables(store)].map(([name, columns]) => [name, [...columns.keys()]]));
}

/** Empties every state table. */
export function clearState(store: Store): void {
  for (const name of stateTables(store).keys()) store.run(`DELETE FROM "${name}"`);
}

/**
 * Tells every module the state was replaced (a reset, an import, a snapshot restored): in-memory
 * caches forget what they held, and media drops the bytes no row describes and uploads in progress.
 */
export function stateReplaced(context: EmulatorContext, modules: readonly ServiceModule[]): void {
  for (const module of modules) module.reset?.(context);
}

/**
 * The 400 for a row that repeats another's key (`UNIQUE constraint failed: items.collection_id,
 * items.id`), naming the row and the key's last column (the item's `id`, not its collection), or
 * `undefined` for any other error.
 */
function repeatedKey(error: unknown, table: string, index: number): EmulatorError | undefined {
  const code = (error as { code?: unknown }).code;
  if (code != 'SQLITE_CONSTRAINT_PRIMARYKEY' && code != 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  const columns = (error as Error).message
    .replace(/^.*constraint failed: /, '')
    .split(', ')
    .map((column) => column.slice(column.indexOf('.') + 1));
  return invalidField(
    `tables.${table}.${index}.${columns.at(-1)}`,
    `repeats the ${columns.join(', ')} of an earlier row: each must be unique`,
    'VALIDATION',
  );
}

/**
 * Checks an export's rows against the store's tables (`state-rows.ts`) and returns its tables;
 * throws a validation error naming each bad table, row and column. A key repeated between rows is
 * found only by the import itself (`importState`).
 */
export function checkState(store: Store, state: unknown): Record<string, Record<string, SqlValue>[]> {
  const known = stateTables(store);
  const violations: FieldViolation[] = [];
  if (!isRecord(state) || !isRecord(state.tables)) {
    throw validationError([
      {
        field: 'tables',
        description: 'must be an object of table name → rows (the format of GET /_emulator/export)',
        violatedRule: 'REQUIRED_FIELD',
      },
    ]);
  }
  for (const [name, rows] of Object.entries(state.tables)) {
    const columns = known.get(name);
    if (!columns)
      violations.push({
        field: `tables.${name}`,
        description: 'is not a table of the emulator',
        violatedRule: 'FIELD_NOT_ALLOWED',
      });
    else if (!Array.isArray(rows))
      violations.push({ field: `tables.${name}`, description: 'must be an array of rows', violatedRule: 'VALIDATION' });
    else
      for (let index = 0; index < rows.length && violations.length < MAX_VIOLATIONS; index++)
        violations.push(...rowViolations(name, index, rows[index], columns));
  }
  if (violations.length) throw validationError(violations.slice(0, MAX_VIOLATIONS));
  return state.tables as Record<string, Record<string, SqlValue>[]>;
}

/**
 * Replaces the whole state with an export. Every row is checked first (`checkState`): a malformed
 * export is a validation error naming the table, row and column, and changes nothing.
 */
export function importState(store: Store, state: unknown): { tables: Record<string, number> } {
  const tables = checkState(store, state);
  const counts: Record<string, number> = {};
  store.transaction(() => {
    clearState(store);
    for (const [name, rows] of Object.entries(tables)) {
      rows.forEach((row, index) => {
        const columns = Object.keys(row);
        try {
          // Table and column names were checked against the schema above.
          store.run(
            `INSERT INTO "${name}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
            columns.map((column) => row[column]!),
          );
        } catch (error) {
          // Thrown inside the transaction: nothing of the import stays.
          throw repeatedKey(error, name, index) ?? error;
        }
      });
      counts[name] = rows.length;
    }
  });
  return { tables: counts };
}
