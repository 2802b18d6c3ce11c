/**
 * The official SDK (`@wix/sdk` and its modules, unmodified) against an in-process emulator. Its
 * only change is the origin: the official client builds `https://www.wixapis.com/...` URLs (its
 * `host` option too), so a fetch that rewrites the origin of those URLs to the emulator's, and
 * passes every other request through, is installed as the global fetch (the OAuth strategy calls
 * the global fetch itself, not the client's) and given to the clients as their `fetch`.
 */
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { afterAll, beforeAll, vi } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { isProviderHost, originRewritingFetch } from '../../helpers/origin-rewriting-fetch.js';

/** Every request the official clients made, in order (method, path and parsed JSON body). */
export interface SentRequest {
  method: string;
  path: string;
  search: string;
  body: any;
}

/** The running emulator and factories of official clients for it. */
export interface OfficialHarness {
  emulator: TestEmulator;
  /** Requests the official clients sent to the emulator, in order (cleared by `sent.length = 0`). */
  sent: SentRequest[];
  /** An official client with the site's API key (elevated), with the given modules. */
  admin<M extends Record<string, unknown>>(modules: M): ReturnType<typeof createClient<M, any>>;
  /** An official client of a new visitor (OAuth, anonymous grant on its first call), with the given modules. */
  visitor<M extends Record<string, unknown>>(modules: M): ReturnType<typeof createClient<M, any>>;
}

/**
 * Starts one emulator for the file (before all its tests) and installs the rewriting fetch; both
 * are undone after all. The returned object is filled in before the first test runs.
 */
export function useOfficialHarness(): OfficialHarness {
  const harness = { sent: [] as SentRequest[] } as OfficialHarness;
  beforeAll(async () => {
    const emulator = await startEmulator();
    const realFetch = globalThis.fetch;
    const rewriting = originRewritingFetch(emulator.url, realFetch);
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (isProviderHost(url.hostname)) {
        const text = typeof init?.body == 'string' ? init.body : undefined;
        harness.sent.push({
          method: init?.method ?? 'GET',
          path: url.pathname,
          search: url.search,
          body: text ? JSON.parse(text) : undefined,
        });
      }
      return rewriting(input, init);
    };
    vi.stubGlobal('fetch', recording);
    const { apiKey, siteId, clientId } = emulator.info;
    Object.assign(harness, {
      emulator,
      admin: (modules: Record<string, unknown>) =>
        createClient({ modules, auth: ApiKeyStrategy({ apiKey, siteId }), fetch: recording }),
      visitor: (modules: Record<string, unknown>) =>
        createClient({ modules, auth: OAuthStrategy({ clientId }), fetch: recording }),
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await harness.emulator?.close();
  });
  return harness;
}

/** The `.r` request of a GET the official client sent (it sends queries as `GET ...?.r=<base64url JSON>`), or its body. */
export function requestOf(sent: SentRequest): any {
  const encoded = new URLSearchParams(sent.search).get('.r');
  return encoded ? JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) : sent.body;
}
