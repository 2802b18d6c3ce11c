/**
 * The simple upload's PUT with progress as its bytes go out: in browsers through
 * `XMLHttpRequest`'s upload events (fetch reports none, and streams a request body over HTTP/2
 * only); on Node by streaming the body and counting what the connection takes. A caller's own
 * `fetch` always sends it as it is (MSW, test doubles, a proxying fetch): then only the start and
 * the end are reported.
 */
import { NULL_BODY_STATUSES } from '../http/handler.js';
import type { Transport } from '../http/transport.js';

/** How many bytes a streamed body hands over at a time (the granularity of Node's progress). */
const CHUNK_BYTES = 64 * 1024;

/**
 * Sends `PUT target` with `init.body` (a Blob or bytes) and answers as fetch does; `onSent(bytes)`
 * is called as the body goes out.
 */
export function putWithProgress(
  transport: Transport,
  target: URL,
  init: RequestInit & { body: Blob | Uint8Array },
  onSent: (bytes: number) => void,
): Promise<Response> {
  if (transport.usesCallerFetch) return transport.fetchRaw(target, init);
  if (typeof XMLHttpRequest == 'function') return putWithXhr(target, init, onSent);
  if (isNode()) return putStreamed(transport, target, init, onSent);
  return transport.fetchRaw(target, init);
}

/** Node (and runtimes that say they are): fetch streams a request body over HTTP/1.1 there. */
const isNode = (): boolean =>
  typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node == 'string';

/** The PUT with the body as a stream that counts the bytes fetch pulls from it. */
function putStreamed(
  transport: Transport,
  target: URL,
  init: RequestInit & { body: Blob | Uint8Array },
  onSent: (bytes: number) => void,
): Promise<Response> {
  const { body } = init;
  const size = body instanceof Blob ? body.size : body.byteLength;
  const blobReader = body instanceof Blob ? body.stream().getReader() : undefined;
  let sent = 0;
  // What is read but not handed over yet (a Blob's stream may give the whole file as one chunk).
  let pending: Uint8Array = body instanceof Blob ? new Uint8Array(0) : body;
  const counted = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (pending.byteLength == 0 && blobReader) {
          const next = await blobReader.read();
          if (next.done) break;
          pending = next.value;
        }
        if (pending.byteLength == 0) return controller.close();
        const chunk = pending.subarray(0, CHUNK_BYTES);
        pending = pending.subarray(chunk.byteLength);
        controller.enqueue(chunk);
        sent += chunk.byteLength;
        onSent(sent);
      },
      cancel: (reason) => blobReader?.cancel(reason),
    },
    // Nothing read ahead: a byte counts as sent when the connection takes it.
    { highWaterMark: 0 },
  );
  const headers = new Headers(init.headers);
  // The length stays declared (the upload host checks it against the ticket), not chunked.
  headers.set('content-length', String(size));
  return transport.fetchRaw(target, { ...init, headers, body: counted, duplex: 'half' } as RequestInit);
}

/** The PUT through XMLHttpRequest, whose upload events fetch lacks; answered as a fetch Response. */
function putWithXhr(
  target: URL,
  init: RequestInit & { body: Blob | Uint8Array },
  onSent: (bytes: number) => void,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const request = new XMLHttpRequest();
    const signal = init.signal;
    const onAbort = () => request.abort();
    request.open('PUT', target.href);
    new Headers(init.headers).forEach((value, name) => {
      request.setRequestHeader(name, value);
    });
    request.upload.onprogress = (event) => onSent(event.loaded);
    request.onload = () => {
      signal?.removeEventListener('abort', onAbort);
      const headers = new Headers();
      for (const line of request
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      const status = request.status;
      resolve(
        new Response(NULL_BODY_STATUSES.has(status) ? null : request.responseText, {
          status,
          statusText: request.statusText,
          headers,
        }),
      );
    };
    // What fetch rejects with for the same failures (the caller maps them to NetworkError).
    request.onerror = () => reject(new TypeError('Failed to fetch'));
    request.ontimeout = request.onerror;
    request.onabort = () => reject(signal?.reason ?? new DOMException('The upload was aborted', 'AbortError'));
    if (signal?.aborted) return request.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    request.send(init.body as XMLHttpRequestBodyInit);
  });
}
