/**
 * The one transport every call goes through: builds the URL and JSON body from a typed builder's
 * output, adds auth, SDK headers, time limits, retries, the consistency token and error mapping,
 * and parses the response. (The types come from the generated builders; see the closing notes of
 * the runtime issue for why openapi-fetch is not used at run time.)
 */
import type { Operation } from '../operation.js';
import { buildRequest, RequestBuildError } from '../request.js';
import type { CallOptions } from '../types.js';
import { ElevationRequiredError, errorFromResponse, HttpError, isSiteKitError, NetworkError, RequestError, type SiteKitError } from '../errors/index.js';
import type { TransportAuth } from './auth.js';
import { deadline, type Deadline } from './deadline.js';
import { sdkHeader } from './headers.js';
import { serializeQuery } from './query.js';
import { parseRetryAfter, retryDelay, shouldRetry, type RetryOptions } from './retry.js';
import { sleep } from './sleep.js';

/** The provider's API host. */
export const DEFAULT_BASE_URL = 'https://www.wixapis.com';
/** A GET whose query string is longer than this switches to its POST fallback. */
export const MAX_GET_QUERY = 4000;

/** Transport settings (from `createClient` options). */
export interface TransportOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  retry?: RetryOptions | false;
  timeoutMs?: number;
  auth: TransportAuth;
}

/** Per-call settings. */
export interface CallSettings {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** @internal Send without the strategy's auth headers (token grants, sign-in calls). */
  anonymous?: boolean;
  /** @internal Extra headers for this call only (they win over the client's and the strategy's). */
  headers?: Record<string, string>;
}

interface Attempt {
  anonymous?: boolean;
  headers?: Record<string, string>;
  /** `method-fqn` / `entity` of the SDK header. */
  fqn?: string;
  entity?: string;
  readOnly: boolean;
  deadline: Deadline;
}

/** Copies headers into `target` under lower-cased names. */
const assign = (target: Record<string, string>, from: Record<string, string> | undefined): void => {
  for (const k in from) target[k.toLowerCase()] = from[k]!;
};

/** Sends requests for the client; one instance per client. */
export class Transport {
  readonly baseUrl: string;
  private readonly baseFetch: typeof fetch;
  /** The last `x-wix-consistent` token seen, replayed on later requests (read-your-writes). */
  private consistent: string | undefined;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.baseFetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  /**
   * Sends one operation with a wire-form request object and resolves with the wire-form response
   * (`undefined` for an empty body). Rejects only with SiteKitError.
   */
  async send(op: Operation, request: object | undefined, call: CallSettings = {}): Promise<unknown> {
    if (op.elevated && !this.options.auth.elevated) throw new ElevationRequiredError(op.id);
    let built;
    try {
      built = buildRequest(op, request);
      if (built.method === 'GET' && op.fallback && serializeQuery(built.query).length > MAX_GET_QUERY) {
        built = buildRequest(op.fallback, request);
      }
    } catch (e) {
      if (e instanceof RequestBuildError) throw new RequestError(e.message, { field: e.field });
      throw e;
    }
    let body: string | undefined;
    try {
      if (built.body !== undefined) body = JSON.stringify(built.body);
    } catch (e) {
      // Not JSON (a BigInt, a cycle): the caller's input, caught before anything is sent.
      throw new RequestError(`${op.id}: the request cannot be sent as JSON (${(e as Error).message})`);
    }
    const d = deadline(call.signal, call.timeoutMs ?? this.options.timeoutMs);
    const attempt: Attempt = { fqn: built.operation.methodFqn, entity: built.operation.entity, readOnly: !!built.operation.readOnly, deadline: d, anonymous: call.anonymous, headers: call.headers };
    let status = 0;
    try {
      const query = serializeQuery(built.query);
      const response = await this.execute(`${this.baseUrl}${built.path}${query ? `?${query}` : ''}`, { method: built.method, body }, body === undefined ? {} : { 'content-type': 'application/json' }, attempt);
      status = response.status;
      const text = await response.text();
      return text ? JSON.parse(text) : undefined;
    } catch (e) {
      throw this.typed(e, d, status);
    } finally {
      d.done();
    }
  }

  /**
   * Sends any request with the client's auth, headers, time limit and retries; resolves with the
   * 2xx Response, rejects with SiteKitError otherwise.
   */
  async fetchWithAuth(pathOrUrl: string | URL, init: RequestInit & CallOptions = {}): Promise<Response> {
    const { signal, timeoutMs, headers, ...rest } = init;
    const url = typeof pathOrUrl === 'string' && pathOrUrl.startsWith('/') ? this.baseUrl + pathOrUrl : String(pathOrUrl);
    const base: Record<string, string> = {};
    try {
      new Headers(headers).forEach((v, k) => (base[k] = v));
    } catch (e) {
      throw new RequestError(`fetchWithAuth: ${(e as Error).message}`, { field: 'headers' });
    }
    const d = deadline(signal ?? undefined, timeoutMs ?? this.options.timeoutMs);
    try {
      return await this.execute(url, rest, base, { readOnly: false, deadline: d });
    } catch (e) {
      throw this.typed(e, d);
    } finally {
      d.done();
    }
  }

  /**
   * @internal The underlying fetch with nothing added: no auth, no retries, no error mapping (for
   * the auth flows that must read a redirect themselves).
   */
  fetchRaw(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return this.baseFetch(input, init);
  }

  private typed(e: unknown, d: Deadline, status = 200): SiteKitError {
    if (isSiteKitError(e)) return e;
    if (d.signal.aborted) return d.error();
    // A 2xx whose body is not JSON (or cannot be read to the end).
    return new HttpError({ status, message: `Unreadable response body: ${(e as Error)?.message ?? e}` });
  }

  /** `promise`, or the deadline's rejection as soon as it fires (waiting for a token counts too). */
  private within<T>(promise: Promise<T>, a: Attempt): Promise<T> {
    const { signal, live } = a.deadline;
    if (!live) return promise;
    return new Promise<T>((resolve, reject) => {
      const stop = () => reject(signal.reason);
      if (signal.aborted) return stop();
      signal.addEventListener('abort', stop, { once: true });
      promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
    });
  }

  /**
   * The attempt loop around the real fetch, with plain `(url, init)` (a Request object of our own
   * would be built twice: fetch makes its own). Bodies the SDK sends are strings, sent again as
   * they are on a retry or a 401 replay; a caller's other body (fetchWithAuth: a stream, a Blob...)
   * is not resent, so such a call is neither retried nor replayed.
   */
  private async execute(url: string, init: RequestInit, base: Record<string, string>, a: Attempt): Promise<Response> {
    const { signal, live } = a.deadline;
    const { method = 'GET', body } = init;
    const resendable = body == null || typeof body == 'string';
    let renewed = false;
    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) throw a.deadline.error();
      // A plain object with lower-cased names (cheaper than Headers; later sources win).
      const headers: Record<string, string> = { ...base };
      assign(headers, this.options.headers);
      headers['x-wix-bi-gateway'] = sdkHeader(a.fqn, a.entity);
      if (this.consistent) headers['x-wix-consistent'] = this.consistent;
      let response: Response;
      try {
        if (!a.anonymous) assign(headers, await this.within(this.options.auth.getAuthHeaders(), a));
        assign(headers, a.headers);
        const req = { ...init, method, headers } as RequestInit & { duplex?: string };
        if (live) req.signal = signal;
        if (!resendable) req.duplex = 'half';
        response = await this.baseFetch(url, req);
      } catch (e) {
        if (signal.aborted) throw a.deadline.error();
        if (isSiteKitError(e)) throw e;
        if (resendable && this.retries(method, a, attempt, { networkError: true })) {
          await this.pause(attempt, null, a);
          continue;
        }
        throw new NetworkError({ cause: e });
      }
      const token = response.headers.get('x-wix-consistent');
      if (token) this.consistent = token;
      if (response.ok) return response;
      if (response.status === 401 && !renewed && !a.anonymous && this.options.auth.onUnauthorized && resendable) {
        renewed = true;
        void response.body?.cancel();
        const renewedOk = await this.within(this.options.auth.onUnauthorized(), a).catch(() => false);
        if (signal.aborted) throw a.deadline.error();
        if (renewedOk) {
          attempt--;
          continue;
        }
      }
      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
      if (resendable && this.retries(method, a, attempt, { status: response.status, retryAfterMs })) {
        void response.body?.cancel();
        await this.pause(attempt, retryAfterMs, a);
        continue;
      }
      const text = await response.text().catch(() => '');
      throw errorFromResponse({ status: response.status, statusText: response.statusText, body: text, requestId: response.headers.get('x-wix-request-id') });
    }
  }

  private retries(method: string, a: Attempt, attempt: number, failure: { status?: number; networkError?: boolean; retryAfterMs?: number | null }): boolean {
    return shouldRetry({ method, readOnly: a.readOnly, attempt, options: this.options.retry ?? {}, ...failure });
  }

  private async pause(attempt: number, retryAfterMs: number | null, a: Attempt): Promise<void> {
    try {
      await sleep(retryDelay({ attempt, options: this.options.retry || {}, retryAfterMs }), a.deadline.signal);
    } catch {
      throw a.deadline.error();
    }
  }
}
