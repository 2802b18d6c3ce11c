/**
 * The platform's rate limit (config `rateLimitPerMinute`, off at 0): each caller (the API key, a
 * member, the anonymous callers of a client) gets that many requests per minute of the emulator's
 * clock; past it, 429 with `Retry-After` until the minute ends.
 */
import type { FastifyReply } from 'fastify';
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

/**
 * Who a limit counts against: the API key, the member, or, for anonymous callers (visitors, and
 * calls without a token: the token grants themselves), the OAuth client they call through, as the
 * platform counts them. Counted per visitor, a caller multiplied its limit by minting visitor
 * tokens (each anonymous grant is a new visitor).
 */
function callerKey(caller: Caller, siteClientId: string): string {
  // Stryker disable next-line StringLiteral: any key no member or client key can take ('' too) counts the API key apart
  if (caller.kind == 'elevated') return 'elevated';
  if (caller.memberId) return `member:${caller.memberId}`;
  return `client:${caller.clientId ?? siteClientId}`;
}

/** Counts calls against the limit. */
export interface RateLimiter {
  /** Counts a call of `caller`; throws the 429 (with `Retry-After` on `reply`) once it is past the limit. */
  check(caller: Caller, reply: FastifyReply): void;
}

/**
 * The limiter of one site: `check` counts a call and throws the 429 once its caller is past the
 * limit. `siteClientId`: the site's OAuth client, which calls without a token count against.
 */
export function createRateLimiter(config: ConfigStore, clock: Clock, siteClientId: string): RateLimiter {
  const windows = new Map<string, Window>();
  return {
    check(caller: Caller, reply: FastifyReply): void {
      const limit = config.get<number>('rateLimitPerMinute');
      if (!limit) return;
      const now = clock.now();
      const key = callerKey(caller, siteClientId);
      let window = windows.get(key);
      if (!window || now - window.startedAt >= MINUTE_MS || now < window.startedAt) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: pruning only frees memory (a minute that ended is replaced at its caller's next call either way)
        if (windows.size > PRUNE_ABOVE)
          // Stryker disable next-line EqualityOperator: as above (a minute that ended at exactly now is replaced just the same)
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
