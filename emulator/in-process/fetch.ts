/**
 * `emulator.fetch`: a WHATWG `fetch` that hands each request to the emulator's Fastify app in the
 * same process (`app.inject`), with no socket. It answers the emulator's own origin and the
 * platform's API hosts (`wixapis.com` and its subdomains, mapped onto the same paths, which the
 * emulator serves as the platform does); any other URL goes to the global `fetch`, as a network would.
 */
import type { FastifyInstance } from 'fastify';

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

/** One request as the emulator's app receives it. */
interface Outgoing {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** What `fetch` rejects with when the network fails: a `TypeError('fetch failed')` with the reason as its cause. */
const fetchFailed = (message: string) => new TypeError('fetch failed', { cause: new Error(message) });

/** A `Request`'s headers as a plain object (`Headers` has already joined repeated ones). */
function plainHeaders(headers: Headers): Record<string, string> {
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = value;
  });
  return plain;
}

/** Runs one request through the app; the response is read whole (as light-my-request always does). */
async function dispatch(app: FastifyInstance, origin: URL, outgoing: Outgoing, signal: AbortSignal): Promise<Response> {
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
  const answer = signal.aborted
    ? Promise.reject(signal.reason)
    : new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  // Like a socket torn down, an abort leaves the handler to finish on its own; its answer is dropped.
  const reply = await Promise.race([injected, answer]);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(one));
  }
  const response = new Response(
    NULL_BODY.has(reply.statusCode) ? null : (reply.rawPayload as Uint8Array<ArrayBuffer>),
    {
      status: reply.statusCode,
      statusText: reply.statusMessage,
      headers: responseHeaders,
    },
  );
  Object.defineProperty(response, 'url', { value: outgoing.url.href });
  return response;
}

/** The request that follows a redirect, as `fetch` makes it (303, and 301/302 after a POST, turn into a bodiless GET). */
function redirected(outgoing: Outgoing, status: number, location: URL): Outgoing {
  const toGet =
    status == 303 ? outgoing.method != 'HEAD' : (status == 301 || status == 302) && outgoing.method == 'POST';
  const headers = { ...outgoing.headers };
  if (toGet)
    for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language']) delete headers[name];
  if (location.origin != outgoing.url.origin) delete headers.authorization;
  return toGet ? { method: 'GET', url: location, headers, body: undefined } : { ...outgoing, url: location, headers };
}

/**
 * A `fetch` served by `app` for the URLs `serves` accepts, every other URL by the global `fetch`.
 * `origin` is the emulator's own (the `Host` every request carries, whatever host it was sent to).
 */
export function inProcessFetch(app: FastifyInstance, origin: string, serves: (url: URL) => boolean): typeof fetch {
  const own = new URL(origin);
  return async function emulatorFetch(input, init) {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!serves(url)) return globalThis.fetch(request);
    // Read whole: the app gets a known length (the TUS server wants one), and a stream body can be
    // sent again after a 307 or 308, as `fetch` cannot.
    let outgoing: Outgoing = {
      method: request.method,
      url,
      headers: plainHeaders(request.headers),
      body: request.body === null ? undefined : Buffer.from(await request.arrayBuffer()),
    };
    for (let hops = 0; ; hops++) {
      const response = await dispatch(app, own, outgoing, request.signal);
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null || request.redirect == 'manual') {
        if (hops > 0) Object.defineProperty(response, 'redirected', { value: true });
        return response;
      }
      if (request.redirect == 'error') throw fetchFailed(`redirect to ${location} refused (redirect: 'error')`);
      if (hops == MAX_REDIRECTS) throw fetchFailed('redirect count exceeded');
      const next = redirected(outgoing, response.status, new URL(location, outgoing.url));
      if (!serves(next.url)) {
        const { method, url, headers, body } = next;
        return globalThis.fetch(url, {
          method,
          headers,
          ...(body === undefined ? {} : { body: new Uint8Array(body) }),
          signal: request.signal,
        });
      }
      outgoing = next;
    }
  };
}
