/**
 * The checks that keep web pages the developer happens to visit away from the emulator: the
 * `Host` check (DNS rebinding), the origins a browser page may call from, and the rule for the
 * control API's writes (a non-simple request from an allowed origin). Pure functions over header
 * values; `server.ts` applies them in its hooks.
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
  if (!hostHeader) return false;
  const hostname = hostnameOf(hostHeader);
  if (!hostname) return false;
  if (isIP(hostname.replace(/^\[|\]$/g, '')) != 0 || isLocalhostName(hostname)) return true;
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
  const essence = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return essence == 'application/json' || (essence.startsWith('application/') && essence.endsWith('+json'));
};

/** What the control-write rule reads of a request. */
export interface ControlWriteHeaders {
  origin?: string | undefined;
  /** The `Host` (already checked): a page of the emulator's own origin, reached by any allowed name, may write. */
  host?: string | undefined;
  contentType?: string | undefined;
  /** Whether {@link CONTROL_HEADER} was sent. */
  controlHeader: boolean;
}

/**
 * Why a write to the control API (reset, import, config...) is refused, or undefined when it may
 * go on. A page of any website can send a "simple" cross-origin request (a form post, a no-cors
 * fetch) without the browser asking first; a JSON body or a custom header makes the browser ask
 * (a CORS preflight), which only allowed origins pass. The origin is checked too, for browsers
 * or proxies that would skip the preflight. Requests without an `Origin` (curl, Node, tests) are
 * not from a web page.
 */
export function controlWriteProblem(
  headers: ControlWriteHeaders,
  allowedOrigins: readonly string[],
): string | undefined {
  const sameOrigin =
    headers.origin !== undefined && URL.canParse(headers.origin) && new URL(headers.origin).host == headers.host;
  if (headers.origin !== undefined && !sameOrigin && !isAllowedOrigin(headers.origin, allowedOrigins))
    return `Control API writes are not accepted from the origin ${headers.origin}: add it to the config setting allowedCorsOrigins to allow it.`;
  if (!headers.controlHeader && !isJsonType(headers.contentType))
    return `Control API writes need a JSON body (content-type: application/json) or the header ${CONTROL_HEADER}: 1, so that no web page can send one without the browser asking first.`;
  return undefined;
}
