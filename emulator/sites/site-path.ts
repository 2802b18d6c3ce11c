/**
 * The path a site's own URLs start with. The default site's URLs are the emulator's
 * (`http://127.0.0.1:4700/_media/...`); every other site's start with `/_sites/<siteId>`
 * (`http://127.0.0.1:4700/_sites/<siteId>/_media/...`), so a download link, an upload URL or a
 * hosted sign-in page finds its site without a header. The server takes the prefix off before
 * routing (`http/server.ts`).
 */
import type { EmulatorContext } from '../service.js';

/** What the path of a site's URLs starts with, before the site id. */
export const SITE_PATH_PREFIX = '/_sites/';

/** The path of a site's URLs: `''` for the default site, `/_sites/<siteId>` for the others. */
export function sitePath(context: Pick<EmulatorContext, 'url'>): string {
  const url = context.url();
  return URL.canParse(url) ? new URL(url).pathname.replace(/\/+$/, '') : '';
}

/**
 * The site id and the rest of a URL that starts with a site's path (`/_sites/<id>/x?y` →
 * `{siteId: '<id>', rest: '/x?y'}`), or `undefined` for any other URL.
 */
export function splitSitePath(url: string): { siteId: string; rest: string } | undefined {
  if (!url.startsWith(SITE_PATH_PREFIX)) return undefined;
  const end = url.slice(SITE_PATH_PREFIX.length).search(/[/?#]/);
  const siteId =
    end < 0 ? url.slice(SITE_PATH_PREFIX.length) : url.slice(SITE_PATH_PREFIX.length, SITE_PATH_PREFIX.length + end);
  if (!siteId) return undefined;
  const rest = end < 0 ? '' : url.slice(SITE_PATH_PREFIX.length + end);
  let decoded: string;
  try {
    decoded = decodeURIComponent(siteId);
  } catch {
    // Not percent-encoding (`%E0`): no site has such an id, and the request is answered 404 as one.
    decoded = siteId;
  }
  return { siteId: decoded, rest: rest.startsWith('/') ? rest : `/${rest}` };
}
