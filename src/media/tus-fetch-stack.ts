/**
 * A tus-js-client HTTP stack over a `fetch`: the resumable upload's requests go through the
 * client's `fetch` option when the caller gave one (an in-process emulator's `fetch`, MSW, a
 * proxying fetch), as every other request of the client does. tus-js-client's own stacks use
 * `node:http` or `XMLHttpRequest`, which such a `fetch` never sees.
 */
import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

/** The `fetch` the stack sends with. */
type Fetcher = (input: string, init: RequestInit) => Promise<Response>;

/** A response read whole: tus-js-client reads the body synchronously (`getBody()`). */
function readResponse(response: Response, body: string): HttpResponse {
  return {
    getStatus: () => response.status,
    getHeader: (name) => response.headers.get(name) ?? undefined,
    getBody: () => body,
    getUnderlyingObject: () => response,
  };
}

/** One request of the stack. `fetch` reports no upload progress: the handler hears of a chunk once it is sent. */
function fetchRequest(fetcher: Fetcher, method: string, url: string): HttpRequest {
  const headers: Record<string, string> = {};
  const aborter = new AbortController();
  let onProgress = (_bytesSent: number): void => undefined;
  return {
    getMethod: () => method,
    getURL: () => url,
    setHeader: (name, value) => {
      headers[name] = value;
    },
    getHeader: (name) => headers[name],
    setProgressHandler: (handler) => {
      onProgress = handler;
    },
    async send(body?: Uint8Array | null) {
      const init: RequestInit = { method, headers, signal: aborter.signal };
      if (body) init.body = body as Uint8Array<ArrayBuffer>;
      const response = await fetcher(url, init);
      const text = await response.text();
      if (body) onProgress(body.length);
      return readResponse(response, text);
    },
    abort: async () => aborter.abort(),
    getUnderlyingObject: () => aborter,
  };
}

/** The stack tus-js-client sends a resumable upload's requests through, over `fetcher`. */
export function fetchHttpStack(fetcher: Fetcher): HttpStack {
  return {
    createRequest: (method, url) => fetchRequest(fetcher, method, url),
    getName: () => 'sitekit-fetch',
  };
}
