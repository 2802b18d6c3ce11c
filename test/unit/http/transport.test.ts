/** The transport cases over the `fetch` handler (the default of the browser build, and any caller's `fetch`). */
import { describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../../../src/client.js';
import { AbortedError, RequestError, TimeoutError } from '../../../src/errors/index.js';
import { CallDeadline } from '../../../src/http/deadline.js';
import { testClient } from '../../helpers/clients.js';
import { transportCases } from './transport-cases.js';

describe('transport over fetch', transportCases);

describe("the fetch init's signal: only when something can abort the call", () => {
  /** A fetch that answers a collection at once, or (`hang`) only ends when its signal aborts. */
  const fetchSpy = (hang = false) =>
    vi.fn<typeof fetch>(async (_url, init) => {
      if (!hang)
        return new Response(JSON.stringify({ collection: { id: 'M' } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      const signal = init?.signal;
      if (!signal) throw new Error('a hanging request without a signal would never end');
      return new Promise<Response>((_resolve, reject) =>
        signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
      );
    });
  const initOf = (spy: ReturnType<typeof fetchSpy>): RequestInit => spy.mock.calls[0]![1]!;
  const call = (options: Partial<ClientOptions>, callOptions: { signal?: AbortSignal; timeoutMs?: number } = {}) =>
    testClient(options).collections.getDataCollection('M', callOptions);

  it('CallDeadline.canAbort and attempt().canAbort: false only without a caller signal and without any time limit', () => {
    const cases: [AbortSignal | undefined, number, number, boolean, boolean][] = [
      // caller signal, call limit, attempt limit, the call's canAbort, the attempt's canAbort
      [undefined, 0, 0, false, false],
      [undefined, Infinity, Infinity, false, false],
      [undefined, 0, 50, false, true],
      [undefined, 50, 0, true, true],
      [new AbortController().signal, 0, 0, true, true],
    ];
    for (const [signal, callLimit, attemptLimit, callCanAbort, attemptCanAbort] of cases) {
      const deadline = new CallDeadline(signal, callLimit, 'op');
      const attempt = deadline.attempt(attemptLimit);
      expect([deadline.canAbort, attempt.canAbort]).toEqual([callCanAbort, attemptCanAbort]);
      attempt.end();
      deadline.finish();
    }
  });

  it('no time limits and no caller signal: no signal at all (not even `signal: undefined`)', async () => {
    const spy = fetchSpy();
    expect(await call({ fetch: spy, timeoutMs: 0, attemptTimeoutMs: 0 })).toEqual({ _id: 'M' });
    expect(initOf(spy)).not.toHaveProperty('signal');
  });

  it.each([
    ['the default time limits', {}],
    ['only a call time limit', { timeoutMs: 5000, attemptTimeoutMs: 0 }],
    ['only an attempt time limit', { timeoutMs: 0, attemptTimeoutMs: 5000 }],
  ])('%s: a signal, not aborted once the call is done', async (_name, limits) => {
    const spy = fetchSpy();
    expect(await call({ fetch: spy, ...limits })).toEqual({ _id: 'M' });
    const { signal } = initOf(spy);
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal!.aborted).toBe(false);
  });

  it("no time limits, only a caller's signal: a signal, and aborting it still ends the call", async () => {
    const spy = fetchSpy(true);
    const caller = new AbortController();
    const pending = call({ fetch: spy, timeoutMs: 0, attemptTimeoutMs: 0 }, { signal: caller.signal });
    await vi.waitFor(() => expect(spy).toHaveBeenCalledOnce(), { timeout: 10_000 });
    caller.abort();
    await expect(pending).rejects.toBeInstanceOf(AbortedError);
    expect(initOf(spy).signal!.aborted).toBe(true);
  });

  it("no client time limits, a call's own timeoutMs: a signal, and the limit ends the call", async () => {
    const spy = fetchSpy(true);
    await expect(call({ fetch: spy, timeoutMs: 0, attemptTimeoutMs: 0 }, { timeoutMs: 30 })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect(initOf(spy).signal!.aborted).toBe(true);
  });

  it('only an attempt time limit: it still ends a request that hangs', async () => {
    const spy = fetchSpy(true);
    await expect(call({ fetch: spy, timeoutMs: 0, attemptTimeoutMs: 30 })).rejects.toBeInstanceOf(TimeoutError);
    expect(initOf(spy).signal!.aborted).toBe(true);
  });
});

describe('a baseUrl that URL parsing takes only once trimmed', () => {
  // createClient checks `baseUrl` with `new URL`, which trims spaces at its ends, then builds every
  // request URL from the string as given: `https://api.test /wix-data/...`, which fetch refuses with
  // a bare `TypeError` (and the node:http handler too), on every call. A trailing space is easy to
  // get from an environment variable or a config file.
  it('is refused at createClient with a RequestError, or used trimmed: never a bare TypeError per call', async () => {
    // Parses the URL as fetch does before answering.
    const fetchLike = vi.fn<typeof fetch>(async (url, init) => {
      new Request(url, init);
      return new Response(JSON.stringify({ collection: { id: 'M' } }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    });
    let client: ReturnType<typeof testClient>;
    try {
      client = testClient({ baseUrl: 'https://api.test ', fetch: fetchLike });
    } catch (error) {
      expect(error).toBeInstanceOf(RequestError);
      return;
    }
    expect(await client.collections.getDataCollection('M')).toEqual({ _id: 'M' });
  });
});
