/**
 * The demo template: the demo site's rows and media bytes, made once per emulator and copied into
 * each site made `from: 'demo'`. Seeding a store (migrations, the demo modules' writes, password
 * hashes, images) for every new site took far longer than copying rows already made.
 *
 * The template is seeded under ids of its own (site, owner, client): the copy puts the new site's
 * ids wherever the template's appear in a row (items' `_owner`, media descriptors' `siteId`), so a
 * module that writes its site's ids into its rows needs nothing here.
 */
import { copyFileSync, constants, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { seedDemoData } from '../control/routes.js';
import { stateTableColumns } from '../control/state.js';
import type { EmulatorContext, ServiceModule } from '../service.js';
import { mediaDirectories } from '../services/media/file-store.js';
import type { IdentityValues } from '../site.js';
import type { SqlValue, Store } from '../store/store.js';
import { openSqliteStore } from '../store/sqlite.js';
import { openSite } from './open-site.js';

/** One table's rows, and the statement that writes one. */
interface TemplateTable {
  insert: string;
  rows: SqlValue[][];
}

/** The demo state, ready to copy. */
export interface SiteTemplate {
  tables: TemplateTable[];
  /** The template's ids, each replaced by the new site's in every copied value. */
  ids: { siteId: string; ownerId: string; clientId: string };
  /** Where the template's media bytes are. */
  mediaFiles: string;
  /** Closes the template's store and removes its media directory. */
  dispose(): Promise<void>;
}

/** Makes the demo template: a site in memory, seeded, read back into rows. */
export async function buildDemoTemplate(
  modules: readonly ServiceModule[],
  identity: IdentityValues,
): Promise<SiteTemplate> {
  const template = await openSite({
    store: openSqliteStore({ file: null }),
    modules,
    newIdentity: async () => identity,
    emulatorUrl: () => '',
    isDefault: false,
    dataDir: null,
  });
  const { context } = template;
  seedDemoData(context, modules);
  const tables = [...stateTableColumns(context.store)].map(([name, columns]): TemplateTable => {
    const rows = context.store.all<Record<string, SqlValue>>(`SELECT * FROM "${name}"`);
    const names = columns.map((column) => `"${column}"`).join(', ');
    return {
      insert: `INSERT INTO "${name}" (${names}) VALUES (${columns.map(() => '?').join(', ')})`,
      rows: rows.map((row) => columns.map((column) => row[column] ?? null)),
    };
  });
  return {
    tables: tables.filter((table) => table.rows.length),
    ids: { siteId: context.site.siteId, ownerId: context.site.ownerId, clientId: context.site.clientId },
    mediaFiles: mediaDirectories(context).files,
    // Its media directory goes with it.
    dispose: () => template.close(),
  };
}

/** Copies the template into a new site's migrated, empty store and media directory. */
export function copyTemplate(template: SiteTemplate, context: EmulatorContext): void {
  const replacements: [string, string][] = [
    [template.ids.siteId, context.site.siteId],
    [template.ids.ownerId, context.site.ownerId],
    [template.ids.clientId, context.site.clientId],
  ];
  const own = (value: SqlValue): SqlValue => {
    if (typeof value != 'string') return value;
    let text = value;
    for (const [from, to] of replacements) if (text.includes(from)) text = text.replaceAll(from, to);
    return text;
  };
  const store: Store = context.store;
  store.transaction(() => {
    for (const table of template.tables) for (const row of table.rows) store.run(table.insert, row.map(own));
  });
  const files = mediaDirectories(context).files;
  // A copy, not a link: a site's bytes are its own (copy-on-write where the file system can).
  for (const name of readdirSync(template.mediaFiles))
    copyFileSync(join(template.mediaFiles, name), join(files, name), constants.COPYFILE_FICLONE);
}
