/**
 * The test bench of a running emulator, as `startEmulator()` returns it: fault rules, the clock,
 * signed-in test members, webhook events on demand and the request log, each a typed call of
 * the control API (`/_emulator/*`), so tests do through code what the console does by hand.
 */
import { writeFile } from 'node:fs/promises';
import { errorFromResponse, NetworkError } from '../src/errors/index.js';
import type { Tokens } from '../src/auth/types.js';
import type { ClockState } from './control/clock-routes.js';
import type { FaultInput, FaultRule } from './control/faults.js';
import { CONTROL_HEADER } from './http/request-guards.js';
import type { LoggedRequest, RequestFilter } from './control/request-log.js';

export type { ClockState, FaultInput, FaultRule, LoggedRequest, RequestFilter };
export type { ExplainedDecision } from './auth/decisions.js';
export type { LoggedCaller } from './control/request-log.js';

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

/** What {@link EmulatorTestBench.trigger} sent. */
export interface TriggeredEvent {
  /** The event's id (`metadata.eventId` for the app): the same across retries and re-sends. */
  eventId: string;
  eventType: string;
  entityId: string;
  urls: string[];
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
  faults: EmulatorFaults;
  clock: EmulatorClock;
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

/** The JSON body of `signInAs`' member selector. */
const selectorBody = (member: MemberSelector) =>
  typeof member == 'string' ? { memberId: member } : 'email' in member ? { email: member.email } : member;

/** The test bench of the emulator at `url`. */
export function createTestBench(url: string): EmulatorTestBench {
  /** One call of the control API; a refusal rejects with the SDK's error for it. */
  async function control<Result>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ result: Result; response: Response }> {
    const operation = `${method} /_emulator/${path}`;
    let response: Response;
    try {
      response = await fetch(`${url}/_emulator/${path}`, {
        method,
        // The header marks a deliberate control call (the rule for control writes, request-guards.ts).
        headers: { [CONTROL_HEADER]: '1', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (cause) {
      throw new NetworkError({ cause, operation });
    }
    const text = await response.text();
    if (!response.ok)
      throw errorFromResponse({
        status: response.status,
        statusText: response.statusText,
        body: text,
        requestId: response.headers.get('x-wix-request-id'),
        operation,
      });
    return { result: (text ? JSON.parse(text) : {}) as Result, response };
  }
  const call = async <Result>(method: string, path: string, body?: unknown) =>
    (await control<Result>(method, path, body)).result;

  const moveClock = (body: object) => call<ClockState>('POST', 'clock', body);
  const signIn = (member: MemberSelector, browserSession: boolean) =>
    control<Tokens>('POST', 'sign-in-as', { ...selectorBody(member), browserSession });

  return {
    faults: {
      add: (rule) => call<{ id: string }>('POST', 'faults', rule),
      list: async () => (await call<{ faults: FaultRule[] }>('GET', 'faults')).faults,
      remove: async (id) => void (await call('DELETE', `faults/${encodeURIComponent(id)}`)),
      clear: async () => void (await call('DELETE', 'faults')),
    },
    clock: {
      now: () => call<ClockState>('GET', 'clock'),
      advance: (seconds) => moveClock({ advanceSeconds: seconds }),
      set: (time) => moveClock({ set: time instanceof Date ? time.toISOString() : time }),
      reset: () => moveClock({ reset: true }),
    },
    signInAs: async (member) => (await signIn(member, false)).result,
    trigger: (eventType, options = {}) => call<TriggeredEvent>('POST', 'webhooks/trigger', { eventType, ...options }),
    async requests(filter = {}) {
      const query = new URLSearchParams(
        Object.entries(filter)
          .filter(([, value]) => value !== undefined)
          .map(([key, value]) => [key, String(value)]),
      );
      return (await call<{ requests: LoggedRequest[] }>('GET', `requests?${query}`)).requests;
    },
    async storageState(member, options = {}) {
      const { result: tokens, response } = await signIn(member, true);
      // `name=value; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800`, as the emulator sets it.
      const [pair = '', ...attributes] = (response.headers.get('set-cookie') ?? '').split(';');
      const separator = pair.indexOf('=');
      const maxAge = Number(attributes.find((part) => /^\s*max-age=/i.test(part))?.split('=')[1]);
      const state: StorageState = {
        cookies: [
          {
            name: pair.slice(0, separator).trim(),
            value: pair.slice(separator + 1).trim(),
            domain: new URL(url).hostname,
            path: '/',
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
