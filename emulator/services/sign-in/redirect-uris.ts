/**
 * Where the emulator agrees to send a browser (with a code, after logout, in a recovery link):
 * the demo OAuth client allows any port of localhost, 127.0.0.1 and [::1], the emulator's own
 * origin, and the origins listed in the `allowedRedirectOrigins` setting.
 */
import { applicationError } from '../../errors.js';
import type { EmulatorContext } from '../../service.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the demo client may redirect to `uri`. */
export function isAllowedRedirect(context: EmulatorContext, uri: string): boolean {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol != 'http:' && url.protocol != 'https:') return false;
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
