/**
 * The emulator for the React tests, with what a browser would add around it: clients whose
 * requests pass a gate (so a test can hold one back and see it aborted), and a frame host for the
 * silent flows that loads the emulator's hosted page in a window of its own (jsdom, running the
 * page's script) whose parent is this test, keeping the emulator's sign-in cookie like a browser.
 */
import { JSDOM } from 'jsdom';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createClient,
  OAuthStrategy,
  type Client,
  type FrameHost,
  type OAuthAuth,
  type Tokens,
} from '../../src/index.js';
import type { SettingValue } from '../../emulator/control/api.js';
import { startEmulator } from '../helpers/emulator.js';

/** A request as it left the client. */
export interface SentRequest {
  method: string;
  path: string;
  /** The JSON body, parsed; `undefined` for none. */
  body: any;
  /** Whether the client aborted it (before or after it reached the emulator). */
  aborted: boolean;
}

/**
 * A fetch that logs every request and can hold back (or fail, as a dropped connection) those whose
 * path starts with a prefix (and, for a hold, that use a method).
 */
function gatedFetch() {
  const sent: SentRequest[] = [];
  const holds = new Map<string, { held: Promise<void>; method: string | undefined }>();
  const failing = new Set<string>();
  const gate = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof Request ? input.url : input.href;
    const body = typeof init?.body === 'string' && init.body.startsWith('{') ? JSON.parse(init.body) : undefined;
    const entry: SentRequest = { method: init?.method ?? 'GET', path: new URL(url).pathname, body, aborted: false };
    sent.push(entry);
    const signal = init?.signal;
    signal?.addEventListener('abort', () => (entry.aborted = true), { once: true });
    for (const [prefix, { held, method }] of holds) {
      if (!entry.path.startsWith(prefix) || (method !== undefined && entry.method !== method)) continue;
      await new Promise<void>((resolve, reject) => {
        void held.then(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    if ([...failing].some((prefix) => entry.path.startsWith(prefix))) throw new TypeError('fetch failed');
    return fetch(input, init);
  };
  /** Holds back the requests to paths starting with `prefix` (only those of `method` when given) until released. */
  const hold = (prefix: string, method?: string) => {
    let release = () => {};
    holds.set(prefix, { held: new Promise((resolve) => (release = resolve)), method });
    return () => {
      holds.delete(prefix);
      release();
    };
  };
  /** Fails the requests to paths starting with `prefix` (until the returned function is called). */
  const fail = (prefix: string) => {
    failing.add(prefix);
    return () => void failing.delete(prefix);
  };
  return { gate, sent, hold, fail };
}

/** Starts an emulator (in memory) and returns it with the browser-like plumbing. */
export async function startEmulatorSite() {
  // jsdom's URL cannot point at files: the console's folder is given (none is needed here).
  const emulator = await startEmulator({ consoleDir: mkdtempSync(join(tmpdir(), 'sitekit-no-console-')) });
  const { gate, sent, hold, fail } = gatedFetch();
  /** The emulator's browser-session cookie, as a browser would keep it. */
  let cookie = '';
  const keepCookie = (response: Response) => {
    const set = response.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
  };

  /** Loads a hosted page the way a hidden frame would, in its own window, and hands its message to the listeners. */
  const frameHost: FrameHost & { listeners: Set<(event: { origin: string; data: unknown }) => void> } = {
    listeners: new Set(),
    createFrame(url) {
      let page: JSDOM | undefined;
      void fetch(url, { headers: cookie ? { cookie } : {} })
        .then(async (response) => {
          keepCookie(response);
          const html = await response.text();
          page = new JSDOM(html, {
            url,
            runScripts: 'dangerously',
            beforeParse(window) {
              const parent = {
                postMessage: (data: unknown, targetOrigin: string) => {
                  if (targetOrigin === globalThis.location.origin)
                    for (const listener of frameHost.listeners) listener({ origin: new URL(url).origin, data });
                },
              };
              Object.defineProperty(window, 'opener', { configurable: true, value: parent });
            },
          });
        })
        .catch(() => undefined);
      return { remove: () => page?.window.close() };
    },
    addMessageListener(listener) {
      frameHost.listeners.add(listener);
      return () => frameHost.listeners.delete(listener);
    },
  };

  return {
    emulator,
    url: emulator.url,
    /** Requests sent by the clients below, in order. */
    sent,
    /** Holds back the clients' requests whose path starts with `prefix` until the returned function is called. */
    hold,
    /** Fails the clients' requests whose path starts with `prefix`, as a dropped connection would, until the returned function is called. */
    fail,
    /** A visitor client of the demo site (memory storage) whose requests pass the gate. */
    client(tokens?: Tokens): Client<OAuthAuth> {
      return createClient({
        baseUrl: emulator.url,
        fetch: gate,
        retry: false,
        auth: OAuthStrategy({ clientId: emulator.info.clientId, tokens, frameHost }),
      });
    },
    /** A client signed in as the member with `email` and `password` (direct login). */
    async memberClient(email: string, password: string): Promise<Client<OAuthAuth>> {
      const client = this.client();
      const outcome = await client.auth.login({ email, password });
      if (outcome.loginState !== 'SUCCESS') throw new Error(`login of ${email}: ${outcome.loginState}`);
      await client.auth.getMemberTokensForDirectLogin(outcome.data.sessionToken, { redirectUri: this.redirectUri });
      return client;
    },
    /** Where the silent flows send their answer: this test page. */
    redirectUri: `${globalThis.location.origin}/`,
    /** Changes emulator settings (`PUT /_emulator/config`, through the typed control client). */
    async configure(config: Record<string, SettingValue>) {
      await emulator.config.update(config);
    },
    /** The code of the last verification email sent to `email`. */
    /** Creates a collection anyone may read and write, holding `items`. */
    async seed(collectionId: string, ...items: Record<string, unknown>[]) {
      const open = { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } as const;
      await emulator.admin.collections.createDataCollection({ _id: collectionId, permissions: open });
      if (items.length) await emulator.admin.items.bulkInsert(collectionId, items);
    },
    async verificationCode(email: string): Promise<string> {
      const code = (await emulator.outbox(email)).find((message) => message.code)?.code;
      if (!code) throw new Error(`no verification email to ${email}`);
      return code;
    },
    /**
     * A person signing in on the hosted page at `authUrl`: submits its form and returns where the
     * page sends the browser (the redirect URI with the code). The sign-in cookie is kept.
     */
    async signInOnHostedPage(authUrl: string, email: string, password: string): Promise<string> {
      const page = await fetch(authUrl, { redirect: 'manual' });
      const action = new URL(/<form[^>]*action="([^"]+)"/.exec(await page.text())?.[1] ?? '', authUrl);
      const response = await fetch(action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action: 'login', email, password }).toString(),
      });
      keepCookie(response);
      const location = response.headers.get('location');
      if (response.status !== 302 || !location) throw new Error(`the hosted page answered ${response.status}`);
      return location;
    },
    /** Forgets the emulator's sign-in cookie, as a fresh browser would have none. */
    forgetBrowserSession() {
      cookie = '';
    },
    close: () => emulator.close(),
  };
}

export type EmulatorSite = Awaited<ReturnType<typeof startEmulatorSite>>;
