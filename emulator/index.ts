/**
 * The sitekit emulator: the platform's API on SQLite, in one process (`sitekit-sdk/emulator`).
 * Node-only; never imported by the SDK.
 *
 * @example
 * ```ts
 * import { startEmulator } from 'sitekit-sdk/emulator';
 * const emulator = await startEmulator({ port: 0, memory: true });
 * const client = createClient({ baseUrl: emulator.url, auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }) });
 * // ...
 * await emulator.close();
 * ```
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { controlModule, isOrigin, seedDemoData, siteInfo } from './control/routes.js';
import { testBenchModule } from './test-bench/plugin.js';
import { checkSeed, importSeed } from './control/seed.js';
import { copySeedMedia } from './control/seed-media.js';
import { buildServer } from './http/server.js';
import type { EmulatorContext, ServiceModule } from './service.js';
import { openSiteRegistry } from './sites/registry.js';
import { sitesModule } from './sites/routes.js';
import { serviceModules } from './services/index.js';
import {
  createSite,
  createTestBench,
  type CreateSiteOptions,
  type EmulatorSite,
  type EmulatorTestBench,
} from './test-bench/bench.js';

// The types a service module is written with (see emulator/README.md).
export type { Caller, EmulatorContext, ServiceModule, ServiceCall, Operation, Handler } from './service.js';
export type { DomainEvent, EventHub } from './events.js';
export type { Store, Migration } from './store/store.js';
export { createControlClient } from './control/client.js';
export type { ControlClientOptions, ControlInput } from './control/client.js';
export type { ControlOperationId, ControlResult } from './control/api.js';
export type {
  ClockState,
  ControlClient,
  CreateSiteOptions,
  EmulatorSite,
  EmulatorClock,
  EmulatorConfig,
  EmulatorFaults,
  EmulatorTestBench,
  ExplainedDecision,
  FaultInput,
  FaultRule,
  LoggedCaller,
  LoggedRequest,
  MemberSelector,
  OutboxEmail,
  RequestFilter,
  ResetOptions,
  SettingValue,
  SiteInfo,
  StorageState,
  StorageStateOptions,
  TriggeredEvent,
  TriggerOptions,
} from './test-bench/bench.js';

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Port to listen on; `0` picks a free one. Default 4700. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1` (never exposed to the network unless asked). */
  host?: string;
  /**
   * Host names it answers to besides IP addresses, `localhost` and `host` (a Docker service name, a
   * proxy's name; `.example.com` for it and its subdomains), added to the `allowedHosts` setting.
   * Any other `Host` is refused, against DNS rebinding.
   */
  allowedHosts?: string[];
  /**
   * Origins whose browser pages may use the control API (`/_emulator/...`) besides the emulator's
   * own (its console), added to the `controlOrigins` setting: e.g. a test runner's page on
   * `http://localhost:5173` that signs members in. Other pages, even on this machine, are refused.
   */
  controlOrigins?: string[];
  /** Keep everything in memory (nothing written to disk). Default false. */
  memory?: boolean;
  /** Where the database lives when not in memory. Default `.sitekit` in the working directory. */
  dataDir?: string;
  /** A JSON file (the format of `GET /_emulator/export`) loaded on first start instead of the demo data. */
  seed?: string;
  /** Directory of the built console. Default: the package's `dist/console`. */
  consoleDir?: string;
  /** Largest request body, in bytes. Default 16 MiB. */
  bodyLimit?: number;
  /**
   * How many RSA key pairs to keep made ahead, from the first site made on demand on, so the next
   * sites need not wait for theirs (making one takes up to a second on a loaded machine). Default 8.
   */
  sitePool?: number;
}

/** Key pairs made ahead by default: the sites of 8 test workers. */
const DEFAULT_SITE_POOL = 8;

/** The connection details of the demo site: all any client needs. */
export interface EmulatorInfo {
  /** Base URL, e.g. `http://127.0.0.1:4700`: the SDK's `baseUrl`. */
  url: string;
  /** The API key: makes a client elevated. */
  apiKey: string;
  siteId: string;
  /** The OAuth client id for visitors and members. */
  clientId: string;
  /** SPKI PEM of the key that signs access tokens and webhooks. */
  publicKey: string;
}

/**
 * A running emulator, with its test bench: fault rules, the clock, signed-in test members,
 * webhook events on demand and the request log (see {@link EmulatorTestBench}).
 */
export interface Emulator extends EmulatorTestBench {
  /**
   * Makes a site with its own ids, keys, data and test bench (one per test worker): its calls and
   * its bench act on it alone, while the emulator's own bench keeps acting on the default site.
   */
  createSite(options?: CreateSiteOptions): Promise<EmulatorSite>;
  /** Base URL, e.g. `http://127.0.0.1:4700`: the SDK's `baseUrl`. */
  url: string;
  /** The demo site's connection details. */
  info: EmulatorInfo;
  /** Its internals, for tests and tools that need the store or the event hub. */
  context: EmulatorContext;
  /** Stops the server and closes the database. */
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

/** Starts an emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
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
  const modules: ServiceModule[] = [
    ...serviceModules,
    controlModule({ modules: serviceModules, startedAt: Date.now(), url: () => url }),
    testBenchModule,
  ];
  const sites = await openSiteRegistry({
    modules,
    dataDir,
    emulatorUrl: () => url,
    keyPoolSize: options.sitePool ?? DEFAULT_SITE_POOL,
  });
  try {
    const context = sites.defaultSite;
    const { store, clock } = context;
    const app = await buildServer({
      sites,
      modules: [...modules, sitesModule(sites, () => url)],
      consoleDir: options.consoleDir ?? defaultConsoleDir(),
      bodyLimit: options.bodyLimit ?? 16 * 1024 * 1024,
      host,
      allowedHosts: options.allowedHosts ?? [],
      controlOrigins: options.controlOrigins ?? [],
    });

    const seeded = store.get("SELECT value FROM site WHERE key = 'seededAt'") !== undefined;
    // Like a missing file, a seed with bad rows is worth stopping for even when it is not applied.
    if (seed && seeded) checkSeed(context, serviceModules, seed);
    if (!seeded) {
      const seedDemo = () => seedDemoData(context, serviceModules);
      if (seed) importSeed(context, serviceModules, seed, seedDemo);
      else seedDemo();
      store.run("INSERT INTO site (key, value) VALUES ('seededAt', ?)", [clock.iso()]);
      // The media bytes a pull (`sitekit-sdk pull --media`) wrote beside its file.
      if (options.seed !== undefined) await copySeedMedia(context, resolve(options.seed));
    }

    await app.listen({ port: options.port ?? 4700, host });
    const address = app.server.address();
    const port = typeof address == 'object' && address ? address.port : options.port;
    url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    let closed = false;
    return {
      url,
      info: siteInfo(context, url),
      context,
      ...createTestBench(url),
      createSite: (siteOptions) => createSite(url, siteOptions),
      async close() {
        if (closed) return;
        closed = true;
        // A keep-alive socket whose response is still finishing when close() starts is not idle, so
        // it would hold close() for the whole keep-alive timeout (72 s): let it go as soon as it is done.
        app.server.keepAliveTimeout = 1;
        await app.close();
        await sites.close();
      },
    };
  } catch (error) {
    await sites.close();
    throw error;
  }
}
