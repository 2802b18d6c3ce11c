/**
 * Tells a network failure (no usable response: refused, reset, DNS, TLS, offline) from every other
 * exception a `fetch` can throw. Only network failures become `NetworkError` and are retried: a
 * bug in a caller's custom `fetch` (a `ReferenceError`, a mock that throws) must surface as it is,
 * once. Modelled on ky's `is-network-error`: browsers and Node's fetch report network failures as
 * a `TypeError` with one of a few fixed messages; Node's own sockets as errors with a system code.
 */

import { NetworkError } from '../errors/index.js';

/** The messages runtimes give the `TypeError` of a failed fetch. */
const FETCH_FAILURE_MESSAGES = new Set([
  'Failed to fetch', // Chrome
  'network error', // Chrome (a body cut short)
  'NetworkError when attempting to fetch resource.', // Firefox
  'The Internet connection appears to be offline.', // Safari 16
  'Load failed', // Safari 17+
  'Network request failed', // React Native, cross-fetch
  'fetch failed', // Node (undici)
  'terminated', // Node (undici): the connection closed while the body was being read
]);

/** System error codes of a connection, DNS or TLS failure (Node, undici), and of a reply cut short. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EPROTO',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
]);

/** Families of codes: a malformed reply (`HPE_`), TLS failures, certificate problems. */
const NETWORK_CODE_PREFIXES = ['HPE_', 'ERR_SSL_', 'ERR_TLS_', 'CERT_', 'UNABLE_TO_'];

const isNetworkCode = (code: string): boolean =>
  NETWORK_CODES.has(code) || NETWORK_CODE_PREFIXES.some((prefix) => code.startsWith(prefix));

/** Node's message for a connection closed before a response: `socket hang up` (its code is ECONNRESET). */
const NETWORK_MESSAGE = /^(socket hang up|(\w+ )?E(CONNRESET|CONNREFUSED|NOTFOUND|AI_AGAIN|TIMEDOUT|PIPE)\b)/;

/** The `code` and `message` of a thrown value, when it is an object. */
const fieldsOf = (
  value: unknown,
): { code?: unknown; message?: unknown; name?: unknown; cause?: unknown } | undefined =>
  typeof value === 'object' && value !== null ? (value as { code?: unknown }) : undefined;

/** Whether one thrown value (not its cause) says the network failed. */
function saysNetworkFailed(value: unknown): boolean {
  const error = fieldsOf(value);
  if (!error) return false;
  if (typeof error.code === 'string' && isNetworkCode(error.code)) return true;
  if (typeof error.message !== 'string') return false;
  if (error.name === 'TypeError' && FETCH_FAILURE_MESSAGES.has(error.message)) return true;
  return NETWORK_MESSAGE.test(error.message);
}

/**
 * True when `error` (or its direct `cause`, where Node's fetch hides the socket's error) reports
 * a network failure rather than a bug or an abort.
 *
 * @example
 * isNetworkFailure(new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })); // true
 * isNetworkFailure(new TypeError('fetchImpl is not a function')); // false
 */
export function isNetworkFailure(error: unknown): boolean {
  return saysNetworkFailed(error) || saysNetworkFailed(fieldsOf(error)?.cause);
}

/** `error` as a NetworkError when it is a network failure, else unchanged (a bug stays a bug). */
export const asNetworkError = (error: unknown): unknown =>
  isNetworkFailure(error) ? new NetworkError({ cause: error }) : error;
