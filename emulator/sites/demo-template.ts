/**
 * The demo template: the demo site's whole state (its rows and media bytes, as a snapshot holds
 * them: `control/snapshot-content.ts`), made once per emulator and restored into each site made
 * `from: 'demo'`. Seeding every new site (the demo modules' writes, password hashes, images) took
 * far longer than putting back rows already made.
 *
 * The template is seeded under ids of its own (site, owner, client): each copy puts the new site's
 * ids wherever the template's appear in a row (items' `_owner`, media descriptors' `siteId`), so a
 * module that writes its site's ids into its rows needs nothing here.
 */
import { seedDemoData } from '../control/routes.js';
import { takeContent, writeContent, type SnapshotContent } from '../control/snapshot-content.js';
import type { EmulatorContext, ServiceModule } from '../service.js';
import type { IdentityValues } from '../site.js';
import type { SqlValue, Store } from '../store/store.js';
import { openSite } from './open-site.js';

/** The demo state, ready to copy. */
export interface SiteTemplate {
  content: SnapshotContent;
  /** The template's ids, each replaced by the new site's in every copied value. */
  ids: { siteId: string; ownerId: string; clientId: string };
}

/** Makes the demo template: a site in `store` (in memory), seeded, taken as a snapshot, closed. */
export async function buildDemoTemplate(
  modules: readonly ServiceModule[],
  store: Store,
  identity: IdentityValues,
): Promise<SiteTemplate> {
  const template = await openSite({
    store,
    modules,
    newIdentity: async () => identity,
    emulatorUrl: () => '',
    isDefault: false,
    dataDir: null,
  });
  try {
    const { context } = template;
    seedDemoData(context, modules);
    return {
      content: takeContent(context),
      ids: { siteId: context.site.siteId, ownerId: context.site.ownerId, clientId: context.site.clientId },
    };
  } finally {
    await template.close();
  }
}

/**
 * Puts the template into a new site, just migrated (the template's tables, all empty, nothing
 * cached yet): its rows, with the site's own ids, and its media bytes.
 */
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
  const { content } = template;
  const tables = content.tables.map((table) => ({ ...table, rows: table.rows.map((row) => row.map(own)) }));
  writeContent(context, { ...content, tables });
}
