import { str } from './util.js';

/**
 * Reason phrases of the 4xx statuses the platform answers with, indexed by `status - 400`
 * (holes are statuses it does not use), for responses that carry no status text (always over
 * HTTP/2, and in some fetch implementations). The phrases are Node's, so the derived codes
 * match what an HTTP/1.1 server built on Node (such as the emulator) sends. Any other status
 * without a text is coded `HTTP_<status>`.
 * @internal
 */
const CLIENT_STATUS_TEXT: readonly (string | undefined)[] = [
  'Bad Request', // 400
  'Unauthorized', // 401
  , // 402
  'Forbidden', // 403
  'Not Found', // 404
  'Method Not Allowed', // 405
  , , // 406, 407
  'Request Timeout', // 408
  'Conflict', // 409
  'Gone', // 410
  , // 411
  'Precondition Failed', // 412
  'Payload Too Large', // 413
  , // 414
  'Unsupported Media Type', // 415
  , , // 416, 417
  "I'm a Teapot", // 418
  , , , // 419-421
  'Unprocessable Entity', // 422
  , , , , , , // 423-428
  'Too Many Requests', // 429
];

/**
 * The status text to show for `status`: the response's own text (trimmed) when it has one,
 * else the standard phrase, else `undefined`.
 * @internal
 */
export const statusTextFor = (status: number, given?: string): string | undefined =>
  str(given) || CLIENT_STATUS_TEXT[status - 400];

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
