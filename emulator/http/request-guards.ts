/**
 * The checks that keep web pages the developer happens to visit away from the emulator: the
 * `Host` check (DNS rebinding), the origins a browser page may call the platform API from, and the
 * rule for the control API (the emulator's own origin or a named one; writes non-simple). Pure
 * functions over header values; `server.ts` applies them in its hooks.
 */
import { isIP } from 'node:net';
import { CONTROL_HEADER } from '../control/api.js';

// Declared beside the control API's types (the browser-safe client sends it).
export { CONTROL_HEADER };

/** `localhost` and its subdomains (`app.localhost`), which resolve to loopback without DNS. */
export const isLocalhostName = (hostname: string): boolean =>
  hostname == 'localhost' || hostname.endsWith('.localhost');

/** `127.0.0.1`, `[::1]`: the loopback addresses as a URL's `hostname` spells them. */
const LOOPBACK_ADDRESSES = new Set(['127.0.0.1', '[::1]']);

/** `http(s)://localhost:5173`, `http://127.0.0.1:3000`, `http://[::1]:8080`, `http://app.localhost`... */
export function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  const { protocol, hostname } = new URL(origin);
  return (
    (protocol == 'http:' || protocol == 'https:') && (LOOPBACK_ADDRESSES.has(hostname) || isLocalhostName(hostname))
  );
}

/** Whether a browser page of `origin` may call the emulator: loopback, or one of the configured origins. */
export const isAllowedOrigin = (origin: string, allowedOrigins: readonly string[]): boolean =>
  isLoopbackOrigin(origin) || allowedOrigins.includes(origin);

/**
 * The host name of a `Host` header (`[::1]:4700` → `[::1]`), lower case and without the trailing dot
 * of a fully qualified name (`localhost.` is `localhost`), or undefined when it is not one.
 */
function hostnameOf(hostHeader: string): string | undefined {
  const candidate = `http://${hostHeader}`;
  // A Host with a path, a user or a query is not a host.
  if (!URL.canParse(candidate) || /[/?#@\\]/.test(hostHeader)) return undefined;
  const { hostname } = new URL(candidate);
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

/**
 * Whether a request's `Host` names the emulator: an IP address (a rebound DNS name never arrives
 * as an address), `localhost` and `*.localhost`, the name the emulator was bound to, or an entry
 * of `allowedHosts` (`proxy.example`, or `.example.com` for it and every subdomain). This is the
 * rule of the Vite and webpack dev servers.
 */
export function isAllowedHost(
  hostHeader: string | undefined,
  boundHost: string,
  allowedHosts: readonly string[],
): boolean {
  // Stryker disable next-line ConditionalExpression: hostnameOf refuses an empty Host too.
  if (!hostHeader) return false;
  const hostname = hostnameOf(hostHeader);
  if (!hostname) return false;
  if (isIP(hostname.replace(/[[\]]/g, '')) != 0 || isLocalhostName(hostname)) return true;
  if (hostname == boundHost.toLowerCase()) return true;
  return allowedHosts.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed.startsWith('.') ? hostname == allowed.slice(1) || hostname.endsWith(allowed) : hostname == allowed;
  });
}

/** Above this many distinct `Host` values, the remembered answers are dropped and built anew. */
const REMEMBERED_HOSTS = 64;

/**
 * {@link isAllowedHost} for one server, answered once per distinct `Host` value: every request
 * carries one and clients send the same few, while the rule parses the header as a URL. The
 * answers are forgotten when the `allowedHosts` setting changes (the list `configured` returns is
 * then another array: the config store hands out the same frozen value until the setting changes).
 */
export function createHostCheck(
  boundHost: string,
  startHosts: readonly string[],
  configured: () => readonly string[],
): (hostHeader: string | undefined) => boolean {
  const answers = new Map<string, boolean>();
  let answeredFor: readonly string[] | undefined;
  return (hostHeader) => {
    if (!hostHeader) return false;
    const fromConfig = configured();
    if (fromConfig !== answeredFor || answers.size >= REMEMBERED_HOSTS) {
      answers.clear();
      answeredFor = fromConfig;
    }
    let allowed = answers.get(hostHeader);
    if (allowed === undefined) {
      allowed = isAllowedHost(hostHeader, boundHost, [...startHosts, ...fromConfig]);
      answers.set(hostHeader, allowed);
    }
    return allowed;
  };
}

/** A `content-type` of JSON (`application/json`, `application/merge-patch+json`...), which a plain HTML form or a no-cors fetch cannot send. */
const isJsonType = (contentType: string | undefined): boolean => {
  if (!contentType) return false;
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  return essence == 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
};

/** What the control API's rule reads of a request. */
export interface ControlRequestHeaders {
  origin?: string | undefined;
  /** The `Host` (already checked): a page of the emulator's own origin, reached by any allowed name, may call. */
  host?: string | undefined;
  contentType?: string | undefined;
  /** Whether {@link CONTROL_HEADER} was sent. */
  controlHeader: boolean;
}

/**
 * Whether a browser page of `origin` may use the control API: the emulator's own origin (its
 * console, reached by whatever allowed name the request's `Host` says), or one the user named
 * (`controlOrigins`). Not every loopback origin: another project's dev server, or a dependency
 * running in it, must not sign in as a member or read the export's password hashes.
 */
export function isControlOrigin(origin: string, host: string | undefined, controlOrigins: readonly string[]): boolean {
  if (controlOrigins.includes(origin)) return true;
  return host !== undefined && URL.canParse(origin) && new URL(origin).host == host.toLowerCase();
}

/**
 * Why a request of the control API (`/_emulator/...`) is refused, or undefined when it may go on.
 * From a browser (an `Origin`), only {@link isControlOrigin} origins, for reads as for writes. A
 * write (reset, import, config...) also needs a non-simple request: a page of any website can send
 * a "simple" cross-origin request (a form post, a no-cors fetch) without the browser asking first;
 * a JSON body or a custom header makes the browser ask (a CORS preflight). Requests without an
 * `Origin` (curl, Node, tests, the CLI) are not from a web page.
 */
export function controlRequestProblem(
  headers: ControlRequestHeaders,
  write: boolean,
  controlOrigins: readonly string[],
): string | undefined {
  if (headers.origin !== undefined && !isControlOrigin(headers.origin, headers.host, controlOrigins))
    return `The control API answers browser pages of the emulator's own origin only, not ${headers.origin}: start the emulator with --control-origin ${headers.origin} (or add it to the config setting controlOrigins) to allow it.`;
  if (write && !headers.controlHeader && !isJsonType(headers.contentType))
    return `Control API writes need a JSON body (content-type: application/json) or the header ${CONTROL_HEADER}: 1, so that no web page can send one without the browser asking first.`;
  return undefined;
}

/**
 * Whether a request is one of the control API's (`/_emulator/...`): by the matched route's pattern
 * when it has one (the raw URL may spell the path with escapes, `/%5Femulator/`), else by the path
 * as the router decodes it (a preflight or a 404).
 */
export function isControlPath(routePattern: string | undefined, url: string): boolean {
  if (routePattern?.startsWith('/_emulator/')) return true;
  const queryStart = url.indexOf('?');
  // Stryker disable next-line EqualityOperator: a request's URL starts with `/`, never with `?`.
  let path = queryStart < 0 ? url : url.slice(0, queryStart);
  // Stryker disable next-line ConditionalExpression,StringLiteral: only faster, a path without escapes decodes to itself.
  if (path.includes('%'))
    try {
      path = decodeURIComponent(path);
    } catch {
      // Not decodable: the router does not match it either; judged as written.
    }
  return path.startsWith('/_emulator/') || path == '/_emulator';
}
