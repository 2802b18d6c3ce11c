/**
 * Snapshots on disk, so they survive a restart: `<data dir>/snapshots/<name>/` holds `summary.json`
 * (name, date, size: what a listing reads), `state.json` (the schema and the rows) and `media/<n>`,
 * the bytes of the n-th file of `state.json`. A snapshot is written into a `.saving-*` folder beside
 * it and renamed into place, so a snapshot on disk is whole or absent; a name never becomes a path
 * before the shelf (`snapshots.ts`) has checked it, and the bytes' paths are numbers, never ids.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../untrusted-json.js';
import type { SnapshotContent, TableRows } from './snapshot-content.js';

/** What a listing shows of a snapshot. */
export interface SnapshotSummary {
  name: string;
  /** When it was saved, on the emulator's clock. */
  createdAt: string;
  /** Its rows as JSON text and its media bytes. */
  sizeBytes: number;
}

/** The `format` of a snapshot's files: another file that happens to sit in the folder is not one. */
const FORMAT = 'sitekit-emulator-snapshot';
const VERSION = 1;

/** Folders of a save or a removal under way (a crash may leave one): never a snapshot's name, which starts with a letter or digit. */
const isWorkFolder = (name: string) => name.startsWith('.');

/** A snapshot's summary read from its folder, or `undefined` when it is not a whole, readable one. */
function readSummary(root: string, folder: string): SnapshotSummary | undefined {
  try {
    const summary: unknown = JSON.parse(readFileSync(join(root, folder, 'summary.json'), 'utf8'));
    if (
      isRecord(summary) &&
      summary.format == FORMAT &&
      summary.version == VERSION &&
      summary.name == folder &&
      typeof summary.createdAt == 'string' &&
      Number.isSafeInteger(summary.sizeBytes)
    )
      return { name: folder, createdAt: summary.createdAt, sizeBytes: summary.sizeBytes as number };
  } catch {
    // Unreadable or not JSON: not a snapshot.
  }
  return undefined;
}

/**
 * The snapshots kept under `root`, for the folder names `isName` accepts. Leftovers of a save or a
 * removal that did not finish (the emulator was killed) are deleted.
 */
export function readSummaries(root: string, isName: (name: string) => boolean): SnapshotSummary[] {
  if (!existsSync(root)) return [];
  const summaries: SnapshotSummary[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (isWorkFolder(entry.name)) rmSync(join(root, entry.name), { recursive: true, force: true });
    else if (isName(entry.name)) {
      const summary = readSummary(root, entry.name);
      if (summary) summaries.push(summary);
    }
  }
  return summaries;
}

/** Moves a folder out of the way and deletes it: a listing never sees half of it. */
function discard(root: string, folder: string): void {
  const path = join(root, folder);
  if (!existsSync(path)) return;
  const doomed = mkdtempSync(join(root, '.removing-'));
  renameSync(path, join(doomed, 'snapshot'));
  rmSync(doomed, { recursive: true, force: true });
}

/** Writes a snapshot under `root`, replacing one of the same name whole. */
export function writeSnapshot(root: string, summary: SnapshotSummary, content: SnapshotContent): void {
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, '.saving-'));
  try {
    mkdirSync(join(staging, 'media'));
    for (const [index, file] of content.files.entries())
      writeFileSync(join(staging, 'media', String(index)), file.bytes);
    const state = {
      migrations: content.migrations,
      tables: content.tables,
      files: content.files.map((file) => ({ id: file.id, size: file.bytes.length })),
    };
    writeFileSync(join(staging, 'state.json'), JSON.stringify(state));
    // Written last: a folder without it is not a snapshot.
    writeFileSync(join(staging, 'summary.json'), JSON.stringify({ format: FORMAT, version: VERSION, ...summary }));
    discard(root, summary.name);
    renameSync(staging, join(root, summary.name));
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Deletes a snapshot's folder. */
export const removeSnapshotFiles = (root: string, name: string): void => discard(root, name);

/** Whether a value read from a file can be a column's value (the store's tables hold text, integers and nulls). */
const isColumnValue = (value: unknown) => value === null || typeof value == 'string' || Number.isFinite(value);

/** The table rows of `state.json`, or why they are not. */
function tableRows(tables: unknown): TableRows[] | string {
  if (!Array.isArray(tables)) return 'tables is not a list';
  for (const table of tables) {
    if (!isRecord(table) || typeof table.name != 'string') return 'a table has no name';
    const { columns, rows } = table;
    if (!Array.isArray(columns) || !columns.every((column) => typeof column == 'string'))
      return `table ${table.name} has no list of columns`;
    if (
      !Array.isArray(rows) ||
      !rows.every((row) => Array.isArray(row) && row.length == columns.length && row.every(isColumnValue))
    )
      return `table ${table.name} has a row that does not fit its columns`;
  }
  return tables as TableRows[];
}

/**
 * A snapshot's content read from its folder; throws an `Error` saying what is wrong with a folder
 * that is not one the emulator wrote (edited, truncated, or of another version).
 */
export function readContent(root: string, name: string): SnapshotContent {
  const folder = join(root, name);
  const state: unknown = JSON.parse(readFileSync(join(folder, 'state.json'), 'utf8'));
  if (!isRecord(state)) throw new Error('state.json is not an object');
  const { migrations, files } = state;
  if (!Array.isArray(migrations) || !migrations.every((id) => typeof id == 'string'))
    throw new Error('state.json has no list of migrations');
  const tables = tableRows(state.tables);
  if (typeof tables == 'string') throw new Error(`state.json: ${tables}`);
  if (!Array.isArray(files) || !files.every((file) => isRecord(file) && typeof file.id == 'string'))
    throw new Error('state.json has no list of files');
  return {
    migrations,
    tables,
    files: files.map((file, index) => ({
      id: (file as { id: string }).id,
      bytes: readFileSync(join(folder, 'media', String(index))),
    })),
  };
}
