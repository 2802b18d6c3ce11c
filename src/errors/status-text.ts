/**
 * Standard reason phrases of the 4xx statuses, used when a response carries no status text
 * (always over HTTP/2, and in some fetch implementations). The phrases are Node's, so the
 * derived codes match what an HTTP/1.1 server built on Node (such as the emulator) sends.
 * @internal
 */
const CLIENT_STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
};

/**
 * The status text to show for `status`: the response's own text when it has one, else the
 * standard phrase, else `undefined`.
 * @internal
 */
export function statusTextFor(status: number, given?: string): string | undefined {
  const own = typeof given === 'string' ? given.replace(/\s+/g, ' ').trim() : '';
  return own !== '' ? own : CLIENT_STATUS_TEXT[status];
}

/**
 * Upper-snake form of a status text: `Not Found` → `NOT_FOUND`, `I'm a Teapot` → `IM_A_TEAPOT`.
 * @internal
 */
export function toUpperSnake(text: string): string {
  return text
    .replace(/['\u2019]/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/**
 * The error code for a status: upper-snake status text, or `HTTP_<status>` when no text is
 * known (a non-standard status with an empty status text).
 * @internal
 */
export function codeForStatus(status: number, given?: string): string {
  const text = statusTextFor(status, given);
  const code = text === undefined ? '' : toUpperSnake(text);
  return code !== '' ? code : `HTTP_${status}`;
}
