/**
 * CORS for browser apps: the answers @fastify/cors gave with the emulator's options (an origin
 * decided per request, credentials, exposed headers, preflights cached 600 s, strict preflights),
 * given from the emulator's own `onRequest` hook. The plugin spread its whole options object and
 * built two route-option objects and two closures on every request, whatever it answered; its
 * hook was the largest per-request cost after the route's own work.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The headers a browser app may read from an answer. */
const EXPOSED_HEADERS = 'x-wix-request-id, x-wix-consistent, retry-after';
/**
 * The methods a preflight allows: every method of the platform's routes and the emulator's own
 * (uploads `PUT`, resumable uploads `PATCH`, item and member updates `PATCH`, removals `DELETE`).
 * @fastify/cors's default (`GET,HEAD,POST`) failed every other write of a browser app on another
 * port before it was sent.
 */
const PREFLIGHT_METHODS = 'GET,HEAD,POST,PUT,PATCH,DELETE';
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Adds the CORS headers to a request's answer and answers a preflight (`OPTIONS` with an allowed
 * `Origin`): true when it answered, and the request goes no further. `allowed` decides an
 * `Origin`; a request without one is not a browser's cross-origin call. A refused origin gets no
 * CORS header (the browser then keeps the answer from the page); its preflight goes on to the
 * `OPTIONS` route of {@link registerPreflightRoute}, a 404.
 */
export function answerCors(
  request: FastifyRequest,
  reply: FastifyReply,
  allowed: (origin: string) => boolean,
): boolean {
  // The answer depends on the origin: a cache must not give one origin's answer to another.
  reply.header('vary', 'Origin');
  const { origin } = request.headers;
  if (origin !== undefined && !allowed(origin)) return false;
  if (origin) reply.header('access-control-allow-origin', origin);
  reply.header('access-control-allow-credentials', 'true');
  reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  if (request.raw.method !== 'OPTIONS') return false;
  if (!origin || !request.headers['access-control-request-method']) {
    // A string is sent as text/plain.
    reply.status(400).send('Invalid Preflight Request');
    // Stryker disable next-line BooleanLiteral: the answer is sent; going on, Fastify refuses a second one (the caller sees the same).
    return true;
  }
  reply.header('access-control-allow-methods', PREFLIGHT_METHODS);
  reply.header('vary', 'Origin, Access-Control-Request-Headers');
  const requestedHeaders = request.headers['access-control-request-headers'];
  if (requestedHeaders !== undefined) reply.header('access-control-allow-headers', requestedHeaders);
  reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
  // Content-Length 0: Safari waits for a body on a 204 without it.
  reply.code(204).header('content-length', '0').send();
  // Stryker disable next-line BooleanLiteral: the answer is sent; going on, Fastify refuses a second one (the caller sees the same).
  return true;
}

// Stryker disable all: without the route, Fastify answers an OPTIONS the same 404 (its not-found
// handler); the route says so where the CORS rules are.
/**
 * Makes every path accept `OPTIONS`: a preflight {@link answerCors} did not answer (a refused
 * origin) is a 404, as an unknown path is.
 */
export function registerPreflightRoute(app: FastifyInstance): void {
  app.options('*', (_request, reply) => reply.callNotFound());
}
// Stryker restore all
