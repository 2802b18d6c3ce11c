/**
 * The `node:http`/`node:https` handler, used by the package's `node` build. Node's `fetch` spends
 * several times the CPU of a plain `http.request` on every call (WHATWG streams, Request and
 * Response objects); server-side users (SSR, backends, scripts) pay that on each request, so on
 * Node requests go through the HTTP modules with a keep-alive agent instead.
 *
 * It reproduces what the transport relies on from `fetch`: redirects followed (credentials not
 * sent to another origin), compressed bodies decoded, any body `fetch` accepts (strings, bytes,
 * Blobs, FormData, streams), an abort that also stops the body, and network failures (refused,
 * reset before or during the body, DNS, TLS) reported as `NetworkError`.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pipeline, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { NetworkError } from '../errors/index.js';
import {
  type HttpHandler,
  type HttpRequest,
  type HttpResponse,
  NULL_BODY_STATUSES,
  type RequestBody,
} from './handler.js';
import { asNetworkError } from './network-failure.js';
import { noteKeepAliveHint, sharedAgents } from './node-agents.js';
import { type Target, targetOf } from './node-target.js';
import { MAX_REDIRECTS, REDIRECT_STATUSES, redirectRequest } from './redirect.js';

/** What `fetch` asks for (and decodes) when the caller does not say. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** U+FEFF, which `Response.text()` drops from the start of a body. */
const BYTE_ORDER_MARK = 0xfeff;

/** A body ready to write: its length when known, the content type it implies, and how to send it. */
interface PreparedBody {
  length?: number;
  contentType?: string | null;
  send(request: ClientRequest): void;
}

/** Turns any body `fetch` accepts into bytes on the wire. */
function prepareBody(body: RequestBody | undefined): PreparedBody {
  // (Node itself sends `content-length: 0` for a POST or PUT ended without a body, as fetch does.)
  if (body === undefined) return { send: (request) => request.end() };
  if (typeof body === 'string') return { length: Buffer.byteLength(body), send: (request) => request.end(body) };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    const bytes =
      body instanceof ArrayBuffer ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { length: bytes.length, send: (request) => request.end(bytes) };
  }
  // Blobs, FormData, URLSearchParams, web and Node streams: a Response encodes them exactly as
  // fetch would (the multipart boundary, the form's content type) and gives one byte stream.
  const carrier = new Response(body as ConstructorParameters<typeof Response>[0]);
  return {
    length: body instanceof Blob ? body.size : undefined,
    contentType: carrier.headers.get('content-type'),
    send: (request) => {
      if (!carrier.body) return void request.end();
      const source = Readable.fromWeb(carrier.body as import('node:stream/web').ReadableStream);
      pipeline(source, request, (error) => {
        if (error) request.destroy(error);
      });
    },
  };
}

/** Methods `http.request` sends without any body framing when they have no body. */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The request's header fields in the array form `http.request` takes (`[name, value, ...]`): Node
 * writes them in order, checking each, where the object form first costs a `setHeader` per field
 * (checks, a lower-cased copy, a map) and then writes the same lines: about 10 µs a call under
 * load. The lines are the object form's: the request's fields, `accept-encoding`, the body's length
 * and type, then `Host` (which Node adds only for the object form); and, for a method Node frames
 * by default, `Content-Length: 0` when there is no body, as Node (and fetch) send it.
 */
function headerLines(request: HttpRequest, body: PreparedBody, host: string): string[] {
  const given = request.headers;
  const lines: string[] = [];
  for (const name in given) lines.push(name, given[name]!);
  if (given['accept-encoding'] === undefined) lines.push('accept-encoding', ACCEPT_ENCODING);
  if (given['content-length'] === undefined) {
    if (body.length !== undefined) lines.push('content-length', String(body.length));
    else if (request.body === undefined && !UNFRAMED_METHODS.has(request.method)) lines.push('Content-Length', '0');
  }
  if (body.contentType && given['content-type'] === undefined) lines.push('content-type', body.contentType);
  if (given.host === undefined) lines.push('Host', host);
  return lines;
}

/** The body stream of a response, decoded when it was compressed. */
function decodedBody(response: IncomingMessage): { stream: Readable; decoded: boolean } {
  const encoding = response.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return { stream: response, decoded: false };
  // Errors of either side end up on the decoder, which is what gets read.
  pipeline(response, decoder, () => {});
  return { stream: decoder, decoded: true };
}

/**
 * Reads a stream to its end as UTF-8 text, decoded once at the end (as `Response.text()`: a
 * byte-order mark is dropped, bad bytes become U+FFFD); a stream cut short rejects.
 */
function readText(stream: Readable, response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
      resolve(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
    });
    stream.on('error', reject);
    // A connection closed before the last byte: Node ends some truncated bodies without an error.
    stream.on('close', () => {
      if (!response.complete)
        reject(
          Object.assign(new Error('the connection closed before the whole response body arrived'), {
            code: 'ECONNRESET',
          }),
        );
    });
  });
}

/** The handler's view of an IncomingMessage. */
function fromIncoming(request: HttpRequest, response: IncomingMessage): HttpResponse {
  const status = response.statusCode ?? 0;
  const hasBody = request.method !== 'HEAD' && !NULL_BODY_STATUSES.has(status);
  const { stream, decoded } = hasBody ? decodedBody(response) : { stream: response, decoded: false };
  return {
    status,
    statusText: response.statusMessage ?? '',
    header: (name) => {
      const value = response.headers[name];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
    text: async () => {
      if (!hasBody) {
        response.resume();
        return '';
      }
      try {
        return await readText(stream, response);
      } catch (error) {
        throw request.abort?.aborted ? request.abort.reason : asNetworkError(error);
      }
    },
    // Reading the rest (rather than destroying) keeps the connection for the next request.
    discard: () => void stream.resume(),
    toResponse: () => {
      const headers = new Headers();
      const raw = response.rawHeaders;
      for (let index = 0; index < raw.length; index += 2) {
        const name = raw[index]!.toLowerCase();
        // The body handed on is decoded: its encoding and length headers no longer describe it.
        if (decoded && (name === 'content-encoding' || name === 'content-length')) continue;
        headers.append(name, raw[index + 1]!);
      }
      const body = hasBody ? (Readable.toWeb(stream) as ReadableStream<Uint8Array>) : null;
      if (!hasBody) response.resume();
      const result = new Response(body, { status, statusText: response.statusMessage ?? '', headers });
      // As fetch's Response: the URL the answer came from (after redirects).
      Object.defineProperty(result, 'url', { value: request.url });
      return result;
    },
  };
}

/** One request and its response headers, without redirects. */
function exchange(request: HttpRequest): Promise<HttpResponse> {
  const { abort } = request;
  if (abort?.aborted) return Promise.reject(abort.reason);
  const body = prepareBody(request.body);
  let target: Target;
  try {
    target = targetOf(request.url);
  } catch (error) {
    // A URL with credentials (a redirect's Location too), or none at all: fetch fails both as a network error.
    return Promise.reject(new NetworkError({ cause: error }));
  }
  const { secure, options } = target;
  // Any other scheme (a caller's URL, a redirect's Location): fetch fails it as a network error.
  if (options.protocol !== 'http:' && options.protocol !== 'https:') {
    return Promise.reject(
      new NetworkError({ cause: new TypeError(`cannot send to ${request.url}: not http or https`) }),
    );
  }
  options.method = request.method;
  options.headers = headerLines(request, body, target.host);
  options.agent = secure ? sharedAgents().https : sharedAgents().http;
  return new Promise<HttpResponse>((resolve, reject) => {
    const outgoing = (secure ? httpsRequest : httpRequest)(options);
    let incoming: IncomingMessage | undefined;
    const release = abort?.onAbort((reason) => {
      outgoing.destroy(reason as Error);
      incoming?.destroy(reason as Error);
      reject(reason);
    });
    outgoing.on('error', (error) => {
      release?.();
      reject(abort?.aborted ? abort.reason : asNetworkError(error));
    });
    // Closed without an answer and without an 'error' (a request destroyed with something that is
    // not an Error): still a failed connection, never a promise left pending.
    outgoing.on('close', () => {
      if (incoming) return;
      release?.();
      reject(
        abort?.aborted
          ? abort.reason
          : new NetworkError({
              cause: Object.assign(new Error('the connection closed before a response'), { code: 'ECONNRESET' }),
            }),
      );
    });
    outgoing.on('response', (response) => {
      incoming = response;
      noteKeepAliveHint(response);
      // The abort stays wired until the body is read or dropped: an abort stops the body too.
      if (release) response.on('close', release);
      resolve(fromIncoming(request, response));
    });
    body.send(outgoing);
  });
}

/**
 * The handler that sends through `node:http`/`node:https` over shared keep-alive connections.
 * Redirects are followed as `fetch` follows them, unless the request says `manual` or `error`.
 */
export function nodeHttpHandler(): HttpHandler {
  return async (request) => {
    let current = request;
    for (let redirects = 0; ; redirects++) {
      const response = await exchange(current);
      const location = response.header('location');
      if (!REDIRECT_STATUSES.has(response.status) || location === null || request.redirect === 'manual')
        return response;
      if (request.redirect === 'error' || redirects === MAX_REDIRECTS) {
        response.discard();
        throw new NetworkError({
          cause: new TypeError(
            request.redirect === 'error'
              ? `unexpected redirect to ${location}`
              : `more than ${MAX_REDIRECTS} redirects`,
          ),
        });
      }
      let next: HttpRequest | undefined;
      try {
        next = redirectRequest(current, response.status, location);
      } catch (error) {
        // A Location that is not a URL: fetch fails such a redirect as a network error.
        response.discard();
        throw new NetworkError({ cause: error });
      }
      // A stream body was consumed by the first send: the redirect is the answer.
      if (!next) return response;
      response.discard();
      current = next;
    }
  };
}
