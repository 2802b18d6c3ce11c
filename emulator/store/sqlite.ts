/** The better-sqlite3 implementation of {@link Store}: a file in WAL mode, or `:memory:`. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Migration, SqlParameters, Store } from './store.js';

/** Where the database lives: a file path, or `null` for memory. */
export interface SqliteStoreOptions {
  file: string | null;
}

/** Opens (creating when needed) the SQLite database. */
export function openSqliteStore(options: SqliteStoreOptions): Store {
  if (options.file) mkdirSync(dirname(options.file), { recursive: true });
  const database = new Database(options.file ?? ':memory:');
  if (options.file) {
    // WAL with synchronous=FULL: a write is on disk before its response is sent (the durability test kills -9).
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
  }
  database.pragma('foreign_keys = ON');
  // Case-insensitive matching (contains, startsWith, endsWith) follows JavaScript's Unicode lower-casing;
  // SQLite's own lower() only folds ASCII.
  database.function('unicode_lower', { deterministic: true }, (value: unknown) =>
    typeof value == 'string' ? value.toLowerCase() : value,
  );

  // Prepared statements are reused: the same SQL text is compiled once.
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      if (statements.size > 500) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };

  // A transaction begins at its first statement that writes, not when it is asked for: most
  // operations only read (a get, a query), and BEGIN IMMEDIATE and COMMIT cost them more than their
  // SELECT. Nothing is lost: this connection is the only one writing the database (its caches
  // already rely on that) and an operation runs synchronously, so no other change can come
  // between the reads made before the BEGIN and the writes after it. Nested transactions are
  // savepoints (better-sqlite3's transaction function, made once: it builds its statements per
  // function), inside the begun outer one.
  const begin = database.prepare('BEGIN IMMEDIATE');
  const commit = database.prepare('COMMIT');
  const rollback = database.prepare('ROLLBACK');
  const savepoint = database.transaction((work: () => unknown) => work());
  /** A transaction was asked for and has not begun: no statement of it has written yet. */
  let beginPending = false;
  const beginIfPending = () => {
    if (!beginPending) return;
    beginPending = false;
    begin.run();
  };
  /** The statement for `sql`; when it writes, the pending transaction begins first. */
  const statementFor = (sql: string): Database.Statement => {
    const statement = prepare(sql);
    if (beginPending && !statement.readonly) beginIfPending();
    return statement;
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
  database.function('sitekit_table_changed', { deterministic: false, varargs: false }, (table: unknown) => {
    changed(String(table));
    if (database.inTransaction) changedInTransaction.add(String(table));
    return null;
  });

  return {
    engine: options.file ? 'sqlite-file' : 'sqlite-memory',
    run: (sql, parameters) => {
      const statement = statementFor(sql);
      return { changes: (parameters === undefined ? statement.run() : statement.run(parameters)).changes };
    },
    get: <Row>(sql: string, parameters?: SqlParameters) => {
      const statement = statementFor(sql);
      return (parameters === undefined ? statement.get() : statement.get(parameters)) as Row | undefined;
    },
    all: <Row>(sql: string, parameters?: SqlParameters) => {
      const statement = statementFor(sql);
      return (parameters === undefined ? statement.all() : statement.all(parameters)) as Row[];
    },
    exec: (sql) => {
      beginIfPending();
      database.exec(sql);
    },
    transaction<Result>(work: () => Result): Result {
      const outermost = !beginPending && !database.inTransaction;
      try {
        if (!outermost) {
          beginIfPending();
          return savepoint(work) as Result;
        }
        beginPending = true;
        const result = work();
        if (result instanceof Promise)
          throw new TypeError('A transaction cannot return a promise: its work is synchronous');
        if (database.inTransaction) commit.run();
        return result;
      } catch (error) {
        if (outermost && database.inTransaction) rollback.run();
        for (const table of changedInTransaction) changed(table);
        throw error;
      } finally {
        if (outermost) beginPending = false;
        if (!database.inTransaction) changedInTransaction.clear();
      }
    },
    onChange(table, listener) {
      let tableListeners = listeners.get(table);
      if (!tableListeners) {
        if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
        for (const event of ['INSERT', 'UPDATE', 'DELETE'])
          database.exec(
            `CREATE TEMP TRIGGER IF NOT EXISTS sitekit_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN SELECT sitekit_table_changed('${table}'); END`,
          );
        tableListeners = new Set();
        listeners.set(table, tableListeners);
      }
      tableListeners.add(listener);
    },
    close: () => database.close(),
  };
}

/** Applies the migrations not applied yet, each in its own transaction, in list order. */
export function migrate(store: Store, migrations: readonly Migration[]): void {
  store.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const seen = new Set<string>();
  for (const migration of migrations) {
    if (seen.has(migration.id)) throw new Error(`Two migrations share the id ${migration.id}`);
    seen.add(migration.id);
    if (store.get('SELECT id FROM schema_migrations WHERE id = ?', [migration.id])) continue;
    store.transaction(() => {
      store.exec(migration.sql);
      store.run('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)', [
        migration.id,
        new Date().toISOString(),
      ]);
    });
  }
}
