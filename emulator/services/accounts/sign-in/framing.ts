/**
 * Who may frame the hosted pages (clickjacking): nobody, but for the silent sign-in (`prompt=none`),
 * which the client's own pages load in a hidden iframe: those may, and only those (the origins the
 * demo OAuth client allows: any port of localhost, 127.0.0.1 and [::1], the emulator, and the
 * `allowedRedirectOrigins` setting).
 */
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { EmulatorContext, SiteDirectory } from '../../../service.js';
import { findRedirectSession } from './redirect-sessions.js';

/** The CSP sources of the origins the client allows (see `redirect-uris.ts`, which decides the same for redirects). */
function clientOriginSources(context: EmulatorContext): string[] {
  // No `[::1]`: CSP's host sources cannot name an IPv6 address (Chromium reports the policy as an
  // error on every silent sign-in); a page at [::1] cannot frame the silent page, one at localhost can.
  const loopback = ['localhost', '127.0.0.1'].flatMap((host) => [`http://${host}:*`, `https://${host}:*`]);
  const configured = context.config.get<string[]>('allowedRedirectOrigins').map((origin) => origin.replace(/\/+$/, ''));
  return ["'self'", ...loopback, ...configured];
}

/** Whether the request is for the page of a silent (`prompt=none`) sign-in. */
function isSilentSignIn(context: EmulatorContext, request: FastifyRequest): boolean {
  if (request.routeOptions.url != '/_pages/auth/:id') return false;
  const session = findRedirectSession(context, (request.params as { id: string }).id);
  return session?.kind == 'auth' && session.prompt == 'none';
}

/**
 * Sets the framing headers on every answer of the hosted pages (`/_pages/...`): a hook of those
 * routes only, added to each as it is registered (their HEAD twins included), where a hook of every
 * answer asked each one for its route pattern. Call it before the pages' routes are registered.
 */
export function registerFramingPolicy(app: FastifyInstance, sites: SiteDirectory): void {
  const setFramingHeaders: onSendHookHandler = (request, reply, payload, done) => {
    const context = sites.of(request);
    const silent = isSilentSignIn(context, request);
    const directive = `frame-ancestors ${silent ? clientOriginSources(context).join(' ') : "'none'"}`;
    // Added to a policy the page may already have, never replacing it.
    const existing = reply.getHeader('content-security-policy');
    reply.header('content-security-policy', existing ? `${String(existing)}; ${directive}` : directive);
    // For browsers that predate frame-ancestors (it cannot list origins, so the silent page goes without).
    if (!silent) reply.header('x-frame-options', 'DENY');
    done(null, payload);
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/_pages/')) return;
    const own = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
    route.onSend = [...own, setFramingHeaders];
  });
}
