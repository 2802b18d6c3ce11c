import { trimmedText } from './util.js';

/**
 * Reason phrases of the statuses the platform answers with, for responses that carry no status
 * text (always over HTTP/2, and in some fetch implementations). The phrases are Node's, so the
 * derived codes match what an HTTP/1.1 server built on Node (such as the emulator) sends. Any
 * other status without a text is coded `HTTP_<status>`.
 * @internal
 */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  418: "I'm a Teapot",
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * The status text to show for `status`: the response's own text (trimmed) when it has one,
 * else the standard phrase, else `undefined`.
 * @internal
 */
export const statusTextFor = (status: number, given?: string): string | undefined =>
  trimmedText(given) || STATUS_TEXT[status];

/**
 * Upper-snake form of a status text: `Not Found` → `NOT_FOUND`, `I'm a Teapot` → `IM_A_TEAPOT`
 * (apostrophes dropped, every other run of non-alphanumerics is one `_`, none at the ends).
 * @internal
 */
export const toUpperSnake = (text: string): string =>
  (text.replace(/['\u2019]/g, '').match(/[a-z\d]+/gi) || []).join('_').toUpperCase();

/**
 * The error code for a status: upper-snake status text, or `HTTP_<status>` when no text is
 * known (a status outside the table with an empty status text).
 * @internal
 */
export const codeForStatus = (status: number, given?: string): string =>
  toUpperSnake(statusTextFor(status, given) ?? '') || `HTTP_${status}`;
