/**
 * The HTTP handler interface: the one seam between the transport (auth, headers, time limits,
 * retries, error mapping) and whatever actually moves bytes. Two implementations, as the AWS SDK
 * splits them: `fetch` (browsers, workers, edge runtimes, and any `fetch` a caller passes) and
 * `node:http`/`node:https` with a keep-alive agent (the package's `node` build). Both give the
 * transport the same thing, so it behaves the same on both.
 */

import type { Abortable } from './abort.js';

/**
 * Statuses whose response has no body, whatever its headers say (the Fetch standard's null body
 * statuses): `new Response(body, {status})` refuses a body for them.
 */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** The body of a request: a string (the JSON the SDK built) or anything `fetch` accepts. */
export type RequestBody = NonNullable<RequestInit['body']>;

/** How a handler answers a redirect, as `fetch`'s `redirect` option. */
export type RedirectMode = 'follow' | 'manual' | 'error';

/** One HTTP request, as the transport hands it to a handler. */
export interface HttpRequest {
  /** Absolute URL. */
  readonly url: string;
  /** Upper-case method. */
  readonly method: string;
  /** Header names lower-cased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: RequestBody;
  /** Aborts the request and the reading of its body (the transport's light signal: see `abort.ts`). */
  readonly abort?: Abortable;
  /** Default `follow`. */
  readonly redirect?: RedirectMode;
}

/** A response whose body has not been read yet. Header names are given lower-cased. */
export interface HttpResponse {
  readonly status: number;
  /** The status line's reason phrase; empty over HTTP/2 and in some runtimes. */
  readonly statusText: string;
  /** One header's value (repeated headers joined with `, `), or null when absent. */
  header(name: string): string | null;
  /**
   * Reads the whole body as UTF-8 text. A connection that fails while the body is being read
   * rejects with a `NetworkError`, as a failure before the headers does.
   */
  text(): Promise<string>;
  /** Drops the body unread, so the connection can serve the next request. */
  discard(): void;
  /** The same response as a standard `Response`, body unread (for `fetchWithAuth`). */
  toResponse(): Response;
}

/**
 * Sends one request. Resolves with the response whatever its status; rejects with a
 * `NetworkError` when the network failed (refused, reset, DNS, TLS...), with the abort reason
 * when it was aborted, and with anything else unchanged (a bug in a caller's `fetch` is not
 * a network failure, and is not retried).
 */
export type HttpHandler = (request: HttpRequest) => Promise<HttpResponse>;
