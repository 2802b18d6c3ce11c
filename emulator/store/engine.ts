/**
 * What a SQLite engine gives the store: a connection with prepared statements, SQL functions and
 * `exec`. Each engine (node:sqlite, better-sqlite3, a WebAssembly SQLite) adapts its own calls to
 * this; everything the store adds on top (transactions, change listeners, the statement cache)
 * is written once, in ./sqlite-store.ts.
 */
import type { EngineName } from './engine-names.js';
import type { SqlParameters, SqlValue } from './store.js';

/** A row as the store hands it out: column name to value. */
export type Row = Record<string, SqlValue>;

/** A compiled statement of one connection. */
export interface EngineStatement {
  /**
   * Whether running it may write to the database (SQLite's `sqlite3_stmt_readonly`, negated):
   * the store begins a pending transaction before such a statement.
   */
  readonly writes: boolean;
  /** Frees it (the WebAssembly engine's memory is not garbage-collected). */
  free(): void;
  /** Runs it to completion; the number of rows it changed. */
  run(parameters: SqlParameters | undefined): number;
  /** Its first row, or `undefined`. */
  get(parameters: SqlParameters | undefined): Row | undefined;
  /** All its rows. */
  all(parameters: SqlParameters | undefined): Row[];
}

/** One open database of an engine. */
export interface EngineConnection {
  /** Compiles one statement (throws on a syntax error). */
  prepare(sql: string): EngineStatement;
  /** Runs several `;`-separated statements. */
  exec(sql: string): void;
  /** Registers a scalar SQL function of one argument. */
  defineFunction(name: string, options: { deterministic: boolean }, implementation: (value: unknown) => unknown): void;
  close(): void;
}

/** A loaded engine: opens connections synchronously (loading it is the asynchronous part). */
export interface Engine {
  readonly name: EngineName;
  /** Whether it can keep a database in a file (the WebAssembly engine holds memory only). */
  readonly holdsFiles: boolean;
  /** Opens the database in `file` (created when missing), or in memory for `null`. */
  open(file: string | null): EngineConnection;
}

/** Why an engine cannot be used: unknown, not available on this Node, or unable to hold a data folder. */
export class StoreEngineError extends Error {
  override readonly name = 'StoreEngineError';

  constructor(
    /** `ENGINE_UNKNOWN`, `ENGINE_UNAVAILABLE` or `ENGINE_MEMORY_ONLY`. */
    readonly code: 'ENGINE_UNKNOWN' | 'ENGINE_UNAVAILABLE' | 'ENGINE_MEMORY_ONLY',
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
