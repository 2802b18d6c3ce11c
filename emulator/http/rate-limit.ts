/**
 * The platform's rate limit (config `rateLimitPerMinute`, off at 0): each caller gets that many
 * requests per minute of the emulator's clock; past it, 429 with `Retry-After` until the minute ends.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import type { ConfigStore } from '../config.js';
import { applicationError } from '../errors.js';
import type { Caller } from '../service.js';

/** One caller's current minute. */
interface Window {
  startedAt: number;
  count: number;
}

const MINUTE_MS = 60_000;
/** Above this many callers, windows that have ended are dropped. */
const PRUNE_ABOVE = 10_000;

/** Who a limit counts against: the member, the visitor, the API key, or the address of an anonymous call. */
function callerKey(caller: Caller, request: FastifyRequest): string {
  if (caller.kind == 'elevated') return 'elevated';
  if (caller.memberId) return `member:${caller.memberId}`;
  if (caller.visitorId) return `visitor:${caller.visitorId}`;
  return `address:${request.ip}`;
}

/** The limiter of one emulator: `check` counts a call and throws the 429 once its caller is past the limit. */
export function createRateLimiter(config: ConfigStore, clock: Clock) {
  const windows = new Map<string, Window>();
  return {
    check(caller: Caller, request: FastifyRequest, reply: FastifyReply): void {
      const limit = config.get<number>('rateLimitPerMinute');
      if (!limit) return;
      const now = clock.now();
      const key = callerKey(caller, request);
      let window = windows.get(key);
      if (!window || now - window.startedAt >= MINUTE_MS || now < window.startedAt) {
        if (windows.size > PRUNE_ABOVE)
          for (const [other, old] of windows) if (now - old.startedAt >= MINUTE_MS) windows.delete(other);
        window = { startedAt: now, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      if (window.count <= limit) return;
      const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + MINUTE_MS - now) / 1000));
      reply.header('retry-after', String(retryAfterSeconds));
      throw applicationError(
        429,
        'TOO_MANY_REQUESTS',
        `Rate limit exceeded: more than ${limit} requests per minute from this caller; retry after ${retryAfterSeconds} s`,
        { limitPerMinute: limit, retryAfterSeconds },
      );
    },
  };
}
