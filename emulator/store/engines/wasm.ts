/**
 * The WebAssembly engine: SQLite compiled to WebAssembly by sql.js, on any Node, nothing native,
 * in memory only (it cannot hold a file). Compiling the module is asynchronous, so it is loaded
 * once, before any store opens. Its statements take named parameters with their prefix
 * (`@name`), return rows as arrays beside their column names, and must be freed.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine, EngineStatement, Row } from '../engine.js';
import { StoreEngineError } from '../engine.js';
import { programWrites, type ProgramStep } from '../statement-writes.js';
import type { SqlParameters, SqlValue } from '../store.js';
import { blobAsBuffer } from './blobs.js';

/** The part of sql.js used here (it ships no types). */
namespace SqlJs {
  export interface Statement {
    bind(values?: unknown): boolean;
    step(): boolean;
    get(): unknown[];
    getColumnNames(): string[];
    reset(): boolean;
    free(): boolean;
  }
  export interface Database {
    prepare(sql: string): Statement;
    exec(sql: string): unknown;
    getRowsModified(): number;
    create_function(name: string, implementation: (value: unknown) => unknown): Database;
    close(): void;
  }
  export interface Module {
    Database: new () => Database;
  }
  export type Init = (options: { locateFile: (file: string) => string }) => Promise<Module>;
}

/** Where the package's build copies sql.js's `sql-wasm.js` and `sql-wasm.wasm` (scripts/sqljs-files.mjs). */
const BUILT_DIRECTORY = join('vendor', 'sqljs');

/**
 * Where sql.js's loader (`sql-wasm.js`) and its `.wasm` are: in the built package, `dist/vendor/sqljs/` (beside the
 * emulator's entry, or above its chunk); from the sources, the sql.js package (a devDependency).
 */
function sqlJsFiles(): { loader: string; directory: string } {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const built = [join(here, BUILT_DIRECTORY), join(here, '..', BUILT_DIRECTORY)].find((directory) =>
    existsSync(join(directory, 'sql-wasm.wasm')),
  );
  // Named .cjs in the build: the package is "type": "module", and sql.js's loader is CommonJS.
  if (built) return { loader: join(built, 'sql-wasm.cjs'), directory: built };
  const loader = createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.js');
  return { loader, directory: dirname(loader) };
}

let loading: Promise<Engine> | undefined;

/** Loads (once per process) the WebAssembly SQLite; throws {@link StoreEngineError} when its files are missing. */
export function loadWasmSqlite(): Promise<Engine> {
  loading ??= compile().catch((error: unknown) => {
    loading = undefined;
    throw new StoreEngineError(
      'ENGINE_UNAVAILABLE',
      `the wasm engine could not be loaded (${(error as Error).message.split('\n')[0]}): reinstall sitekit-sdk, or choose another engine`,
      { cause: error },
    );
  });
  return loading;
}

async function compile(): Promise<Engine> {
  const { loader, directory } = sqlJsFiles();
  const init = createRequire(import.meta.url)(loader) as SqlJs.Init;
  const sqlJs = await init({ locateFile: (file) => join(directory, file) });
  return {
    name: 'wasm',
    holdsFiles: false,
    open(file) {
      if (file !== null)
        throw new StoreEngineError(
          'ENGINE_MEMORY_ONLY',
          `the wasm engine keeps its database in memory: it cannot open ${file}`,
        );
      const database = new sqlJs.Database();
      return {
        prepare: (sql) => {
          const statement = database.prepare(sql);
          try {
            return statementOf(
              database,
              statement,
              programWrites(rowsOf(database.prepare(`EXPLAIN ${sql}`), undefined, true) as unknown as ProgramStep[]),
            );
          } catch (error) {
            statement.free();
            throw error;
          }
        },
        exec: (sql) => void database.exec(sql),
        defineFunction: (name, _options, implementation) =>
          // sql.js takes the argument count from the function's length: one.
          void database.create_function(name, (value: unknown) => implementation(value)),
        close: () => database.close(),
      };
    },
  };
}

/** Our statement over one of sql.js's. */
function statementOf(database: SqlJs.Database, statement: SqlJs.Statement, writes: boolean): EngineStatement {
  return {
    writes,
    free: () => void statement.free(),
    // A statement stepped to its end (run, all) is done and holds nothing: the next bind resets it
    // (resetting it twice cost a third of an insert). One left on a row (get) is reset at once, or
    // it would keep its read open.
    run(parameters) {
      statement.bind(bindable(parameters));
      while (statement.step());
      return database.getRowsModified();
    },
    get(parameters) {
      try {
        statement.bind(bindable(parameters));
        return statement.step() ? rowOf(statement.getColumnNames(), statement.get()) : undefined;
      } finally {
        statement.reset();
      }
    },
    all: (parameters) => rowsOf(statement, parameters, false),
  };
}

/** Every row of `statement` run with `parameters`; freed after when `once`. */
function rowsOf(statement: SqlJs.Statement, parameters: SqlParameters | undefined, once: boolean): Row[] {
  try {
    statement.bind(bindable(parameters));
    const rows: Row[] = [];
    let columns: string[] | undefined;
    while (statement.step()) {
      columns ??= statement.getColumnNames();
      rows.push(rowOf(columns, statement.get()));
    }
    return rows;
  } finally {
    if (once) statement.free();
  }
}

/** A row object from sql.js's array of values. */
function rowOf(columns: readonly string[], values: readonly unknown[]): Row {
  const row: Row = {};
  for (let index = 0; index < columns.length; index++) row[columns[index]!] = blobAsBuffer(values[index]);
  return row;
}

/**
 * `parameters` as sql.js binds them: it looks a named parameter up by its full name, so each
 * bare name (`{ id }`) is given with every prefix SQLite has (`@id`, `:id`, `$id`), as the other
 * engines accept it for any of them.
 */
function bindable(parameters: SqlParameters | undefined): unknown {
  if (parameters === undefined || Array.isArray(parameters)) return parameters;
  const named: Record<string, SqlValue> = {};
  for (const [name, value] of Object.entries(parameters as Record<string, SqlValue>)) {
    if (/^[@:$]/.test(name)) named[name] = value;
    else named[`@${name}`] = named[`:${name}`] = named[`$${name}`] = value;
  }
  return named;
}
