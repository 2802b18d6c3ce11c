/**
 * What the request log records of one request, read off Fastify's request at its end (or, for a
 * dropped connection, when the test bench drops it): facts and references, written out when read.
 */
import type { FastifyRequest } from 'fastify';
import { resolveCaller } from '../auth/caller.js';
import type { Caller, EmulatorContext } from '../service.js';
import { loggedBody } from './logged-bodies.js';
import type { RequestRecord } from './request-log.js';

/** What the request log records of a request answered with `status` after `elapsedMs`. */
export function requestRecord(request: FastifyRequest, status: number, elapsedMs: number): RequestRecord {
  const contentLength = request.headers['content-length'];
  return {
    requestId: request.id,
    receivedAt: Date.now() - elapsedMs,
    method: request.method,
    url: request.url,
    operationId: request.operationId,
    status,
    durationMs: elapsedMs,
    caller: request.caller,
    decisions: request.decisions,
    faultId: request.faultId,
    faultAnswered: request.faultAnswered,
    // Written out once, secrets redacted and size bounded, so reading the log costs nothing more.
    requestBody: loggedBody(request.body, contentLength === undefined ? undefined : Number(contentLength) || undefined),
    responseBody: loggedBody(request.responsePayload),
  };
}

/**
 * Who made a request, for its log line only: the caller its credentials name, anonymous without
 * any, undefined when they name no one (an expired token: the log says so by saying nothing).
 */
export function callerForLog(
  request: FastifyRequest,
  context: EmulatorContext,
): Caller | Promise<Caller | undefined> | undefined {
  try {
    const caller = resolveCaller(request.headers.authorization, context.site, context.tokens, true);
    return caller instanceof Promise ? caller.catch(() => undefined) : caller;
  } catch {
    return undefined;
  }
}
