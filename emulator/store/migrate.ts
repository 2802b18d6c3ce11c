/** Schema migrations: each applied once, in list order, recorded in `schema_migrations`. */
import type { Migration, Store } from './store.js';

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
