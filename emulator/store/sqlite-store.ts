/**
 * The {@link Store} on any engine (./engine.ts): the database's settings, the statement cache,
 * transactions begun at their first write, savepoints, and change listeners. The engines only
 * adapt their own calls; what the store promises is kept here, once, for all of them.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Engine, EngineConnection, EngineStatement } from './engine.js';
import type { SqlParameters, Store } from './store.js';

/** The most compiled statements kept; past it the cache starts again (the emulator's SQL is a few hundred texts). */
const STATEMENT_CACHE_SIZE = 500;

/** Opens (creating when needed) the database in `file`, or in memory for `null`, on `engine`. */
export function openStore(engine: Engine, file: string | null): Store {
  if (file) mkdirSync(dirname(file), { recursive: true });
  const connection = engine.open(file);
  try {
    configure(connection, file !== null);
    return storeOn(engine, connection, file === null);
  } catch (error) {
    connection.close();
    throw error;
  }
}

/** The settings every engine's database runs with. */
function configure(connection: EngineConnection, onDisk: boolean): void {
  if (onDisk) {
    // WAL with synchronous=FULL: a write is on disk before its response is sent (the durability test kills -9).
    connection.exec('PRAGMA journal_mode = WAL');
    connection.exec('PRAGMA synchronous = FULL');
  }
  connection.exec('PRAGMA foreign_keys = ON');
  // Another process holding the file (a second emulator, a SQLite shell) is waited for, not failed at once.
  connection.exec('PRAGMA busy_timeout = 5000');
  // Case-insensitive matching (contains, startsWith, endsWith) follows JavaScript's Unicode lower-casing;
  // SQLite's own lower() only folds ASCII.
  connection.defineFunction('unicode_lower', { deterministic: true }, (value) =>
    typeof value == 'string' ? value.toLowerCase() : value,
  );
}

/** The store over an open, configured connection. */
function storeOn(engine: Engine, connection: EngineConnection, inMemory: boolean): Store {
  // Prepared statements are reused: the same SQL text is compiled once.
  const statements = new Map<string, EngineStatement>();
  const prepare = (sql: string): EngineStatement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = connection.prepare(sql);
      if (statements.size >= STATEMENT_CACHE_SIZE) {
        for (const old of statements.values()) old.free();
        statements.clear();
      }
      statements.set(sql, statement);
    }
    return statement;
  };

  // A transaction begins at its first statement that writes, not when it is asked for: most
  // operations only read (a get, a query), and BEGIN IMMEDIATE and COMMIT cost them more than their
  // SELECT. Nothing is lost: this connection is the only one writing the database (its caches
  // already rely on that) and an operation runs synchronously, so no other change can come
  // between the reads made before the BEGIN and the writes after it. Nested transactions are
  // savepoints inside the begun outer one.
  const control = (sql: string) => {
    const statement = connection.prepare(sql);
    return () => void statement.run(undefined);
  };
  const begin = control('BEGIN IMMEDIATE');
  const commit = control('COMMIT');
  const rollback = control('ROLLBACK');
  const savepoint = control('SAVEPOINT sitekit_nested');
  const release = control('RELEASE sitekit_nested');
  const rollbackToSavepoint = control('ROLLBACK TO sitekit_nested');
  /** A transaction was asked for and has not begun: no statement of it has written yet. */
  let beginPending = false;
  /** BEGIN ran and neither COMMIT nor ROLLBACK since. */
  let begun = false;
  const beginIfPending = () => {
    if (!beginPending) return;
    beginPending = false;
    begin();
    begun = true;
  };
  /** The statement for `sql`; when it writes, the pending transaction begins first. */
  const statementFor = (sql: string): EngineStatement => {
    const statement = prepare(sql);
    if (beginPending && statement.writes) beginIfPending();
    return statement;
  };
  const refusePromise = (result: unknown) => {
    if (result instanceof Promise)
      throw new TypeError('A transaction cannot return a promise: its work is synchronous');
  };
  const nested = <Result>(work: () => Result): Result => {
    savepoint();
    try {
      const result = work();
      refusePromise(result);
      release();
      return result;
    } catch (error) {
      rollbackToSavepoint();
      release();
      throw error;
    }
  };
  const rollbackBegun = () => {
    begun = false;
    try {
      rollback();
    } catch (error) {
      // Some failures (a full disk, an I/O error) end the transaction in SQLite already.
      if (!/no transaction is active/.test((error as Error).message)) throw error;
    }
  };

  // Caches over tables (onChange) forget what they hold when a row of their table changes, by a
  // temporary trigger on this connection whatever statement changes it, and again when a
  // transaction that changed the table rolls back (a read inside it may have cached the change).
  const listeners = new Map<string, Set<() => void>>();
  /** Watched tables changed since the outermost transaction began. */
  const changedInTransaction = new Set<string>();
  const changed = (table: string) => {
    for (const listener of listeners.get(table) ?? []) listener();
  };
  connection.defineFunction('sitekit_table_changed', { deterministic: false }, (table) => {
    changed(String(table));
    if (begun) changedInTransaction.add(String(table));
    return null;
  });

  return {
    engine: engine.name,
    inMemory,
    run: (sql, parameters) => ({ changes: statementFor(sql).run(parameters) }),
    get: <Result>(sql: string, parameters?: SqlParameters) => statementFor(sql).get(parameters) as Result | undefined,
    all: <Result>(sql: string, parameters?: SqlParameters) => statementFor(sql).all(parameters) as Result[],
    exec: (sql) => {
      beginIfPending();
      connection.exec(sql);
    },
    transaction<Result>(work: () => Result): Result {
      const outermost = !beginPending && !begun;
      try {
        if (!outermost) {
          beginIfPending();
          return nested(work);
        }
        beginPending = true;
        const result = work();
        refusePromise(result);
        if (begun) {
          commit();
          begun = false;
        }
        return result;
      } catch (error) {
        if (outermost && begun) rollbackBegun();
        for (const table of changedInTransaction) changed(table);
        throw error;
      } finally {
        if (outermost) {
          beginPending = false;
          changedInTransaction.clear();
        }
      }
    },
    onChange(table, listener) {
      let tableListeners = listeners.get(table);
      if (!tableListeners) {
        if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
        for (const event of ['INSERT', 'UPDATE', 'DELETE'])
          connection.exec(
            `CREATE TEMP TRIGGER IF NOT EXISTS sitekit_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN SELECT sitekit_table_changed('${table}'); END`,
          );
        tableListeners = new Set();
        listeners.set(table, tableListeners);
      }
      tableListeners.add(listener);
    },
    close: () => connection.close(),
  };
}
