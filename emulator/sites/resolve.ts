/**
 * Which site a request acts on, found as the platform finds it, before any route runs:
 * - a platform call: its API key (with the `wix-site-id` header when sent: a key used with another
 *   site's id is refused), or its access token's site; a token request names its OAuth client in
 *   its body (`clientId`), read once the body is parsed;
 * - a link the emulator handed out (download, upload, hosted page): its `/_sites/<id>` path;
 * - a control call (`/_emulator/...`): the `x-sitekit-site` header.
 * Nothing named: the default site. Two names of different sites: refused.
 */
import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { SITE_HEADER } from '../control/api.js';
import { applicationError, type EmulatorError } from '../errors.js';
import type { EmulatorContext } from '../service.js';
import type { SiteRegistry } from './registry.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The site the request acts on, resolved when it arrives. */
    site?: EmulatorContext;
    /** The request names its site in its body (a token request's client id): resolved once it is parsed. */
    siteFromBody?: boolean;
  }
}

/** The header an API-key client names its site with. */
const PLATFORM_SITE_HEADER = 'wix-site-id';

/** A site, and what named it (for the refusal of two names that disagree). */
interface Naming {
  site: EmulatorContext;
  by: string;
}

/** 404 for a site id no site has. */
export const siteNotFound = (siteId: string, by: string): EmulatorError =>
  applicationError(404, 'SITE_NOT_FOUND', `No site ${siteId} in this emulator (named by ${by})`, { siteId });

/** The one header value, or undefined (a repeated header is refused by its caller as not a site). */
const headerValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(',') : value;

/** The site whose access token this is (its audience), if it looks like one of ours. */
function tokenSite(registry: SiteRegistry, credential: string): EmulatorContext | undefined {
  if (credential.split('.').length != 3) return undefined;
  try {
    const audience = decodeJwt(credential).aud;
    return typeof audience == 'string' ? registry.get(audience) : undefined;
  } catch {
    // Not a JWT: the route's check of the credential refuses it.
    return undefined;
  }
}

/** The sites a request's credentials name (`Authorization`: a token, an API key, or both comma-separated). */
function credentialNamings(registry: SiteRegistry, authorization: string | undefined): Naming[] {
  if (!authorization?.trim()) return [];
  const namings: Naming[] = [];
  for (const part of authorization.split(',')) {
    const credential = part.trim().replace(/^Bearer\s+/i, '');
    if (!credential) continue;
    const byKey = registry.withApiKey(credential);
    if (byKey) namings.push({ site: byKey, by: 'the API key' });
    else {
      const byToken = tokenSite(registry, credential);
      if (byToken) namings.push({ site: byToken, by: 'the access token' });
    }
  }
  return namings;
}

/** What a request is, for {@link resolveSite}. */
export interface RequestKind {
  /** A control call (`/_emulator/...`). */
  control: boolean;
  /** A route callable without credentials, whose body may name the site (the token endpoint). */
  anonymous: boolean;
  /** The site id of the URL's `/_sites/<id>` path, if it had one. */
  pathSiteId: string | undefined;
}

/** The site `request` acts on, or the refusal of a site it names that is not there or not one. */
export function resolveSite(
  registry: SiteRegistry,
  request: FastifyRequest,
  kind: RequestKind,
): EmulatorContext | EmulatorError {
  const namings: Naming[] = [];
  if (kind.pathSiteId !== undefined) {
    const site = registry.get(kind.pathSiteId);
    if (!site) return siteNotFound(kind.pathSiteId, 'the URL');
    namings.push({ site, by: 'the URL' });
  }
  const headerName = kind.control ? SITE_HEADER : PLATFORM_SITE_HEADER;
  const named = headerValue(request.headers[headerName]);
  if (named !== undefined) {
    const site = registry.get(named.trim());
    if (!site) return siteNotFound(named, `the ${headerName} header`);
    namings.push({ site, by: `the ${headerName} header` });
  }
  if (!kind.control) namings.push(...credentialNamings(registry, request.headers.authorization));
  const first = namings[0];
  const other = namings.find((naming) => naming.site !== first?.site);
  if (first && other)
    return applicationError(
      403,
      'PERMISSION_DENIED',
      `${other.by} belongs to another site (${other.site.site.siteId}) than ${first.by} (${first.site.site.siteId})`,
    );
  if (first) return first.site;
  if (kind.anonymous) request.siteFromBody = true;
  return registry.defaultSite;
}

/** The OAuth client a token or redirect-session request names in its body, if any. */
function bodyClientId(body: unknown): unknown {
  if (typeof body != 'object' || body === null) return undefined;
  const fields = body as {
    clientId?: unknown;
    client_id?: unknown;
    auth?: { authRequest?: { clientId?: unknown } };
    logout?: { clientId?: unknown };
  };
  return fields.clientId ?? fields.client_id ?? fields.auth?.authRequest?.clientId ?? fields.logout?.clientId;
}

/**
 * For a request whose site its body names: that client's site (an unknown client leaves the
 * default site, whose grant refuses it as unknown).
 */
export function resolveSiteFromBody(registry: SiteRegistry, request: FastifyRequest): void {
  const clientId = bodyClientId(request.body);
  const site = typeof clientId == 'string' ? registry.withClient(clientId) : undefined;
  if (site) request.site = site;
}
