/**
 * Where the emulator agrees to send a browser (with a code, after logout, in a recovery link):
 * the demo OAuth client allows any port of localhost, 127.0.0.1 and [::1], the emulator's own
 * origin, and the origins listed in the `allowedRedirectOrigins` setting; never the emulator's API
 * paths but its landing page.
 */
import { applicationError } from '../../../errors.js';
import { isApiPath } from '../../../http/static.js';
import type { EmulatorContext } from '../../../service.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where a completed sign-in lands when the authorization request named no redirect URI. */
export const LANDING_PAGE = '/_pages/signed-in';

/** The port a URL connects to. */
const portOf = (url: URL): string => url.port || (url.protocol == 'https:' ? '443' : '80');

/**
 * Whether `url` is one of the emulator's API paths (`/_media/`, `/_emulator/`...), on its own origin
 * or on a loopback name at its port, but the landing page. No code or token may be sent there: an
 * expired download URL redirects wherever the visitor who made it chose, and the browser carries
 * the code's fragment along to that site, which holds the PKCE verifier of its own sign-in request.
 */
function isEmulatorApiPath(context: EmulatorContext, url: URL): boolean {
  if (!context.url()) return false;
  const own = new URL(context.url());
  const isEmulator = url.origin == own.origin || (LOOPBACK_HOSTS.has(url.hostname) && portOf(url) == portOf(own));
  const path = url.pathname;
  return isEmulator && path != LANDING_PAGE && isApiPath(path);
}

/** Whether the demo client may redirect to `uri`. */
export function isAllowedRedirect(context: EmulatorContext, uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol != 'http:' && url.protocol != 'https:') return false;
  if (isEmulatorApiPath(context, url)) return false;
  if (LOOPBACK_HOSTS.has(url.hostname)) return true;
  if (context.url() && url.origin == new URL(context.url()).origin) return true;
  return context.config
    .get<string[]>('allowedRedirectOrigins')
    .some((origin) => origin.replace(/\/+$/, '') == url.origin);
}

/** Refuses a redirect URI the client does not allow (400, `INVALID_REDIRECT_URI`). */
export function requireAllowedRedirect(context: EmulatorContext, uri: string, field: string): string {
  if (!isAllowedRedirect(context, uri)) {
    throw applicationError(
      400,
      'INVALID_REDIRECT_URI',
      `${field}: ${uri} is not an allowed redirect URI of the OAuth client (allowed: localhost origins, the emulator, allowedRedirectOrigins)`,
      { field },
    );
  }
  return uri;
}
