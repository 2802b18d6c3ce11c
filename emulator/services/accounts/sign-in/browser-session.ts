/**
 * The emulator's own sign-in session in a browser: an HttpOnly cookie on the emulator's origin,
 * set when a member signs in on the hosted page (or a session token is turned into a code there),
 * read by `prompt=none`, ended by the hosted logout page and the logout route. Each site's cookie
 * has its site's path (`/` for the default site, `/_sites/<id>` for the others), so a browser
 * signed in on one site is not signed in on another.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from '../../../service.js';
import { sitePath } from '../../../sites/site-path.js';
import { issueSecret, readSecret, spendSecret, type SecretScope } from '../identity/secrets.js';
import { findMember } from '../members/member-store.js';

/** The cookie's name. */
export const SESSION_COOKIE = 'sitekit_emulator_session';
/** How long a browser stays signed in on the emulator. */
const SESSION_LIFETIME_SECONDS = 7 * 24 * 3600;

/** What a browser session needs of its site: its secrets, and its path (the cookie's). */
type SessionScope = SecretScope & Pick<EmulatorContext, 'url'>;

/** The cookie's attributes: the site's path (a browser sends the most specific path's cookie first). */
const cookieAttributes = (scope: SessionScope, maxAge: number) =>
  `Path=${sitePath(scope) || '/'}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}`;

/** The cookies of a request, by name; of two with one name, the first (the one of the most specific path). */
export function cookiesOf(request: FastifyRequest): Map<string, string> {
  const cookies = new Map<string, string>();
  // Stryker disable next-line StringLiteral: any text without '=' holds no cookie, as no header does.
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    // Stryker disable next-line EqualityOperator: (`<= 0`) a cookie with an empty name is none of ours either.
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    if (cookies.has(name)) continue;
    try {
      cookies.set(name, decodeURIComponent(part.slice(separator + 1).trim()));
    } catch {
      // A cookie that does not decode is not ours.
    }
  }
  return cookies;
}

/** The member signed in on this browser (an approved member with a live session), if any. */
export function signedInMember(scope: SecretScope, request: FastifyRequest): string | undefined {
  const secret = readSecret(scope, 'browser-session', cookiesOf(request).get(SESSION_COOKIE));
  // Stryker disable next-line ConditionalExpression,StringLiteral: a refusal ('unknown'...) has no memberId, which finds no member: the same answer.
  if (typeof secret == 'string') return undefined;
  return findMember(scope.store, secret.memberId)?.status == 'APPROVED' ? secret.memberId : undefined;
}

/** Signs the browser in as `memberId` (a new session cookie). */
export function startBrowserSession(scope: SessionScope, reply: FastifyReply, memberId: string): void {
  const secret = issueSecret(scope, 'browser-session', memberId, SESSION_LIFETIME_SECONDS);
  reply.header(
    'set-cookie',
    `${SESSION_COOKIE}=${encodeURIComponent(secret)}; ${cookieAttributes(scope, SESSION_LIFETIME_SECONDS)}`,
  );
}

/** Signs the browser out: the session ends and the cookie is cleared. */
export function endBrowserSession(scope: SessionScope, request: FastifyRequest, reply: FastifyReply): void {
  const secret = cookiesOf(request).get(SESSION_COOKIE);
  if (secret) spendSecret(scope, 'browser-session', secret);
  reply.header('set-cookie', `${SESSION_COOKIE}=; ${cookieAttributes(scope, 0)}`);
}
