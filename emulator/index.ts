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
import { assembleEmulator } from './assemble.js';
import { prepareNextKeyPair } from './auth/key-pairs.js';
import { siteInfo } from './control/routes.js';
import type { EmulatorContext } from './service.js';
import type { EngineChoice, EngineName } from './store/engine-names.js';
import {
  createSite,
  createTestBench,
  type CreateSiteOptions,
  type EmulatorSite,
  type EmulatorTestBench,
} from './test-bench/bench.js';
import { inProcessFetch, servedBy } from './in-process/fetch.js';
import { interceptGlobalFetch } from './in-process/intercept.js';

// The types a service module is written with (see emulator/README.md).
export type { Caller, EmulatorContext, ServiceModule, ServiceCall, Operation, Handler } from './service.js';
export type { DomainEvent, EventHub } from './events.js';
export type { Store, Migration } from './store/store.js';
export type { EngineChoice, EngineName } from './store/engine-names.js';
export { StoreEngineError } from './store/engine.js';
export { createControlClient } from './control/client.js';
export { createSite } from './test-bench/bench.js';
export type { ControlClientOptions, ControlInput } from './control/client.js';
export type { ControlOperationId, ControlResult } from './control/api.js';
export type {
  ClockState,
  ControlClient,
  CreateSiteOptions,
  EmulatorClock,
  EmulatorConfig,
  EmulatorFaults,
  EmulatorSite,
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
  EmulatorSnapshots,
  SnapshotInfo,
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
  /**
   * The SQLite engine: `node:sqlite` (Node 22.13+), `better-sqlite3` (when installed), `wasm`
   * (WebAssembly, any Node, memory only), or `auto` (the default): the first of these that works
   * here. An engine that cannot hold the data folder is refused at start with the way out.
   */
  engine?: EngineChoice;
  /** Where the database lives when not in memory. Default `.sitekit` in the working directory. */
  dataDir?: string;
  /** A JSON file (the format of `GET /_emulator/export`) loaded on first start instead of the demo data. */
  seed?: string;
  /** Directory of the built console. Default: the package's `dist/console`. */
  consoleDir?: string;
  /** Largest request body, in bytes. Default 16 MiB. */
  bodyLimit?: number;
  /**
   * How many sites' RSA key pairs to keep made ahead, so a new site need not wait for its own
   * (making one takes up to a second on a loaded machine). Default 8, at most 64 (more is refused at start). `startEmulator` starts making
   * them at once, in the background (a server a suite will ask for a site per worker: 8 sites asked
   * for at once then take milliseconds, not seconds); `0` makes none ahead. `createEmulator`, which
   * a test file may call for itself, makes them from the first site made on, unless it is given.
   */
  sitePool?: number;
}

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
  /** The SQLite engine holding the data: `node:sqlite`, `better-sqlite3` or `wasm`. */
  engine: EngineName;
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

/** Starts an emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const assembled = await assembleEmulator({ ...options, host, fillKeyPoolAtStart: true });
  const { app, context } = assembled;
  try {
    await app.listen({ port: options.port ?? 4700, host });
  } catch (error) {
    await assembled.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address == 'object' && address ? address.port : options.port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  assembled.setUrl(url);
  return {
    url,
    info: siteInfo(context, url),
    context,
    ...createTestBench(url),
    createSite: (siteOptions) => createSite(url, siteOptions),
    async close() {
      // A keep-alive socket whose response is still finishing when close() starts is not idle, so
      // it would hold close() for the whole keep-alive timeout (72 s): let it go as soon as it is done.
      app.server.keepAliveTimeout = 1;
      await assembled.close();
    },
  };
}

/** Options of {@link createEmulator}: those of {@link startEmulator} but the port and the interface, none being opened. */
export interface InProcessEmulatorOptions extends Omit<EmulatorOptions, 'port' | 'host'> {
  /** Keep everything in memory (nothing written to disk). Default **true** here (a test's emulator). */
  memory?: boolean;
}

/**
 * An emulator inside the calling process, reached through {@link InProcessEmulator.fetch}
 * instead of a port; the rest is as {@link Emulator} (its `url` is an origin no server has).
 */
export interface InProcessEmulator extends Emulator {
  /**
   * A WHATWG `fetch` that the emulator answers in this process: its own origin (`info.url`) and
   * the platform's API hosts (`https://www.wixapis.com/...`, any `*.wixapis.com`); any other URL
   * goes to the global `fetch`. Give it to a client: `createClient({ baseUrl: emulator.info.url,
   * fetch: emulator.fetch, auth })`.
   */
  fetch: typeof fetch;
  /**
   * Replaces the global `fetch` with one that sends the platform's API hosts and the emulator's
   * origin to {@link InProcessEmulator.fetch}, and every other URL to the `fetch` it replaced, so
   * code that calls the global `fetch` (the official SDK, unmodified) is served in-process.
   * Returns `restore`, which puts the original back (idempotent); `close()` restores too.
   * @example
   * ```ts
   * const restore = emulator.interceptGlobalFetch();
   * try { await wixClient.items.query('Movies').find(); } finally { restore(); }
   * ```
   */
  interceptGlobalFetch(): () => void;
}

/** How many in-process emulators this process made: each has its own origin. */
let inProcessCount = 0;

/**
 * Makes an emulator inside this process, without opening any socket: requests reach it through
 * `emulator.fetch` (or the global `fetch`, once `emulator.interceptGlobalFetch()` is called). In
 * memory unless `memory: false`. Its `info.url` is `http://sitekit-emulator.localhost` (then
 * `-2`, `-3`... for further emulators), an origin that no server answers: the links the emulator
 * builds (upload and file URLs, hosted pages) come back to it.
 *
 * @example
 * ```ts
 * import { createEmulator } from 'sitekit-sdk/emulator';
 * const emulator = await createEmulator();
 * const { apiKey, siteId, url } = emulator.info;
 * const client = createClient({ baseUrl: url, fetch: emulator.fetch, auth: ApiKeyStrategy({ apiKey, siteId }) });
 * // ...
 * await emulator.close();
 * ```
 */
export async function createEmulator(options: InProcessEmulatorOptions = {}): Promise<InProcessEmulator> {
  inProcessCount += 1;
  const host = inProcessCount == 1 ? 'sitekit-emulator.localhost' : `sitekit-emulator-${inProcessCount}.localhost`;
  const url = `http://${host}`;
  const assembled = await assembleEmulator({ ...options, memory: options.memory ?? true, host });
  // A suite that makes one emulator often makes another: its key pair, the slowest part of a start, gets made meanwhile.
  prepareNextKeyPair();
  assembled.setUrl(url);
  const serves = servedBy(url);
  const served = inProcessFetch(assembled.app, url, serves);
  let closed = false;
  const emulatorFetch: typeof fetch = (input, init) =>
    closed
      ? Promise.reject(new TypeError('fetch failed', { cause: new Error('the emulator is closed') }))
      : served(input, init);
  const restores = new Set<() => void>();
  return {
    url,
    info: siteInfo(assembled.context, url),
    context: assembled.context,
    ...createTestBench(url, { fetch: emulatorFetch }),
    createSite: (siteOptions) => createSite(url, siteOptions, { fetch: emulatorFetch }),
    fetch: emulatorFetch,
    interceptGlobalFetch() {
      const restore = interceptGlobalFetch(serves, emulatorFetch);
      restores.add(restore);
      return () => {
        restores.delete(restore);
        restore();
      };
    },
    async close() {
      closed = true;
      for (const restore of restores) restore();
      restores.clear();
      await assembled.close();
    },
  };
}
