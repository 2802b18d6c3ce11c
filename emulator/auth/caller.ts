/** Turns a request's `Authorization` header into the {@link Caller}. */
import { timingSafeEqual } from 'node:crypto';
import { unauthenticated } from '../errors.js';
import type { Caller } from '../service.js';
import type { SiteIdentity } from '../site.js';
import type { TokenService } from '../service.js';

/** The caller of a request made without any `Authorization` header, where a route allows that. */
export const ANONYMOUS: Caller = Object.freeze({ kind: 'visitor', authenticated: false });

/** The caller of a request made with the site's API key. */
const ELEVATED: Caller = Object.freeze({ kind: 'elevated', authenticated: true });

/** The bytes of the last secret compared with: the site's API key, on every call. */
let expectedSecret = { text: '', bytes: Buffer.alloc(0) };

const sameSecret = (given: string, expected: string): boolean => {
  if (expectedSecret.text !== expected) expectedSecret = { text: expected, bytes: Buffer.from(expected) };
  const left = Buffer.from(given);
  return left.length == expectedSecret.bytes.length && timingSafeEqual(left, expectedSecret.bytes);
};

/** One credential of the header: trimmed, without a `Bearer ` prefix. */
const credential = (part: string): string => part.trim().replace(/^Bearer\s+/i, '');

/**
 * The caller named by `authorization`: the bare access token or API key (a `Bearer ` prefix is
 * tolerated). External login sends `<access token>,<api key>`: any API key among the parts makes
 * the caller elevated. An API key or no header is answered at once; an access token is verified
 * asynchronously (a promise): the route's hook stays synchronous for the API key's calls.
 */
export function resolveCaller(
  authorization: string | undefined,
  site: SiteIdentity,
  tokens: TokenService,
  anonymousAllowed: boolean,
): Caller | Promise<Caller> {
  const header = authorization?.trim();
  if (!header) {
    if (anonymousAllowed) return ANONYMOUS;
    throw unauthenticated('Missing Authorization header: send an access token or an API key');
  }
  if (!header.includes(',')) {
    // One credential, as nearly every call sends.
    const single = credential(header);
    return sameSecret(single, site.apiKey) ? ELEVATED : tokens.verify(single);
  }
  const parts = header.split(',').map(credential).filter(Boolean);
  if (parts.some((part) => sameSecret(part, site.apiKey))) return ELEVATED;
  if (parts.length != 1)
    throw unauthenticated('The Authorization header holds several credentials but no valid API key');
  return tokens.verify(parts[0]!);
}
