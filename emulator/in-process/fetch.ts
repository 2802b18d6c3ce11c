/**
 * `emulator.fetch`: a WHATWG `fetch` that hands each request to the emulator's Fastify app in the
 * same process (`app.inject`), with no socket. It answers the emulator's own origin and the
 * platform's API hosts (`wixapis.com` and its subdomains, mapped onto the same paths, which the
 * emulator serves as the platform does); any other URL goes to the global `fetch`, as a network would.
 */
import type { FastifyInstance } from 'fastify';
import { BufferedResponse } from './buffered-response.js';
import { readOutgoing, type Outgoing } from './outgoing.js';

/** `wixapis.com` and its subdomains (`www.wixapis.com`, the CDN host `edge.wixapis.com`): the platform's API hosts. */
export const isPlatformHost = (hostname: string): boolean =>
  hostname == 'wixapis.com' || hostname.endsWith('.wixapis.com');

/** Whether a URL is the emulator's to answer: its own origin, or the platform's API over https. */
export function servedBy(origin: string): (url: URL) => boolean {
  return (url) => url.origin == origin || (url.protocol == 'https:' && isPlatformHost(url.hostname));
}

/** The redirect statuses `fetch` follows. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose response has no body (`new Response` refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** As many redirects as `fetch` follows before it gives up. */
const MAX_REDIRECTS = 20;

/** What `fetch` rejects with when the network fails: a `TypeError('fetch failed')` with the reason as its cause. */
const fetchFailed = (message: string) => new TypeError('fetch failed', { cause: new Error(message) });

/** `promise`, or its rejection with the signal's reason as soon as `signal` aborts. */
async function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** Runs one request through the app; the response is read whole (as light-my-request always does). */
async function dispatch(app: FastifyInstance, origin: URL, outgoing: Outgoing, redirected: boolean): Promise<Response> {
  const headers: Record<string, string> = { ...outgoing.headers, host: origin.host };
  if (outgoing.body !== undefined) headers['content-length'] = String(outgoing.body.length);
  const injected = app
    .inject({
      method: outgoing.method,
      url: outgoing.url.pathname + outgoing.url.search,
      headers,
      ...(outgoing.body === undefined ? {} : { payload: outgoing.body }),
    })
    .catch((error: unknown) => {
      // A response destroyed before its end (a fault rule's dropped connection): what fetch says of a reset socket.
      throw new TypeError('fetch failed', { cause: error });
    });
  // Like a socket torn down, an abort leaves the handler to finish on its own; its answer is dropped.
  const reply = await unlessAborted(injected, outgoing.signal);
  // Resolve on a later turn of the event loop, as a socket's answer does. Answered in microtasks
  // only, a loop of calls never let the event loop run: light-my-request's response leaves a
  // setImmediate per request, and 8,000 calls in a row held 8,000 responses (about 90 MB) until
  // the loop ended; timers and the emulator's background work starved meanwhile.
  await new Promise((resolve) => setImmediate(resolve));
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
  }
  return new BufferedResponse(
    NULL_BODY.has(reply.statusCode) ? null : (reply.rawPayload as Uint8Array<ArrayBuffer>),
    { status: reply.statusCode, statusText: reply.statusMessage, headers: responseHeaders },
    { url: outgoing.url.href, redirected },
  );
}

/** The request that follows a redirect, as `fetch` makes it (303, and 301/302 after a POST, turn into a bodiless GET). */
function redirected(outgoing: Outgoing, status: number, location: URL): Outgoing {
  const toGet =
    status == 303 ? outgoing.method != 'HEAD' : (status == 301 || status == 302) && outgoing.method == 'POST';
  const headers = { ...outgoing.headers };
  if (toGet)
    for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language']) delete headers[name];
  if (location.origin != outgoing.url.origin) delete headers.authorization;
  return { ...outgoing, url: location, headers, ...(toGet ? { method: 'GET', body: undefined } : {}) };
}

/**
 * A `fetch` served by `app` for the URLs `serves` accepts, every other URL by the global `fetch`.
 * `origin` is the emulator's own (the `Host` every request carries, whatever host it was sent to).
 */
export function inProcessFetch(app: FastifyInstance, origin: string, serves: (url: URL) => boolean): typeof fetch {
  const own = new URL(origin);
  return async function emulatorFetch(input, init) {
    const read = await readOutgoing(input, init, serves);
    if (read instanceof Request) return globalThis.fetch(read);
    if (!serves(read.url)) return globalThis.fetch(input, init);
    let outgoing = read;
    for (let hops = 0; ; hops++) {
      const response = await dispatch(app, own, outgoing, hops > 0);
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null || outgoing.redirect == 'manual') return response;
      if (outgoing.redirect == 'error') throw fetchFailed(`redirect to ${location} refused (redirect: 'error')`);
      if (hops == MAX_REDIRECTS) throw fetchFailed('redirect count exceeded');
      const next = redirected(outgoing, response.status, new URL(location, outgoing.url));
      if (!serves(next.url)) {
        const { method, url, headers, body, signal } = next;
        return globalThis.fetch(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body: new Uint8Array(body) }),
          ...(signal ? { signal } : {}),
        });
      }
      outgoing = next;
    }
  };
}
