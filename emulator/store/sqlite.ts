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
  const bind = (parameters: SqlParameters | undefined): unknown[] => (parameters === undefined ? [] : [parameters]);

  // One transaction function for every call: better-sqlite3 builds its BEGIN/COMMIT/SAVEPOINT
  // statements per function, which is most of a small write's cost when made anew each time.
  // Outermost: BEGIN IMMEDIATE (takes the write lock at once); nested: a savepoint.
  const inTransaction = database.transaction((work: () => unknown) => work());

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
    run: (sql, parameters) => ({ changes: prepare(sql).run(...bind(parameters)).changes }),
    get: <Row>(sql: string, parameters?: SqlParameters) => prepare(sql).get(...bind(parameters)) as Row | undefined,
    all: <Row>(sql: string, parameters?: SqlParameters) => prepare(sql).all(...bind(parameters)) as Row[],
    exec: (sql) => void database.exec(sql),
    transaction<Result>(work: () => Result): Result {
      try {
        return inTransaction.immediate(work) as Result;
      } catch (error) {
        for (const table of changedInTransaction) changed(table);
        throw error;
      } finally {
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
