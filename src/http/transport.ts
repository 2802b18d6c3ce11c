/**
 * The one transport every call goes through: builds the URL and JSON body from a typed builder's
 * output, adds auth, SDK headers, time limits, retries, the consistency token and error mapping,
 * and parses the response. The bytes move through an HTTP handler (`fetch`, or `node:http` in the
 * package's `node` build), so all of this behaves the same on both.
 */
import type { Operation } from '../operation.js';
import { buildRequest, RequestBuildError, type BuiltRequest } from '../request.js';
import type { CallOptions } from '../types.js';
import {
  ElevationRequiredError,
  errorFromResponse,
  HttpError,
  isNetworkError,
  NetworkError,
  RequestError,
  TimeoutError,
} from '../errors/index.js';
import { unlessAborted, type Abortable } from './abort.js';
import { headersOf, readyAuthHeaders, type TransportAuth } from './auth.js';
import { AttemptTimeout, CallDeadline } from './deadline.js';
import { defaultHandler } from './default-handler.js';
import { fetchHandler } from './fetch-handler.js';
import type { HttpHandler, HttpResponse, RequestBody } from './handler.js';
import { operationSdkHeader, sdkHeader } from './headers.js';
import {
  checkMilliseconds,
  checkTransportOptions,
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_TIMEOUT_MS,
  lowerCaseHeaders,
  type TransportOptions,
} from './options.js';
import { serializeQuery } from './query.js';
import { isReplayableBody } from './redirect.js';
import { unexpectedShape } from './response-shape.js';
import { parseRetryAfter, retryDelay, shouldRetry, type RetryOptions } from './retry.js';
import { sleep } from './sleep.js';

export type { TransportOptions } from './options.js';

/** The provider's API host. */
export const DEFAULT_BASE_URL = 'https://www.wixapis.com';
/** A GET whose query string is longer than this switches to its POST fallback. */
export const MAX_GET_QUERY = 4000;

/** Per-call settings. */
export interface CallSettings {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** @internal Send without the strategy's auth headers (token grants, sign-in calls). */
  anonymous?: boolean;
  /** @internal Extra headers for this call only (they win over the client's and the strategy's). */
  headers?: Record<string, string>;
  /** @internal This call is safe to repeat although its operation is not read-only (visitor and refresh token grants). */
  repeatable?: boolean;
}

/** Options of `fetchWithAuth` besides the `fetch` ones. */
export interface FetchWithAuthOptions extends CallOptions {
  /**
   * Send the client's credentials to a URL of another origin than the client's `baseUrl`. Off by
   * default: an absolute URL elsewhere gets the request without the API key or access token.
   */
  allowOtherOrigin?: boolean;
}

/** One call, ready to send: everything that stays the same from one attempt to the next. */
export interface Outgoing {
  url: string;
  method: string;
  /** Headers of the call itself (content type, a caller's `fetchWithAuth` headers), lower-cased. */
  headers: Record<string, string>;
  body?: RequestBody;
  /** Whether the strategy's credentials go with it. */
  authorized: boolean;
  /** Whether it goes to the client's own origin (the consistency token stays there). */
  ownOrigin: boolean;
  /** Headers that win over all others (internal flows). */
  overrides?: Record<string, string>;
  /** The value of the SDK header. */
  sdkHeader: string;
  readOnly: boolean;
  /** The name errors carry: the operation, or `METHOD /path` for fetchWithAuth. */
  operation: string;
  redirect?: RequestRedirect;
}

// Stryker disable next-line ConditionalExpression: no answer under 200 reaches here (fetch and node:http give the final one)
const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** Sends requests for the client; one instance per client. */
export class Transport {
  readonly baseUrl: string;
  private readonly origin: string;
  private readonly handler: HttpHandler;
  private readonly auth: TransportAuth;
  /** The client's extra headers, lower-cased once. */
  private readonly headers: Record<string, string>;
  private readonly retry: RetryOptions | false;
  private readonly timeoutMs: number;
  private readonly attemptTimeoutMs: number;
  private readonly userFetch: typeof fetch | undefined;
  /** The last `x-wix-consistent` token seen, replayed on later requests (read-your-writes). */
  private consistent: string | undefined;

  constructor(options: TransportOptions) {
    checkTransportOptions(options);
    // As URL parsing has it (spaces at the ends trimmed, as they would be from a config file):
    // every request URL is built from it.
    this.baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL).href.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.userFetch = options.fetch;
    // A caller's fetch always wins (Next.js caching, MSW, tests); otherwise the build's default.
    this.handler = options.fetch ? fetchHandler(options.fetch) : defaultHandler();
    this.auth = options.auth;
    this.headers = lowerCaseHeaders(options.headers);
    this.retry = options.retry ?? {};
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.attemptTimeoutMs = options.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  }

  /** Whether the client's calls are elevated (an API-key client): such a client reads other data than a visitor's. */
  get elevated(): boolean {
    return this.auth.elevated;
  }

  /**
   * Sends one operation with a wire-form request object and resolves with the wire-form response
   * (`undefined` for an empty body). Rejects only with SiteKitError.
   */
  async send(operation: Operation, request: object | undefined, call: CallSettings = {}): Promise<unknown> {
    if (operation.elevated && !this.auth.elevated) throw new ElevationRequiredError(operation.id);
    const { built, query } = this.build(operation, request);
    let body: string | undefined;
    try {
      // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined too (the check saves the call)
      if (built.body !== undefined) body = JSON.stringify(built.body);
    } catch (error) {
      // Not JSON (a BigInt, a cycle): the caller's input, caught before anything is sent.
      throw new RequestError(`${operation.id}: the request cannot be sent as JSON (${(error as Error).message})`);
    }
    const sent = built.operation;
    const outgoing: Outgoing = {
      url: query ? `${this.baseUrl}${built.path}?${query}` : this.baseUrl + built.path,
      method: built.method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body,
      authorized: !call.anonymous,
      ownOrigin: true,
      overrides: call.headers,
      sdkHeader: operationSdkHeader(sent),
      readOnly: sent.readOnly === true || call.repeatable === true,
      operation: operation.id,
    };
    // (`return await`: one step where returning the promise itself takes three.)
    return await this.run(outgoing, call, async (response) => {
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch (error) {
        throw this.unexpected(outgoing, response, `unreadable response body (${(error as Error).message})`);
      }
      const problem = unexpectedShape(sent, parsed);
      if (problem) throw this.unexpected(outgoing, response, `unexpected response: ${problem}`);
      return parsed;
    });
  }

  /**
   * Sends any request with the client's auth, headers, time limit and retries (idempotent methods
   * with a string body or none); resolves with the 2xx Response, rejects with SiteKitError
   * otherwise. Credentials go only to the client's own origin unless `allowOtherOrigin` is set.
   */
  async fetchWithAuth(pathOrUrl: string | URL, init: RequestInit & FetchWithAuthOptions = {}): Promise<Response> {
    const { outgoing, call } = this.fetchRequest(pathOrUrl, init);
    return await this.run(outgoing, call, async (response) => response.toResponse());
  }

  /**
   * The outgoing call of `fetchWithAuth(pathOrUrl, init)`, and its call settings. A path is
   * resolved against the base URL; credentials go only to its origin unless `allowOtherOrigin` is set.
   */
  private fetchRequest(
    pathOrUrl: string | URL,
    init: RequestInit & FetchWithAuthOptions,
  ): { outgoing: Outgoing; call: CallSettings } {
    const { signal, timeoutMs, headers, allowOtherOrigin, body, method = 'GET', redirect } = init ?? {};
    let url: URL;
    try {
      url = new URL(typeof pathOrUrl === 'string' && pathOrUrl.startsWith('/') ? this.baseUrl + pathOrUrl : pathOrUrl);
    } catch {
      throw new RequestError(`fetchWithAuth: ${String(pathOrUrl)} is not a path or an absolute URL`, { field: 'url' });
    }
    // fetch refuses such a URL with a bare TypeError (the node:http handler with a NetworkError):
    // it is the caller's mistake, said before anything is sent. The message leaves the secret out.
    if (url.username || url.password)
      throw new RequestError('fetchWithAuth: user:pass@ in a URL is refused; send credentials in a header', {
        field: 'url',
      });
    const own: Record<string, string> = {};
    try {
      new Headers(headers).forEach((value, name) => {
        own[name] = value;
      });
    } catch (error) {
      throw new RequestError(`fetchWithAuth: ${(error as Error).message}`, { field: 'headers' });
    }
    const upperMethod = method.toUpperCase();
    const outgoing: Outgoing = {
      url: url.href,
      method: upperMethod,
      headers: own,
      body: body ?? undefined,
      authorized: url.origin === this.origin || allowOtherOrigin === true,
      ownOrigin: url.origin === this.origin,
      sdkHeader: sdkHeader(),
      readOnly: false,
      operation: `${upperMethod} ${url.pathname}`,
      redirect,
    };
    return { outgoing, call: { signal: signal ?? undefined, timeoutMs } };
  }

  /**
   * @internal Whether raw requests go through the caller's own `fetch`, which then decides
   * everything about them (an upload reports no progress of its own through it).
   */
  get usesCallerFetch(): boolean {
    return this.userFetch !== undefined;
  }

  /**
   * @internal The underlying fetch with nothing added: no auth, no retries, no error mapping (for
   * the auth flows that must read a redirect themselves, and for uploads to a signed URL).
   */
  fetchRaw(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return this.userFetch ? this.userFetch(input, init) : globalThis.fetch(input, init);
  }

  /** The builder's request and its query string, with the POST fallback of a GET that is too long. */
  private build(operation: Operation, request: object | undefined): { built: BuiltRequest; query: string } {
    try {
      let built = buildRequest(operation, request);
      let query = serializeQuery(built.query);
      if (built.method === 'GET' && operation.fallback && query.length > MAX_GET_QUERY) {
        built = buildRequest(operation.fallback, request);
        query = serializeQuery(built.query);
      }
      return { built, query };
    } catch (error) {
      if (error instanceof RequestBuildError) throw new RequestError(error.message, { field: error.field });
      throw error;
    }
  }

  /** The HttpError of a 2xx response whose body is not what the operation promises. */
  private unexpected(outgoing: Outgoing, response: HttpResponse, message: string): HttpError {
    return new HttpError({
      status: response.status,
      message,
      operation: outgoing.operation,
      requestId: response.header('x-wix-request-id') ?? undefined,
    });
  }

  /** The call's time limit: its own (checked: plain-JS callers can pass anything) or the client's. */
  private callTimeout(call: CallSettings, operation: string): number {
    checkMilliseconds(call.timeoutMs, 'timeoutMs', operation);
    return call.timeoutMs ?? this.timeoutMs;
  }

  /**
   * The attempt loop: sends, then renews credentials once on a 401, retries what may be retried
   * (network failures, a reset while reading the body, an attempt over its time limit, 408, 429,
   * 5xx: idempotent calls only), and maps the final failure to a typed error. Bodies the SDK sends
   * are strings, sent again as they are; a caller's stream body cannot be, so such a call is
   * neither retried nor replayed. `finish` turns a 2xx response into the result, within the
   * attempt: a failure while reading the body counts as that attempt's failure.
   */
  private async run<T>(
    outgoing: Outgoing,
    call: CallSettings,
    finish: (response: HttpResponse) => Promise<T>,
  ): Promise<T> {
    const deadline = new CallDeadline(
      call.signal,
      this.callTimeout(call, outgoing.operation),
      outgoing.operation,
      this.attemptTimeoutMs,
    );
    const replayable = isReplayableBody(outgoing.body);
    let renewed = false;
    try {
      for (let attempt = 1; ; attempt++) {
        if (deadline.abort.aborted) throw deadline.abort.reason;
        const step = deadline.attempt(this.attemptTimeoutMs);
        // The server's `Retry-After` of a failed response: a floor for the wait before the next attempt.
        let retryAfterMs: number | null = null;
        let sending = false;
        try {
          const pendingHeaders = this.headersFor(outgoing, step.abort);
          const headers = pendingHeaders instanceof Promise ? await pendingHeaders : pendingHeaders;
          sending = true;
          const response = await this.exchange(outgoing, headers, step.canAbort ? step.abort : undefined);
          if (isSuccess(response.status)) return await finish(response);
          retryAfterMs = parseRetryAfter(response.header('retry-after'), Date.now());
          if (response.status === 401 && !renewed && outgoing.authorized && this.auth.onUnauthorized && replayable) {
            renewed = true;
            response.discard();
            if (
              await unlessAborted(
                // Stryker disable next-line ArrowFunction: undefined is as false as false here
                this.auth.onUnauthorized().catch(() => false),
                step.abort,
              )
            ) {
              attempt--;
              continue;
            }
          }
          if (!(replayable && this.retries(outgoing, attempt, { status: response.status, retryAfterMs }))) {
            throw await this.errorOf(outgoing, response, retryAfterMs);
          }
          response.discard();
        } catch (error) {
          // The call's own end (caller abort, overall time limit) wins over whatever failed.
          if (deadline.abort.aborted) throw deadline.abort.reason;
          const attemptTimedOut = step.abort.reason instanceof AttemptTimeout;
          const timeout = () => new TimeoutError(this.attemptTimeoutMs, { operation: outgoing.operation });
          // Credentials that could not be had are the strategy's failure, reported as they are: it
          // already retried its own requests.
          if (!sending) throw attemptTimedOut ? timeout() : error;
          if (!attemptTimedOut && !isNetworkError(error)) throw error;
          if (!(replayable && this.retries(outgoing, attempt, { networkError: true }))) {
            // The handler does not know the call: the final error names it, as every other one does.
            throw attemptTimedOut
              ? timeout()
              : new NetworkError({ cause: (error as NetworkError).cause, operation: outgoing.operation });
          }
        } finally {
          step.end();
        }
        await sleep(retryDelay({ attempt, options: this.retry || {}, retryAfterMs }), deadline.abort);
      }
    } finally {
      deadline.finish();
    }
  }

  /**
   * The headers of one attempt, with fresh credentials: a plain object with lower-cased names
   * (cheaper than Headers); later sources win. Without a wait when the strategy has its headers
   * at hand (an API key, an access token that is still good).
   */
  private headersFor(outgoing: Outgoing, abort: Abortable): Record<string, string> | Promise<Record<string, string>> {
    if (!outgoing.authorized) return this.assembleHeaders(outgoing, undefined);
    const ready = readyAuthHeaders(this.auth);
    // Stryker disable next-line ConditionalExpression: the awaited getAuthHeaders() gives the same headers, one wait later
    if (ready) return this.assembleHeaders(outgoing, ready);
    return unlessAborted(this.auth.getAuthHeaders(), abort).then((auth) =>
      this.assembleHeaders(outgoing, headersOf(auth)),
    );
  }

  /** The call's headers, the client's, the SDK header, the consistency token, the strategy's, then the call's overrides. */
  private assembleHeaders(outgoing: Outgoing, auth: Record<string, string> | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...outgoing.headers, ...this.headers };
    headers['x-wix-bi-gateway'] = outgoing.sdkHeader;
    if (this.consistent && outgoing.ownOrigin) headers['x-wix-consistent'] = this.consistent;
    return Object.assign(headers, lowerCaseHeaders(auth), lowerCaseHeaders(outgoing.overrides));
  }

  /** One attempt's request, and the consistency token of its answer. */
  private async exchange(
    outgoing: Outgoing,
    headers: Record<string, string>,
    abort: Abortable | undefined,
  ): Promise<HttpResponse> {
    const response = await this.handler({
      url: outgoing.url,
      method: outgoing.method,
      headers,
      body: outgoing.body,
      abort,
      redirect: outgoing.redirect,
    });
    const token = response.header('x-wix-consistent');
    if (token && outgoing.ownOrigin) this.consistent = token;
    return response;
  }

  /** The typed error of a failed response (its body read within the attempt). */
  private async errorOf(outgoing: Outgoing, response: HttpResponse, retryAfterMs: number | null): Promise<Error> {
    let body = '';
    try {
      body = await response.text();
    } catch {
      // The status says enough; a body that cannot be read adds nothing.
    }
    return errorFromResponse({
      status: response.status,
      statusText: response.statusText,
      body,
      requestId: response.header('x-wix-request-id'),
      operation: outgoing.operation,
      retryAfterMs,
    });
  }

  private retries(
    outgoing: Outgoing,
    attempt: number,
    failure: { status?: number; networkError?: boolean; retryAfterMs?: number | null },
  ): boolean {
    return shouldRetry({
      method: outgoing.method,
      readOnly: outgoing.readOnly,
      attempt,
      options: this.retry,
      ...failure,
    });
  }
}
