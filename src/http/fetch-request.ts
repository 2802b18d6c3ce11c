/**
 * The request of a `fetchWithAuth` call: the caller's path or URL, headers and method checked and
 * made into the transport's outgoing call. Loaded on the first `fetchWithAuth` (or `graphql`) call.
 */
import { RequestError } from '../errors/index.js';
import { sdkHeader } from './headers.js';
import type { CallSettings, FetchWithAuthOptions, Outgoing } from './transport.js';

/**
 * The outgoing call of `fetchWithAuth(pathOrUrl, init)` on a client at `baseUrl` (whose origin is
 * `origin`), and its call settings. A path is resolved against `baseUrl`; credentials go only to
 * that origin unless `allowOtherOrigin` is set.
 */
export function fetchRequest(
  baseUrl: string,
  origin: string,
  pathOrUrl: string | URL,
  init: RequestInit & FetchWithAuthOptions,
): { outgoing: Outgoing; call: CallSettings } {
  const { signal, timeoutMs, headers, allowOtherOrigin, body, method = 'GET', redirect } = init ?? {};
  let url: URL;
  try {
    url = new URL(typeof pathOrUrl === 'string' && pathOrUrl.startsWith('/') ? baseUrl + pathOrUrl : pathOrUrl);
  } catch {
    throw new RequestError(`fetchWithAuth: ${String(pathOrUrl)} is not a path or an absolute URL`, { field: 'url' });
  }
  const own: Record<string, string> = {};
  try {
    new Headers(headers).forEach((value, name) => (own[name] = value));
  } catch (error) {
    throw new RequestError(`fetchWithAuth: ${(error as Error).message}`, { field: 'headers' });
  }
  const upperMethod = method.toUpperCase();
  const outgoing: Outgoing = {
    url: url.href,
    method: upperMethod,
    headers: own,
    body: body ?? undefined,
    authorized: url.origin === origin || allowOtherOrigin === true,
    ownOrigin: url.origin === origin,
    sdkHeader: sdkHeader(),
    readOnly: false,
    operation: `${upperMethod} ${url.pathname}`,
    redirect,
  };
  return { outgoing, call: { signal: signal ?? undefined, timeoutMs } };
}
