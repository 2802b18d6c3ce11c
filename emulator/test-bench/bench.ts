/**
 * The test bench of a running emulator, as `startEmulator()` returns it: fault rules, the clock,
 * signed-in test members, webhook events on demand, named snapshots and the request log, each a typed call of
 * the control API (`/_emulator/*`), so tests do through code what the console does by hand.
 */
import { writeFile } from 'node:fs/promises';
import type { Tokens } from '../../src/auth/types.js';
import type {
  ClockMove,
  ClockState,
  ControlSchema,
  FaultInput,
  FaultRule,
  LoggedRequest,
  OutboxEmail,
  RequestFilter,
  SettingValue,
  Snapshot,
  TriggeredEvent,
} from '../control/api.js';
import { createControlClient, type ControlClient } from '../control/client.js';

export type {
  ClockState,
  FaultInput,
  FaultRule,
  LoggedRequest,
  OutboxEmail,
  RequestFilter,
  SettingValue,
  TriggeredEvent,
};
export type { ControlClient };
/** A site's connection details, as `POST /_emulator/sites` and `GET /_emulator/info` answer them. */
export type SiteInfo = ControlSchema<'SiteInfo'>;
export type { ExplainedDecision, LoggedCaller } from '../control/api.js';

/** Fault injection: make matching requests fail, arrive late, or lose their connection. */
export interface EmulatorFaults {
  /**
   * Adds a rule; resolves to its id.
   * @example
   * ```ts
   * await emulator.faults.add({ operation: 'items.query', status: 503, times: 2 });
   * ```
   */
  add(rule: FaultInput): Promise<{ id: string }>;
  /** Every rule, with how often it fired. */
  list(): Promise<FaultRule[]>;
  /** Removes one rule. */
  remove(id: string): Promise<void>;
  /** Removes every rule. */
  clear(): Promise<void>;
}

/** The emulator's clock: every expiry (tokens, codes, signed URLs, sessions) follows it. */
export interface EmulatorClock {
  /** The emulator's time and its offset from real time. */
  now(): Promise<ClockState>;
  /**
   * Moves time by `seconds` (backward when negative).
   * @example
   * ```ts
   * await emulator.clock.advance(4 * 3600); // every access token issued before has expired
   * ```
   */
  advance(seconds: number): Promise<ClockState>;
  /** Makes the emulator's time `time` now (a `Date`, an ISO string or epoch milliseconds). */
  set(time: Date | string | number): Promise<ClockState>;
  /** Back to real time. */
  reset(): Promise<ClockState>;
}

/** A saved snapshot: its name, when it was saved (on the emulator's clock), and its size. */
export type SnapshotInfo = Snapshot;

/**
 * Named snapshots of the site's whole state (every table, media bytes): save one, put it back as
 * often as wanted. The clock, the fault rules and the request log are not part of it.
 */
export interface EmulatorSnapshots {
  /**
   * Saves the state as `name` (a snapshot of that name is replaced).
   * @example
   * ```ts
   * beforeAll(() => emulator.snapshots.save('seeded'));
   * beforeEach(() => emulator.snapshots.restore('seeded'));
   * ```
   */
  save(name: string): Promise<SnapshotInfo & { replaced: boolean }>;
  /** Puts the state back as `name` holds it; an unknown name rejects with an `ApplicationError` (404). */
  restore(name: string): Promise<SnapshotInfo>;
  /** Every snapshot, oldest first. */
  list(): Promise<SnapshotInfo[]>;
  /** Removes one; an unknown name rejects with an `ApplicationError` (404). */
  remove(name: string): Promise<void>;
}

/** The emulator's settings (`/_emulator/config`): switches, limits, origins, webhook URLs. */
export interface EmulatorConfig {
  /** Every setting's value. */
  get(): Promise<Record<string, SettingValue>>;
  /**
   * Changes some settings, all or nothing (a wrong value rejects with a `ValidationError`); resolves to every setting's new value.
   * @example
   * ```ts
   * await emulator.config.update({ ownerApprovalRequired: true });
   * ```
   */
  update(changes: Record<string, SettingValue>): Promise<Record<string, SettingValue>>;
}

/** Options of {@link EmulatorTestBench.reset}. */
export interface ResetOptions {
  /** Seed the demo data afterwards. Default true. */
  seed?: boolean;
}

/** Whom {@link EmulatorTestBench.signInAs} signs in: a member id, or `{email}`. */
export type MemberSelector = string | { memberId: string } | { email: string };

/** Options of {@link EmulatorTestBench.trigger}. */
export interface TriggerOptions {
  /** The data collection of an item or collection event. Default `Movies`. */
  collection?: string;
  /** The entity (item, collection, member, file); default the first there is. */
  id?: string;
  /** Where to send it; default the config's `webhookUrls`. */
  urls?: string[];
  /** Sign it with a key that is not the site's, so the app's refusal path runs. */
  badSignature?: boolean;
}

/** A Playwright `storageState` (the shape `browser.newContext({ storageState })` takes). */
export interface StorageState {
  cookies: {
    name: string;
    value: string;
    domain: string;
    path: string;
    expires: number;
    httpOnly: boolean;
    secure: boolean;
    sameSite: 'Lax';
  }[];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

/** Options of {@link EmulatorTestBench.storageState}. */
export interface StorageStateOptions {
  /** The origin of the app under test, whose `localStorage` gets the member's tokens. */
  appOrigin?: string;
  /** The `localStorage` key the app's `localStorageTokenStorage` reads. Default `sitekit.tokens`. */
  storageKey?: string;
  /** Also writes the state to this JSON file (for Playwright's `use: { storageState }`). */
  path?: string;
}

/** The controls `startEmulator()` adds to a running emulator. */
export interface EmulatorTestBench {
  /** The typed client of the whole control API, for what the shortcuts here do not cover. */
  control: ControlClient;
  faults: EmulatorFaults;
  clock: EmulatorClock;
  config: EmulatorConfig;
  snapshots: EmulatorSnapshots;
  /** The emails the emulator "sent" (verification codes, recovery links), newest first; `to` keeps those to one address. */
  outbox(to?: string): Promise<OutboxEmail[]>;
  /** Empties the state, the request log, the fault rules and the clock offset, then seeds the demo data unless `{seed: false}`. */
  reset(options?: ResetOptions): Promise<{ reset: true; seeded: boolean }>;
  /**
   * Tokens of an approved member, without a sign-in: usable with `OAuthStrategy({ tokens })`.
   * @example
   * ```ts
   * const tokens = await emulator.signInAs({ email: 'ada@example.com' });
   * const client = createClient({ baseUrl: emulator.url, auth: OAuthStrategy({ clientId: emulator.info.clientId, tokens }) });
   * ```
   */
  signInAs(member: MemberSelector): Promise<Tokens>;
  /**
   * Sends a signed domain event of any type the platform sends (built from the emulator's data)
   * to `urls` or the config's `webhookUrls`; delivery goes on in the background, with retries.
   */
  trigger(eventType: string, options?: TriggerOptions): Promise<TriggeredEvent>;
  /** The request log, newest first: every request with its caller, permission decision and fault. */
  requests(filter?: RequestFilter): Promise<LoggedRequest[]>;
  /**
   * A Playwright `storageState` of a browser signed in as the member: the emulator's sign-in
   * cookie (the console and silent sign-in), and with `appOrigin` the tokens in the app's
   * `localStorage`.
   */
  storageState(member: MemberSelector, options?: StorageStateOptions): Promise<StorageState>;
}

/** What a site made on demand starts with. */
export interface CreateSiteOptions {
  /** The demo data (default), or nothing. */
  from?: 'demo' | 'empty';
}

/** A site made on demand (`emulator.createSite()`): its connection details and its own test bench. */
export interface EmulatorSite extends EmulatorTestBench {
  /** Its connection details: `url` is the emulator's; the API key with `siteId`, or the client id, reach this site. */
  info: SiteInfo;
  /** Deletes the site and all its data. */
  remove(): Promise<void>;
}

/**
 * Makes a site on the emulator at `url`: its own ids, keys, data, clock, fault rules and request log.
 * @example
 * ```ts
 * const site = await emulator.createSite();
 * const admin = createClient({ baseUrl: site.info.url, auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }) });
 * await site.clock.advance(3600); // this site's clock only
 * await site.remove();
 * ```
 */
export async function createSite(
  url: string,
  options: CreateSiteOptions = {},
  reach: Pick<TestBenchOptions, 'fetch'> = {},
): Promise<EmulatorSite> {
  const control = createControlClient({ baseUrl: url, ...reach });
  const info = await control.call('createSite', { body: options });
  return {
    info,
    ...createTestBench(url, { ...reach, siteId: info.siteId }),
    remove: async () => void (await control.call('deleteSite', { params: { siteId: info.siteId } })),
  };
}

/** The JSON body of `signInAs`' member selector. */
const selectorBody = (member: MemberSelector) => (typeof member == 'string' ? { memberId: member } : member);

/** How the test bench reaches its emulator besides its URL. */
export interface TestBenchOptions {
  /** The `fetch` its requests go through (an in-process emulator's); default the global one. */
  fetch?: typeof globalThis.fetch;
  /** The site it acts on (`x-sitekit-site`); default the emulator's default site. */
  siteId?: string;
}

/** The test bench of the emulator at `url`, over the control API's typed client. */
export function createTestBench(url: string, options: TestBenchOptions = {}): EmulatorTestBench {
  const control = createControlClient({ baseUrl: url, ...options });
  const moveClock = (body: ClockMove) => control.call('moveClock', { body });
  const signIn = (member: MemberSelector, browserSession: boolean) =>
    control.send('signInAs', { body: { ...selectorBody(member), browserSession } });

  return {
    control,
    faults: {
      add: (rule) => control.call('addFault', { body: rule }),
      list: async () => (await control.call('listFaults')).faults,
      remove: async (id) => void (await control.call('removeFault', { params: { id } })),
      clear: async () => void (await control.call('clearFaults')),
    },
    clock: {
      now: () => control.call('getClock'),
      advance: (seconds) => moveClock({ advanceSeconds: seconds }),
      set: (time) => moveClock({ set: time instanceof Date ? time.toISOString() : time }),
      reset: () => moveClock({ reset: true }),
    },
    config: {
      get: async () => (await control.call('getConfig')).config,
      update: async (changes) => (await control.call('updateConfig', { body: { config: changes } })).config,
    },
    snapshots: {
      save: (name) => control.call('saveSnapshot', { body: { name } }),
      restore: (name) => control.call('restoreSnapshot', { params: { name } }),
      list: async () => (await control.call('listSnapshots')).snapshots,
      remove: async (name) => void (await control.call('removeSnapshot', { params: { name } })),
    },
    outbox: async (to) => (await control.call('listOutbox', { query: to === undefined ? {} : { to } })).emails,
    reset: (options = {}) => control.call('reset', { body: options }),
    signInAs: async (member) => (await signIn(member, false)).result as Tokens,
    trigger: (eventType, options = {}) => control.call('triggerEvent', { body: { eventType, ...options } }),
    requests: async (filter = {}) => (await control.call('listRequests', { query: filter })).requests,
    async storageState(member, options = {}) {
      const { result: tokens, response } = await signIn(member, true);
      // `name=value; Path=/_sites/<id>; HttpOnly; SameSite=Lax; Max-Age=604800`, as the emulator sets it.
      // Stryker disable next-line StringLiteral: sign-in-as with browserSession always sets its cookie ('' only satisfies the types).
      const setCookie = response.headers.get('set-cookie') ?? '';
      const [pair, ...attributes] = setCookie.split(';') as [string, ...string[]];
      const separator = pair.indexOf('=');
      /** The value of the cookie's attribute `name` (lower case), if it has it. */
      const attribute = (name: string) =>
        attributes
          .map((part) => part.trim())
          .find((part) => part.toLowerCase().startsWith(`${name}=`))
          ?.slice(name.length + 1);
      const maxAge = Number(attribute('max-age'));
      const state: StorageState = {
        cookies: [
          {
            name: pair.slice(0, separator),
            value: pair.slice(separator + 1),
            domain: new URL(url).hostname,
            // A site's cookie is on the site's path: on `/` it would reach every site, and replace the default site's.
            path: attribute('path') || '/',
            // Stryker disable next-line UnaryOperator: the emulator's cookie always has a Max-Age (-1, a session cookie, is a fallback).
            expires: Number.isFinite(maxAge) ? Math.floor(Date.now() / 1000) + maxAge : -1,
            httpOnly: true,
            secure: false,
            sameSite: 'Lax',
          },
        ],
        origins: options.appOrigin
          ? [
              {
                origin: new URL(options.appOrigin).origin,
                localStorage: [{ name: options.storageKey ?? 'sitekit.tokens', value: JSON.stringify(tokens) }],
              },
            ]
          : [],
      };
      if (options.path) await writeFile(options.path, JSON.stringify(state, null, 2));
      return state;
    },
  };
}
