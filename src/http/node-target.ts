/**
 * Where a `node:http` request goes, as `http.request` options. Handing `http.request` a URL
 * string makes it parse the whole URL on every call; the transport sends many requests to one
 * origin, so the origin is parsed once and the path is used as it is whenever it is already in
 * the form URL parsing would give (the transport's own URLs always are). Anything else (dot
 * segments, characters a URL would escape) goes through `new URL`, as `fetch` would have it; a
 * URL with credentials (`user:pass@`) is refused, as `fetch` refuses it.
 */
import type { RequestOptions } from 'node:http';

/** An origin's part of the request options. */
interface Origin {
  /** `http:` or `https:` (any other is left for `http.request` to refuse). */
  readonly protocol: string;
  readonly hostname: string;
  /** Absent for the scheme's default port. */
  readonly port?: number;
  /** The `Host` header's value, as `http.request` would write it (IPv6 in brackets, a default port left out). */
  readonly host: string;
}

/** The request options of one URL, whether it goes over TLS, and its `Host` header. */
export interface Target {
  readonly secure: boolean;
  readonly options: RequestOptions;
  readonly host: string;
}

/** Origins seen so far; a process talks to few, and the table is emptied if it ever grows. */
const origins = new Map<string, Origin>();
const MAX_ORIGINS = 64;

/** A path and query that URL parsing leaves as they are: printable ASCII a URL keeps, no backslash, quote or fragment. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;
/** A host (name, IPv4, bracketed IPv6) and port made of characters URL parsing keeps as they are. */
const PLAIN_AUTHORITY = /^[\w.\-:[\]]+$/;
/** A `.` or `..` segment (also percent-encoded) before the query: URL parsing would resolve it. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:[/?]|$)/i;

/** The origin's part of the options, from the URL parser (brackets of an IPv6 host removed, as `http.request` wants). */
function parseOrigin(url: URL): Origin {
  const { hostname, port } = url;
  return {
    protocol: url.protocol,
    hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    port: port === '' ? undefined : Number(port),
    // URL parsing gives it as http.request writes it: brackets kept, the scheme's default port dropped.
    host: url.host,
  };
}

/** A URL the fast path does not take: parsed whole, as `http.request` would parse it. */
function parsedTarget(url: string): Target {
  const parsed = new URL(url);
  // http.request would send them as Basic auth to whatever host the URL names (a redirect's
  // Location included); fetch refuses such a URL. The message leaves the secret out.
  if (parsed.username || parsed.password)
    throw new TypeError(`a URL with credentials (user:pass@) is not sent: ${parsed.origin}${parsed.pathname}`);
  const { host, ...origin } = parseOrigin(parsed);
  return { secure: parsed.protocol === 'https:', options: { ...origin, path: parsed.pathname + parsed.search }, host };
}

/**
 * The `http.request` options (host, port, path) and `Host` header of an absolute `http:` or `https:`
 * URL; a TypeError for one with credentials.
 */
export function targetOf(url: string): Target {
  const authorityStart = url.indexOf('://') + 3;
  const pathStart = url.indexOf('/', authorityStart);
  if (authorityStart < 3 || pathStart < 0) return parsedTarget(url);
  const originText = url.slice(0, pathStart);
  const path = url.slice(pathStart);
  const queryStart = path.indexOf('?');
  const pathOnly = queryStart < 0 ? path : path.slice(0, queryStart);
  // (An empty query, a bare `?` at the end, is dropped by URL parsing.)
  if (!PLAIN_PATH.test(path) || queryStart === path.length - 1) return parsedTarget(url);
  if ((pathOnly.includes('.') || pathOnly.includes('%')) && DOT_SEGMENT.test(pathOnly)) return parsedTarget(url);
  let origin = origins.get(originText);
  if (!origin) {
    // Only a plain host and port: credentials, spaces, control characters (URL parsing trims or
    // drops some of them) and anything else unusual go through `new URL` whole.
    if (!PLAIN_AUTHORITY.test(originText.slice(authorityStart))) return parsedTarget(url);
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origin = parseOrigin(new URL(originText));
    origins.set(originText, origin);
  }
  return {
    secure: origin.protocol === 'https:',
    options: { protocol: origin.protocol, hostname: origin.hostname, port: origin.port, path },
    host: origin.host,
  };
}
