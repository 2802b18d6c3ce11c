/**
 * The transport's settings (from `createClient` options), their defaults, and their check: a
 * plain-JS caller's mistake (`timeoutMs: 'abc'`, `baseUrl: 'not a url'`) fails at `createClient`
 * with a clear `RequestError`, not on the first call or never.
 */
import { invalid, isRecord } from '../input.js';
import type { TransportAuth } from './auth.js';
import type { RetryOptions } from './retry.js';

/**
 * The default time limit of a whole call, retries and the waits between them included: a call
 * always ends on its own, even against a server that never answers.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The default time limit of one attempt (until its whole response is read): a hung connection
 * is given up and, when the call is idempotent, tried again within the call's limit.
 */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;

/** Transport settings (from `createClient` options). */
export interface TransportOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  headers?: Record<string, string>;
  retry?: RetryOptions | false;
  /** Time limit of each call, retries included; default {@link DEFAULT_TIMEOUT_MS}; `0` for none. */
  timeoutMs?: number;
  /** Time limit of each attempt; default {@link DEFAULT_ATTEMPT_TIMEOUT_MS}; `0` for none. */
  attemptTimeoutMs?: number;
  auth: TransportAuth;
}

/** Whether `value` is a time limit: a number of milliseconds >= 0 (`0` and `Infinity`: none). */
const isMilliseconds = (value: unknown): value is number => typeof value === 'number' && value >= 0;

/** A time limit, or absent; else the RequestError `<context>: <field> must be ...`. */
export const checkMilliseconds = (value: unknown, field: string, context: string): void => {
  if (value !== undefined && !isMilliseconds(value))
    invalid(field, 'a number of milliseconds >= 0 (0: no limit)', context);
};

const WHO = 'createClient';

/** Throws a RequestError naming the first option that cannot work. */
export function checkTransportOptions(options: TransportOptions): void {
  const { baseUrl, fetch, headers, retry } = options;
  if (baseUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
    } catch {
      // reported below
    }
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') invalid('baseUrl', 'an absolute http(s) URL', WHO);
    // fetch would refuse every call with a bare TypeError, node:http send them as Basic auth.
    if (url.username || url.password)
      invalid('baseUrl', 'a URL without user:pass@ (send credentials in a header)', WHO);
  }
  if (fetch !== undefined && typeof fetch !== 'function') invalid('fetch', 'a function', WHO);
  if (
    headers !== undefined &&
    !(isRecord(headers) && Object.values(headers).every((value) => typeof value === 'string'))
  )
    invalid('headers', 'an object of strings', WHO);
  if (retry !== undefined && retry !== false && !isRecord(retry)) invalid('retry', 'an object or false', WHO);
  checkMilliseconds(options.timeoutMs, 'timeoutMs', WHO);
  checkMilliseconds(options.attemptTimeoutMs, 'attemptTimeoutMs', WHO);
}

/** The headers with lower-cased names (so later sources replace earlier ones whatever their case). */
export function lowerCaseHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const name in headers) lowered[name.toLowerCase()] = headers[name]!;
  return lowered;
}
