/**
 * The small store interface every service talks to. The SQL it accepts is SQLite's dialect
 * (JSON1 functions included), on whichever engine holds the database (./engine.ts).
 */
import type { EngineName } from './engine-names.js';

/** Values that can be bound to a statement's `?` or `@name` parameters. */
export type SqlValue = string | number | bigint | null | Buffer;

/** Positional (`?`) or named (`@name`) parameters. */
export type SqlParameters = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

/** A database the emulator keeps all its state in. */
export interface Store {
  /** The SQLite engine holding the database: shown in the start banner and `/_emulator/info`. */
  readonly engine: EngineName;
  /** Whether the database is in memory (lost on close) rather than in a file. */
  readonly inMemory: boolean;
  /** Runs a statement that returns no rows; reports how many rows it changed. */
  run(sql: string, parameters?: SqlParameters): { changes: number };
  /** The first row of a query, or `undefined`. */
  get<Row>(sql: string, parameters?: SqlParameters): Row | undefined;
  /** Every row of a query. */
  all<Row>(sql: string, parameters?: SqlParameters): Row[];
  /** Runs several `;`-separated statements (migrations). */
  exec(sql: string): void;
  /**
   * Runs `work` in one transaction: committed when it returns, rolled back when it throws.
   * `work` is synchronous. A nested call is a savepoint: when its `work` throws, only its own
   * changes roll back and the outer transaction goes on.
   */
  transaction<Result>(work: () => Result): Result;
  /**
   * Calls `listener` after every change to a row of `table`, whatever statement makes it (a
   * service's own, the control API's reset or import), and again when a transaction or savepoint
   * that changed it rolls back: an in-memory copy of the table's rows is then out of date. The
   * table must exist.
   */
  onChange(table: string, listener: () => void): void;
  /** Closes the database (a checkpoint of the write-ahead log included). */
  close(): void;
}

/** One versioned schema change. Applied once, in list order, recorded in `schema_migrations`. */
export interface Migration {
  /** Unique and stable: `<service>-<number>-<what>`, e.g. `items-001-tables`. Never renamed once released. */
  id: string;
  /** The SQL to run (several statements allowed). */
  sql: string;
}
