/**
 * What a snapshot holds, and how it is taken from a site and put back: every state table's rows
 * (read and written through `Store`, so every engine does it the same way) and the bytes of every
 * media file the rows describe. A function of one site's context: the site's store and media folder.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { applicationError } from '../errors.js';
import type { EmulatorContext, ServiceModule } from '../service.js';
import { bytesPath } from '../services/media/file-store.js';
import type { SqlValue, Store } from '../store/store.js';
import { clearState, stateReplaced, stateTableColumns } from './state.js';

/** The rows of one table, each a list of values in the order of `columns`. */
export interface TableRows {
  name: string;
  columns: string[];
  rows: SqlValue[][];
}

/** A media file's bytes, by the id of its descriptor. */
export interface FileBytes {
  id: string;
  bytes: Buffer;
}

/**
 * A site's whole state at one moment. Never changed once taken: one snapshot is restored many
 * times (a test suite's `beforeEach`).
 */
export interface SnapshotContent {
  /** The schema it was taken with (`schema_migrations`): its rows fit only the same tables. */
  migrations: string[];
  tables: TableRows[];
  files: FileBytes[];
}

/** The migrations applied to the site's store, in id order. */
const appliedMigrations = (context: EmulatorContext): string[] =>
  context.store.all<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id').map((row) => row.id);

/** Takes the site's state: every state table's rows, read in one transaction, and its media files' bytes. */
export function takeContent(context: EmulatorContext): SnapshotContent {
  const { store } = context;
  return store.transaction(() => {
    const tables = [...stateTableColumns(store)].map(([name, columns]) => ({
      name,
      columns,
      // Table and column names come from the schema itself (sqlite_master), never from a request.
      rows: store
        .all<Record<string, SqlValue>>(`SELECT * FROM "${name}"`)
        .map((row) => columns.map((column) => row[column]!)),
    }));
    // A file whose bytes never arrived (an upload that failed) has none to keep.
    const files = store
      .all<{ id: string }>('SELECT id FROM media_files ORDER BY id')
      .map((row) => ({ id: row.id, path: bytesPath(context, row.id) }))
      .filter((file) => existsSync(file.path))
      .map((file) => ({ id: file.id, bytes: readFileSync(file.path) }));
    return { migrations: appliedMigrations(context), tables, files };
  });
}

/** The size a snapshot is counted at: its rows as JSON text and its media bytes. */
export const contentSize = (content: SnapshotContent): number =>
  Buffer.byteLength(JSON.stringify(content.tables)) + content.files.reduce((sum, file) => sum + file.bytes.length, 0);

/**
 * Why the content cannot be restored into this site's store, or `undefined` when it can: it was
 * taken with other migrations (a snapshot on disk made by another version of the emulator), or names
 * a table or column the store does not have.
 */
function unfitReason(context: EmulatorContext, content: SnapshotContent): string | undefined {
  const current = appliedMigrations(context);
  const missing = content.migrations.filter((id) => !current.includes(id));
  const added = current.filter((id) => !content.migrations.includes(id));
  if (missing.length || added.length)
    return `it was saved with other tables (migrations ${[...missing, ...added].slice(0, 3).join(', ')} differ): save it again`;
  const tables = stateTableColumns(context.store);
  for (const table of content.tables) {
    const columns = tables.get(table.name);
    if (!columns) return `it holds a table ${table.name} the emulator does not have`;
    const unknown = table.columns.find((column) => !columns.includes(column));
    if (unknown !== undefined) return `it holds a column ${table.name}.${unknown} the emulator does not have`;
  }
  return undefined;
}

/** Whether the file at `path` holds `bytes` (false when there is none). */
function holdsBytes(path: string, bytes: Buffer): boolean {
  try {
    return statSync(path).size == bytes.length && readFileSync(path).equals(bytes);
  } catch {
    return false;
  }
}

/**
 * Puts the site's state back as `content` holds it: every state table emptied and refilled in one
 * transaction, then the media bytes written; every module is then told (`reset`), as after an
 * import: caches forget, bytes no restored row describes and uploads in progress go.
 */
export function restoreContent(
  context: EmulatorContext,
  modules: readonly ServiceModule[],
  name: string,
  content: SnapshotContent,
): void {
  const unfit = unfitReason(context, content);
  if (unfit)
    throw applicationError(409, 'SNAPSHOT_UNUSABLE', `Snapshot ${name} cannot be restored: ${unfit}`, { name });
  const { store } = context;
  store.transaction(() => {
    clearState(store);
    // Names checked against the schema above (unfitReason).
    insertRows(store, content.tables);
  });
  writeFiles(context, content.files);
  stateReplaced(context, modules);
}

/** Inserts the rows of each table (names from the schema: a snapshot's were checked against it). */
function insertRows(store: Store, tables: readonly TableRows[]): void {
  for (const table of tables) {
    if (!table.rows.length) continue;
    const insert = `INSERT INTO "${table.name}" (${table.columns.map((column) => `"${column}"`).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`;
    for (const row of table.rows) store.run(insert, row);
  }
}

/** Writes the media bytes of the files (those not already there as they are). */
function writeFiles(context: EmulatorContext, files: readonly FileBytes[]): void {
  for (const file of files) {
    const path = bytesPath(context, file.id);
    // A file's id names its bytes for good, so most are still there as saved: reading them back to
    // compare costs microseconds, rewriting one milliseconds (a truncating write waits for the disk).
    if (!holdsBytes(path, file.bytes)) writeFileSync(path, file.bytes);
  }
}

/**
 * Writes `content` into a site just made, whose tables (the same as the content's) are all empty:
 * every row in one transaction, then the media bytes. All a new site made from the demo template
 * needs (`sites/demo-template.ts`).
 */
export function writeContent(context: EmulatorContext, content: SnapshotContent): void {
  context.store.transaction(() => insertRows(context.store, content.tables));
  writeFiles(context, content.files);
}
