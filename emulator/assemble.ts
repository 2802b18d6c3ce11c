/**
 * The emulator put together without listening: its sites (the default site's store opened and
 * migrated, its identity and context, and the sites kept in the data folder), the service modules,
 * the Fastify app, the demo data or the seed. `startEmulator` listens on a port with it;
 * `createEmulator` answers through `app.inject`, with no socket.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { controlModule, isOrigin, seedDemoData } from './control/routes.js';
import { checkSeed, importSeed } from './control/seed.js';
import { copySeedMedia } from './control/seed-media.js';
import { buildServer } from './http/server.js';
import type { EmulatorContext, ServiceModule } from './service.js';
import { serviceModules } from './services/index.js';
import { openEngineStore } from './store/choose-engine.js';
import type { EngineChoice } from './store/engine-names.js';
import { openSiteRegistry, type SiteRegistry } from './sites/registry.js';
import { sitesModule } from './sites/routes.js';
import type { Store } from './store/store.js';
import { testBenchModule } from './test-bench/plugin.js';
import { DEFAULT_SITE_POOL, sitePoolProblem } from './sites/site-pool-size.js';

/** What {@link assembleEmulator} needs: the start options that are not about listening. */
export interface AssemblyOptions {
  /** A host name the emulator answers to (the interface it binds, or its in-process origin's). */
  host: string;
  /** See `EmulatorOptions.allowedHosts`. */
  allowedHosts?: string[] | undefined;
  /** See `EmulatorOptions.controlOrigins`. */
  controlOrigins?: string[] | undefined;
  /** Keep everything in memory (nothing written to disk). */
  memory?: boolean | undefined;
  /** Where the database lives when not in memory. Default `.sitekit` in the working directory. */
  dataDir?: string | undefined;
  /** See `EmulatorOptions.engine`. Default `auto`. */
  engine?: EngineChoice | undefined;
  /** A JSON file (the format of `GET /_emulator/export`) loaded on first start instead of the demo data. */
  seed?: string | undefined;
  /** Directory of the built console. Default: the package's `dist/console`. */
  consoleDir?: string | undefined;
  /** Largest request body, in bytes. Default 16 MiB. */
  bodyLimit?: number | undefined;
  /** See `EmulatorOptions.sitePool`. */
  sitePool?: number | undefined;
  /** Make the pool's key pairs from the start; default: only when `sitePool` is given. */
  fillKeyPoolAtStart?: boolean | undefined;
}

/** An emulator put together, not yet reachable: what `startEmulator` and `createEmulator` serve. */
export interface AssembledEmulator {
  /** The Fastify app, routes registered, not listening. */
  app: FastifyInstance;
  /** The default site's context. */
  context: EmulatorContext;
  /** The default site's store. */
  store: Store;
  /** Every site. */
  sites: SiteRegistry;
  /** The service modules, the control and test bench modules last. */
  modules: readonly ServiceModule[];
  /**
   * Sets the emulator's own URL (`context.url()`): the origin of the links it builds (upload and
   * file URLs, hosted pages). Known only once it listens, or from the start in-process.
   */
  setUrl(url: string): void;
  /** Closes the app (and its server, if it listens) and then the database. */
  close(): Promise<void>;
}

/** The default console directory: `dist/console` of the package, from source or from the build. */
function defaultConsoleDir(): string {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const candidates = [resolve(here, 'console'), resolve(here, '..', 'dist', 'console')];
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[1]!;
}

/** The parsed seed file; a missing or unreadable file, or one that is not JSON, throws saying which. */
async function readSeedFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code == 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new Error(`seed file ${resolve(path)}: ${reason}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`seed file ${resolve(path)} is not JSON: ${(error as Error).message}`);
  }
}

/** The service modules plus the control and test bench modules; `url()` is the emulator's base URL. */
function allModules(url: () => string): ServiceModule[] {
  return [...serviceModules, controlModule({ modules: serviceModules, startedAt: Date.now(), url }), testBenchModule];
}

/** Loads the demo data, or the seed, into a site seeded for the first time; checks a seed otherwise. */
async function seedSite(context: EmulatorContext, seed: unknown, seedPath: string | undefined): Promise<void> {
  const { store, clock } = context;
  const seeded = store.get("SELECT value FROM site WHERE key = 'seededAt'") !== undefined;
  // Like a missing file, a seed with bad rows is worth stopping for even when it is not applied.
  if (seed && seeded) checkSeed(context, serviceModules, seed);
  if (seeded) return;
  const seedDemo = () => seedDemoData(context, serviceModules);
  if (seed) importSeed(context, serviceModules, seed, seedDemo);
  else seedDemo();
  store.run("INSERT INTO site (key, value) VALUES ('seededAt', ?)", [clock.iso()]);
  // The media bytes a pull (`sitekit-sdk pull --media`) wrote beside its file.
  if (seedPath !== undefined) await copySeedMedia(context, resolve(seedPath));
}

/**
 * Puts an emulator together without opening any socket: checks the options, opens and migrates
 * the store, loads the site identity, builds the context, the modules and the Fastify app, and
 * seeds a new site. On failure the store is closed again.
 */
export async function assembleEmulator(options: AssemblyOptions): Promise<AssembledEmulator> {
  const poolProblem = options.sitePool === undefined ? undefined : sitePoolProblem(options.sitePool);
  if (poolProblem) throw new Error(`sitePool ${poolProblem} (got ${options.sitePool})`);
  // Read first, whether or not it will be applied: a seed file that is missing or not JSON is a
  // mistake worth stopping for even when the data folder already holds a site.
  const seed = options.seed === undefined ? undefined : await readSeedFile(options.seed);
  const badOrigin = options.controlOrigins?.find((origin) => !isOrigin(origin));
  if (badOrigin !== undefined)
    throw new Error(
      `controlOrigins: ${badOrigin} is not an origin (like http://localhost:5173: no path, no trailing slash)`,
    );
  const dataDir = options.memory ? null : resolve(options.dataDir ?? '.sitekit');
  let url = '';
  const modules = allModules(() => url);
  const sites = await openSiteRegistry({
    modules,
    dataDir,
    // Every site's store on the same engine.
    openStore: (file) => openEngineStore(options.engine, file),
    emulatorUrl: () => url,
    keyPoolSize: options.sitePool ?? DEFAULT_SITE_POOL,
    // A server (startEmulator), or a pool asked for by name: sites will be made; otherwise key
    // pairs are made from the first site on.
    fillKeyPoolAtStart: options.fillKeyPoolAtStart ?? options.sitePool !== undefined,
  });
  try {
    const context = sites.defaultSite;
    const app = await buildServer({
      sites,
      modules: [...modules, sitesModule(sites, () => url)],
      consoleDir: options.consoleDir ?? defaultConsoleDir(),
      bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
      host: options.host,
      allowedHosts: options.allowedHosts ?? [],
      controlOrigins: options.controlOrigins ?? [],
    });
    await seedSite(context, seed, options.seed);

    let closed = false;
    return {
      app,
      context,
      store: context.store,
      sites,
      modules,
      setUrl(next) {
        url = next;
      },
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await sites.close();
      },
    };
  } catch (error) {
    await sites.close();
    throw error;
  }
}
