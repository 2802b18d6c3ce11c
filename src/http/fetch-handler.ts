import type { HttpHandler, HttpRequest, HttpResponse } from './handler.js';
import { asNetworkError } from './network-failure.js';
import { toAbortSignal } from './abort.js';

/** Wraps a fetch `Response` in the handler's response interface. */
function fromFetchResponse(response: Response): HttpResponse {
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    text: () =>
      response.text().catch((error: unknown) => {
        throw asNetworkError(error);
      }),
    discard: () => {
      // Cancelling an already-locked or finished body rejects; nothing is lost by ignoring that.
      response.body?.cancel().catch(() => {});
    },
    toResponse: () => response,
  };
}

/** The fetch init of a request: only the fields that are set (fetch is slower with `signal: undefined`). */
function toFetchInit(request: HttpRequest): RequestInit & { duplex?: 'half' } {
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers };
  if (request.body !== undefined) {
    init.body = request.body;
    // A stream body needs `duplex: 'half'` (Node's fetch refuses it otherwise; browsers ignore it).
    if (typeof request.body !== 'string') init.duplex = 'half';
  }
  if (request.abort) init.signal = toAbortSignal(request.abort);
  if (request.redirect) init.redirect = request.redirect;
  return init;
}

/**
 * The handler that sends through `fetch`: the global one (looked up on each call, so a polyfill
 * or a test's replacement installed later is used), or the one a caller passed to `createClient`.
 */
export function fetchHandler(fetchFunction?: typeof fetch): HttpHandler {
  return async (request) => {
    let response: Response;
    try {
      const init = toFetchInit(request);
      // Called as a method of the global object: some browsers refuse a detached `fetch`.
      response = await (fetchFunction ? fetchFunction(request.url, init) : globalThis.fetch(request.url, init));
    } catch (error) {
      throw asNetworkError(error);
    }
    return fromFetchResponse(response);
  };
}
