/**
 * A `fetch` call's arguments read into the one request the emulator's app receives: method, URL,
 * headers as a plain object, the body whole. The SDKs' calls (a URL, plain headers, a string or
 * bytes body) are read directly; anything else (a `Request`, a stream, a form) through a
 * `Request`, which costs more (it builds streams) but reads every body `fetch` takes.
 */

/** One request as the emulator's app receives it, and how `fetch` was asked to treat it. */
export interface Outgoing {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** Read whole: the app gets a known length (the TUS server wants one), and it can be sent again after a 307 or 308. */
  body: Buffer | undefined;
  signal: AbortSignal | undefined;
  redirect: RequestRedirect;
}

/** The methods `fetch` upper-cases (any other is sent as written). */
const NORMALISED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/** Headers as a plain object with lower-case names; repeated ones joined as `Headers` joins them. */
function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const plain: Record<string, string> = {};
  if (headers === undefined) return plain;
  if (!(headers instanceof Headers) && !Array.isArray(headers)) {
    for (const [name, value] of Object.entries(headers)) plain[name.toLowerCase()] = String(value);
    return plain;
  }
  new Headers(headers).forEach((value, name) => {
    plain[name] = value;
  });
  return plain;
}

/** The bytes of a body read without a stream, and the content type `fetch` gives it; undefined when it needs a `Request`. */
function directBody(body: BodyInit): { bytes: Buffer; type?: string } | undefined {
  if (typeof body == 'string') return { bytes: Buffer.from(body), type: 'text/plain;charset=UTF-8' };
  if (ArrayBuffer.isView(body)) return { bytes: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  if (body instanceof ArrayBuffer) return { bytes: Buffer.from(body) };
  return undefined;
}

/** A URL or string input with a string, bytes or no body: read without building a `Request`; else undefined. */
function directOutgoing(input: RequestInfo | URL, init: RequestInit | undefined): Outgoing | undefined {
  if (typeof input != 'string' && !(input instanceof URL)) return undefined;
  const written = init?.method ?? 'GET';
  const method = NORMALISED_METHODS.has(written.toUpperCase()) ? written.toUpperCase() : written;
  const body = init?.body == null ? undefined : directBody(init.body);
  // A GET or HEAD with a body, or a body of another kind: the `Request` path reads it or refuses it as `fetch` does.
  if (init?.body != null && (body === undefined || method == 'GET' || method == 'HEAD')) return undefined;
  if (!URL.canParse(input)) return undefined;
  const headers = plainHeaders(init?.headers);
  if (body?.type !== undefined && headers['content-type'] === undefined) headers['content-type'] = body.type;
  return {
    method,
    url: new URL(input),
    headers,
    body: body?.bytes,
    signal: init?.signal ?? undefined,
    redirect: init?.redirect ?? 'follow',
  };
}

/**
 * The request of a `fetch` call; a `Request` too when one had to be built (the body unread, for
 * the global `fetch` when the URL is not the emulator's). Rejects as `fetch` does on bad input.
 */
export async function readOutgoing(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  serves: (url: URL) => boolean,
): Promise<Outgoing | Request> {
  const direct = directOutgoing(input, init);
  if (direct) return direct;
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (!serves(url)) return request;
  return {
    method: request.method,
    url,
    headers: plainHeaders(request.headers),
    body: request.body === null ? undefined : Buffer.from(await request.arrayBuffer()),
    signal: request.signal,
    redirect: request.redirect,
  };
}
