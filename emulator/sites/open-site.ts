/**
 * One site's runtime: its store migrated, its identity, settings, clock, events and tokens (its
 * {@link EmulatorContext}), and what each module keeps per site (started here, stopped when the
 * site closes).
 */
import { createTokenService, tokenMigrations } from '../auth/tokens.js';
import { createClock } from '../clock.js';
import { configMigrations, createConfigStore, type ConfigSetting } from '../config.js';
import { createEventHub } from '../events.js';
import type { EmulatorContext, ServiceModule, SiteStop } from '../service.js';
import { loadSiteIdentity, siteMigrations, type IdentityValues } from '../site.js';
import { migrate } from '../store/migrate.js';
import type { Migration, Store } from '../store/store.js';
import { SITE_PATH_PREFIX } from './site-path.js';

/** Every migration of a site's store, in order. */
export const siteStoreMigrations = (modules: readonly ServiceModule[]): Migration[] => [
  ...siteMigrations,
  ...configMigrations,
  ...tokenMigrations,
  ...modules.flatMap((module) => module.migrations ?? []),
];

/** What {@link openSite} needs. */
export interface OpenSiteOptions {
  /** The site's store (opened, not yet migrated); the site closes it. */
  store: Store;
  modules: readonly ServiceModule[];
  /** The identity of a store without a site yet. */
  newIdentity(): Promise<IdentityValues>;
  /** The emulator's base URL (known once it listens). */
  emulatorUrl(): string;
  /** The default site's URLs are the emulator's; the others' start with their own path. */
  isDefault: boolean;
  /** The site's data directory, or `null` in memory. */
  dataDir: string | null;
  /** Runs on the migrated store before the modules start (the demo template's rows go in here). */
  prepare?(context: EmulatorContext): void;
}

/** An open site. */
export interface OpenSite {
  context: EmulatorContext;
  /** Stops what its modules run for it and closes its store. */
  close(): Promise<void>;
}

/** Opens a site on `options.store`: migrates it, reads (or makes) its identity, starts its modules. */
export async function openSite(options: OpenSiteOptions): Promise<OpenSite> {
  const { store, modules } = options;
  migrate(store, siteStoreMigrations(modules));
  const site = await loadSiteIdentity(store, options.newIdentity);
  const settings: Record<string, ConfigSetting> = Object.assign({}, ...modules.map((module) => module.config ?? {}));
  const config = createConfigStore(store, settings);
  const clock = createClock();
  const ownPath = options.isDefault ? '' : `${SITE_PATH_PREFIX}${site.siteId}`;
  const context: EmulatorContext = {
    store,
    site,
    config,
    events: createEventHub(clock),
    tokens: createTokenService(store, site, config, clock),
    clock,
    url: () => {
      const base = options.emulatorUrl();
      return base && base + ownPath;
    },
    dataDir: options.dataDir,
  };
  options.prepare?.(context);
  const stops: SiteStop[] = [];
  for (const module of modules) {
    const stop = module.start?.(context);
    if (stop) stops.push(stop);
  }
  let closed: Promise<void> | undefined;
  return {
    context,
    close: () =>
      (closed ??= (async () => {
        await Promise.allSettled(stops.map((stop) => stop()));
        store.close();
      })()),
  };
}
