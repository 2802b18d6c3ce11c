/**
 * Following a redirect the way `fetch` does, for the handlers that do not get it from `fetch`
 * (the `node:http` one): which statuses redirect, what the next request is, and which headers must
 * not follow the request to another origin.
 */
import type { HttpRequest } from './handler.js';

/** The statuses `fetch` follows. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** How many redirects `fetch` follows before failing. */
export const MAX_REDIRECTS = 20;

/** Headers that name credentials or the body, dropped as `fetch` drops them. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** Whether a body can be sent a second time (a stream is consumed by the first send). */
export const isReplayableBody = (body: HttpRequest['body']): boolean =>
  body === undefined || typeof body === 'string' || body instanceof ArrayBuffer || ArrayBuffer.isView(body);

/** `headers` without the names in `drop`. */
function without(headers: Readonly<Record<string, string>>, drop: readonly string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) if (!drop.includes(name)) kept[name] = headers[name]!;
  return kept;
}

/**
 * The request to send after `status` with `location`, or `undefined` when it cannot be followed
 * (a 307/308 whose body was a stream, already consumed). As `fetch`: a 303, and a 301/302 of a
 * POST, become a GET without body; credentials are not sent to another origin.
 */
export function redirectRequest(previous: HttpRequest, status: number, location: string): HttpRequest | undefined {
  const url = new URL(location, previous.url);
  const toGet =
    status === 303
      ? previous.method !== 'GET' && previous.method !== 'HEAD'
      : (status === 301 || status === 302) && previous.method === 'POST';
  if (!toGet && !isReplayableBody(previous.body)) return undefined;
  let headers = previous.headers;
  if (toGet) headers = without(headers, BODY_HEADERS);
  if (url.origin !== new URL(previous.url).origin) headers = without(headers, CREDENTIAL_HEADERS);
  const next: { -readonly [K in keyof HttpRequest]: HttpRequest[K] } = { ...previous, url: url.href, headers };
  if (toGet) {
    next.method = 'GET';
    delete next.body;
  }
  return next;
}
