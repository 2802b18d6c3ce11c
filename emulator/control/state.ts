/** The whole state as JSON (export/import) and its reset: every table but the infrastructure ones. */
import { validationError, type FieldViolation } from '../errors.js';
import { infrastructureTables } from '../service.js';
import type { SqlValue, Store } from '../store/store.js';

/** The export format: table name → rows (column → value). */
export interface StateExport {
  format: 'sitekit-emulator-state';
  version: 1;
  exportedAt: string;
  tables: Record<string, Record<string, SqlValue>[]>;
}

/** The tables that hold the site's state, with their columns. */
function stateTables(store: Store): Map<string, Set<string>> {
  const tables = store
    .all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .map((row) => row.name)
    .filter((name) => !infrastructureTables.includes(name));
  return new Map(
    tables.map((name) => [
      name,
      new Set(
        store.all<{ name: string }>(`SELECT name FROM pragma_table_info(?)`, [name]).map((column) => column.name),
      ),
    ]),
  );
}

/** Every row of every state table. */
export function exportState(store: Store): StateExport {
  const tables: StateExport['tables'] = {};
  for (const name of stateTables(store).keys())
    tables[name] = store.all<Record<string, SqlValue>>(`SELECT * FROM "${name}" ORDER BY rowid`);
  return { format: 'sitekit-emulator-state', version: 1, exportedAt: new Date().toISOString(), tables };
}

/** Empties every state table. */
export function clearState(store: Store): void {
  for (const name of stateTables(store).keys()) store.run(`DELETE FROM "${name}"`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value == 'object' && value !== null && !Array.isArray(value);
const isSqlValue = (value: unknown) => value === null || typeof value == 'string' || typeof value == 'number';

/** Replaces the whole state with an export; a malformed one is a validation error and changes nothing. */
export function importState(store: Store, state: unknown): { tables: Record<string, number> } {
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
    else {
      rows.forEach((row, index) => {
        if (!isRecord(row))
          violations.push({
            field: `tables.${name}.${index}`,
            description: 'must be an object',
            violatedRule: 'VALIDATION',
          });
        else
          for (const [column, value] of Object.entries(row)) {
            if (!columns.has(column))
              violations.push({
                field: `tables.${name}.${index}.${column}`,
                description: 'is not a column of the table',
                violatedRule: 'FIELD_NOT_ALLOWED',
              });
            else if (!isSqlValue(value))
              violations.push({
                field: `tables.${name}.${index}.${column}`,
                description: 'must be a string, a number or null',
                violatedRule: 'VALIDATION',
              });
          }
      });
    }
  }
  if (violations.length) throw validationError(violations.slice(0, 50));
  const counts: Record<string, number> = {};
  store.transaction(() => {
    clearState(store);
    for (const [name, rows] of Object.entries(state.tables as Record<string, Record<string, SqlValue>[]>)) {
      for (const row of rows) {
        const columns = Object.keys(row);
        // Table and column names were checked against the schema above.
        store.run(
          `INSERT INTO "${name}" (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
          columns.map((column) => row[column]!),
        );
      }
      counts[name] = rows.length;
    }
  });
  return { tables: counts };
}
