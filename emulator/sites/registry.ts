/**
 * The sites of one emulator: the default site (the one `npm start` prints, in the data folder's
 * `emulator.sqlite`, the same ids across restarts) and the sites made on demand
 * (`POST /_emulator/sites`), each with its own store: in memory, or under the data folder's
 * `sites/<siteId>/` (its database and its media), so a restart opens them again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatorContext, ServiceModule, SiteDirectory } from '../service.js';
import { newIdentityValues, type IdentityValues } from '../site.js';
import type { Store } from '../store/store.js';
import { buildDemoTemplate, copyTemplate, type SiteTemplate } from './demo-template.js';
import { createKeyPool } from './key-pool.js';
import { openSite, type OpenSite } from './open-site.js';

/** What a new site starts with: the demo data, or nothing. */
export type SiteTemplateName = 'demo' | 'empty';

/** The sites of one emulator. */
export interface SiteRegistry extends SiteDirectory {
  /** The site of calls that name none. */
  readonly defaultSite: EmulatorContext;
  /** The site with this id. */
  get(siteId: string): EmulatorContext | undefined;
  /** The site whose API key this is. */
  withApiKey(apiKey: string): EmulatorContext | undefined;
  /** The site whose OAuth client this is. */
  withClient(clientId: string): EmulatorContext | undefined;
  /** Every site, the default first, then by creation. */
  list(): EmulatorContext[];
  /** Makes a site (its own ids, keys, key pair and store) from a template. */
  create(from: SiteTemplateName): Promise<EmulatorContext>;
  /** Closes a site and deletes its data; false when there is no such site. The default site cannot be removed. */
  remove(siteId: string): Promise<boolean>;
  /** Starts making key pairs ahead, so the next sites need not wait for theirs; resolves once they are made. */
  prepare(): Promise<void>;
  /** Closes every site. */
  close(): Promise<void>;
}

/** What the registry needs. */
export interface SiteRegistryOptions {
  modules: readonly ServiceModule[];
  /** The data folder, or `null` in memory. */
  dataDir: string | null;
  /** Opens a site's store: its database in `file`, or in memory for `null` (every site on one engine). */
  openStore(file: string | null): Promise<Store>;
  /** The emulator's base URL (known once it listens). */
  emulatorUrl(): string;
  /** How many key pairs to keep made ahead once {@link SiteRegistry.prepare} is called (or a site made). */
  keyPoolSize: number;
  /** Start making them at once (else at the first site made, or at `prepare()`). */
  fillKeyPoolAtStart?: boolean;
}

/** A site id as the registry makes them (a UUID): anything else in `sites/` is not a site. */
const SITE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Secrets are looked up by their hash: a map keyed by the key itself would compare it in the clear. */
const secretKey = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** Opens the default site and the sites kept in the data folder. */
export async function openSiteRegistry(options: SiteRegistryOptions): Promise<SiteRegistry> {
  const { modules, dataDir } = options;
  const keys = createKeyPool(options.keyPoolSize);
  if (options.fillKeyPoolAtStart) keys.fill();
  const newIdentity = async (): Promise<IdentityValues> => newIdentityValues(await keys.take());
  const sites = new Map<string, OpenSite>();
  const byApiKey = new Map<string, EmulatorContext>();
  const byClient = new Map<string, EmulatorContext>();
  const add = (site: OpenSite) => {
    sites.set(site.context.site.siteId, site);
    byApiKey.set(secretKey(site.context.site.apiKey), site.context);
    byClient.set(site.context.site.clientId, site.context);
  };
  const siteDir = (siteId: string) => (dataDir ? join(dataDir, 'sites', siteId) : null);
  /** Opens a site's store (in `siteDataDir`, else in memory); a new store gets `identity`, else a new one. */
  const open = async (
    siteDataDir: string | null,
    isDefault: boolean,
    identity?: IdentityValues,
    prepare?: (context: EmulatorContext) => void,
  ) => {
    return openSite({
      store: await options.openStore(siteDataDir ? join(siteDataDir, 'emulator.sqlite') : null),
      modules,
      newIdentity: identity ? async () => identity : newIdentity,
      emulatorUrl: options.emulatorUrl,
      isDefault,
      dataDir: siteDataDir,
      ...(prepare ? { prepare } : {}),
    });
  };

  const defaultSite = await open(dataDir, true);
  add(defaultSite);
  try {
    const kept = dataDir && existsSync(join(dataDir, 'sites')) ? readdirSync(join(dataDir, 'sites')) : [];
    for (const siteId of kept.filter((name) => SITE_ID.test(name)).sort())
      if (existsSync(join(siteDir(siteId)!, 'emulator.sqlite'))) add(await open(siteDir(siteId), false));
  } catch (error) {
    await Promise.allSettled([...sites.values()].map((site) => site.close()));
    throw error;
  }

  let template: Promise<SiteTemplate> | undefined;
  /** The site being made (sites are made one at a time). */
  let creating: Promise<unknown> = Promise.resolve();
  /** The demo template, made at the first site that asks for it (ids of its own, the default site's key pair). */
  const demoTemplate = () =>
    (template ??= (async () => {
      const { privateKeyPem, publicKeyPem } = Object.fromEntries(
        defaultSite.context.store
          .all<{ key: string; value: string }>(
            "SELECT key, value FROM site WHERE key IN ('privateKeyPem', 'publicKeyPem')",
          )
          .map((row) => [row.key, row.value]),
      );
      return buildDemoTemplate(
        modules,
        await options.openStore(null),
        newIdentityValues({ privateKeyPem: privateKeyPem!, publicKeyPem: publicKeyPem! }),
      );
    })().catch((error: unknown) => {
      template = undefined;
      throw error;
    }));

  return {
    defaultSite: defaultSite.context,
    of: (request) => request.site ?? defaultSite.context,
    get: (siteId) => sites.get(siteId)?.context,
    withApiKey: (apiKey) => byApiKey.get(secretKey(apiKey)),
    withClient: (clientId) => byClient.get(clientId),
    list: () => [...sites.values()].map((site) => site.context),
    create(from) {
      keys.fill();
      // One after the other: sites asked for at once, made step by step side by side, were all
      // ready only when the last one was; in turn, the first is ready after one site's time.
      const made = creating.then(async () => {
        const [identity, copied] = await Promise.all([newIdentity(), from == 'demo' ? demoTemplate() : undefined]);
        const site = await open(
          siteDir(identity.siteId!),
          false,
          identity,
          copied && ((context) => copyTemplate(copied, context)),
        );
        add(site);
        return site.context;
      });
      creating = made.catch(() => undefined);
      return made;
    },
    async remove(siteId) {
      const site = sites.get(siteId);
      if (!site || site === defaultSite) return false;
      sites.delete(siteId);
      byApiKey.delete(secretKey(site.context.site.apiKey));
      byClient.delete(site.context.site.clientId);
      await site.close();
      const directory = siteDir(siteId);
      if (directory) rmSync(directory, { recursive: true, force: true });
      return true;
    },
    prepare() {
      keys.fill();
      return keys.filled();
    },
    async close() {
      await keys.close();
      await Promise.allSettled([...[...sites.values()].map((site) => site.close())]);
    },
  };
}
