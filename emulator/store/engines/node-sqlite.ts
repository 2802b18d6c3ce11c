/**
 * The node:sqlite engine (built into Node ≥ 22.13 without a flag). Loaded through
 * `process.getBuiltinModule`, synchronously, so that the one `ExperimentalWarning` Node prints on
 * its first load can be held back exactly, and no other warning. Its statements bind positional
 * parameters as separate arguments and do not say whether they write; its errors carry SQLite's
 * code as a number only.
 */
import { StoreEngineError, type Engine, type EngineStatement } from '../engine.js';
import { resultCodeName } from '../result-codes.js';
import { programWrites, type ProgramStep } from '../statement-writes.js';
import type { SqlParameters } from '../store.js';
import { rowWithBuffers } from './blobs.js';

/**
 * The part of node:sqlite used here, declared for the Node 20 type definitions the package builds
 * with (they have no node:sqlite).
 */
namespace NodeSqlite {
  export interface StatementSync {
    run(...parameters: unknown[]): { changes: number | bigint };
    get(...parameters: unknown[]): Record<string, unknown> | undefined;
    all(...parameters: unknown[]): Record<string, unknown>[];
  }
  export interface DatabaseSync {
    prepare(sql: string): StatementSync;
    exec(sql: string): void;
    function(name: string, options: { deterministic: boolean }, implementation: (value: unknown) => unknown): void;
    close(): void;
  }
  export interface Module {
    DatabaseSync: { new (path: string): DatabaseSync; prototype: Partial<DatabaseSync> };
  }
}

/** The warning Node emits when node:sqlite is first loaded (the feature is experimental). */
function isSqliteExperimentalWarning(warning: unknown, typeOrOptions: unknown): boolean {
  const type =
    typeof typeOrOptions == 'string' ? typeOrOptions : (typeOrOptions as { type?: unknown } | undefined)?.type;
  const message = warning instanceof Error ? warning.message : String(warning);
  const name = warning instanceof Error ? warning.name : type;
  return name == 'ExperimentalWarning' && message.startsWith('SQLite is an experimental feature');
}

/** node:sqlite, without its ExperimentalWarning reaching the user; `undefined` where Node has none. */
function nodeSqliteModule(): NodeSqlite.Module | undefined {
  const emitWarning = process.emitWarning;
  // Only while the module loads (synchronously, below): every other warning goes through untouched.
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    if (isSqliteExperimentalWarning(warning, rest[0])) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return process.getBuiltinModule?.('node:sqlite') as NodeSqlite.Module | undefined;
  } catch {
    return undefined;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** Loads node:sqlite; throws {@link StoreEngineError} (`ENGINE_UNAVAILABLE`) on a Node without it. */
export function loadNodeSqlite(): Engine {
  const sqlite = nodeSqliteModule();
  // Node 22.5–22.12 have it only behind a flag, and without user functions (`function`).
  if (typeof sqlite?.DatabaseSync?.prototype.function != 'function')
    throw new StoreEngineError(
      'ENGINE_UNAVAILABLE',
      `node:sqlite needs Node 22.13 or later (this is Node ${process.versions.node}): upgrade Node, or choose the better-sqlite3 or wasm engine`,
    );
  const { DatabaseSync } = sqlite;
  return {
    name: 'node:sqlite',
    holdsFiles: true,
    open(file) {
      const database = named(() => new DatabaseSync(file ?? ':memory:'));
      return {
        prepare: (sql) =>
          named(() => {
            const statement = database.prepare(sql);
            const program = database.prepare(`EXPLAIN ${sql}`).all() as unknown as ProgramStep[];
            return statementOf(statement, programWrites(program));
          }),
        exec: (sql) => named(() => database.exec(sql)),
        defineFunction: (name, options, implementation) =>
          database.function(name, { deterministic: options.deterministic }, implementation),
        close: () => database.close(),
      };
    },
  };
}

/** Our statement over node:sqlite's. */
function statementOf(statement: NodeSqlite.StatementSync, writes: boolean): EngineStatement {
  return {
    writes,
    free: () => {},
    run(parameters) {
      try {
        return Number(statement.run(...argumentsOf(parameters)).changes);
      } catch (error) {
        throw withCodeName(error);
      }
    },
    get(parameters) {
      try {
        const row = statement.get(...argumentsOf(parameters));
        return row === undefined ? undefined : rowWithBuffers(row);
      } catch (error) {
        throw withCodeName(error);
      }
    },
    all(parameters) {
      try {
        return statement.all(...argumentsOf(parameters)).map(rowWithBuffers);
      } catch (error) {
        throw withCodeName(error);
      }
    },
  };
}

const NO_ARGUMENTS: readonly unknown[] = [];

/** `parameters` as node:sqlite's methods take them: positional ones as separate arguments, named ones as one object. */
function argumentsOf(parameters: SqlParameters | undefined): readonly unknown[] {
  if (parameters === undefined) return NO_ARGUMENTS;
  return Array.isArray(parameters) ? parameters : [parameters];
}

/** `error`, a SQLite error given the code's name in `code` (`SQLITE_CONSTRAINT_PRIMARYKEY`), as on the other engines. */
function withCodeName(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown }).errcode;
  if (typeof errcode == 'number') Object.assign(error as object, { code: resultCodeName(errcode) });
  return error;
}

/** Runs `work`, throwing its SQLite errors {@link withCodeName}. */
function named<Result>(work: () => Result): Result {
  try {
    return work();
  } catch (error) {
    throw withCodeName(error);
  }
}
