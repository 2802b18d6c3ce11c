/**
 * The export format, version 2: the site's state as the platform's wire entities (collections,
 * items per collection, references, members and their sign-in data, file descriptors, settings),
 * each section read and written by the store that keeps it (`ServiceModule.entities`), never a
 * table's rows. Sessions, logs, the outbox and uploads in progress are not the site's: an import
 * ends them.
 */
import type { EmulatorContext, ServiceModule } from '../service.js';
import type { SiteEntities, SiteExport } from './api.js';
import { clearState } from './state.js';

/** What a version 2 file is known by. */
export const EXPORT_FORMAT = 'sitekit-emulator-state';

/** The sections of an empty site: what a file leaves out stays empty. */
const emptyEntities = (): SiteEntities => ({
  collections: [],
  items: {},
  references: [],
  members: [],
  identities: [],
  files: [],
  config: {},
});

/** The whole state, version 2: every module's sections, and the settings. */
export function exportEntities(context: EmulatorContext, modules: readonly ServiceModule[]): SiteExport {
  const entities = emptyEntities();
  for (const module of modules) Object.assign(entities, module.entities?.export(context));
  entities.config = context.config.values() as SiteEntities['config'];
  return { format: EXPORT_FORMAT, version: 2, exportedAt: context.clock.iso(), ...entities };
}

/**
 * Replaces the state with a version 2 file (the caller's transaction makes it all or nothing);
 * answers how many of each section were written.
 */
export function importEntities(
  context: EmulatorContext,
  modules: readonly ServiceModule[],
  file: Partial<SiteEntities>,
): Record<string, number> {
  const entities = { ...emptyEntities(), ...file };
  clearState(context.store);
  for (const module of modules) module.entities?.import(context, entities);
  context.config.update(entities.config);
  return {
    collections: entities.collections.length,
    items: Object.values(entities.items).reduce((total, list) => total + list.length, 0),
    references: entities.references.length,
    members: entities.members.length,
    identities: entities.identities.length,
    files: entities.files.length,
    config: Object.keys(entities.config).length,
  };
}
