/**
 * The platform's rate limit on its own (the limiter of one site), on a clock the test moves to the
 * millisecond: how many calls a minute passes, when the minute ends, the `Retry-After` and the
 * 429 it answers, whom each call counts against, and the emulator's clock (not real time) as its
 * time. The end-to-end path through the server is in test/emulator/test-bench/bench.test.ts.
 */
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../emulator/clock.js';
import type { ConfigStore } from '../../../emulator/config.js';
import { EmulatorError } from '../../../emulator/errors.js';
import { createRateLimiter } from '../../../emulator/http/rate-limit.js';
import type { Caller } from '../../../emulator/service.js';

const SITE_CLIENT = 'site-client';
const visitor = (visitorId: string, clientId?: string): Caller => ({
  kind: 'visitor',
  visitorId,
  clientId,
  authenticated: true,
});
const member = (memberId: string): Caller => ({
  kind: 'member',
  memberId,
  visitorId: `v-${memberId}`,
  clientId: SITE_CLIENT,
  authenticated: true,
});
const apiKey: Caller = { kind: 'elevated', authenticated: true };
const noToken: Caller = { kind: 'visitor', authenticated: false };

/** A limiter of `limitPerMinute` on a clock whose real time stands still (so only `advance` moves it), far from today's. */
function limiter(limitPerMinute: number) {
  const settings = { rateLimitPerMinute: limitPerMinute };
  const config = { get: (key: string) => settings[key as keyof typeof settings] } as ConfigStore;
  const clock = createClock(() => Date.parse('2020-01-01T00:00:00.000Z'));
  const limit = createRateLimiter(config, clock, SITE_CLIENT);
  /** Counts one call of `caller`: its refusal (status, code, data, `Retry-After`), or undefined when it passes. */
  const call = (caller: Caller) => {
    const headers: Record<string, string> = {};
    const reply = { header: (name: string, value: string) => void (headers[name] = value) } as unknown as FastifyReply;
    try {
      limit.check(caller, reply);
      // A call that passes gets no header.
      return Object.keys(headers).length ? { passedWith: headers } : undefined;
    } catch (error) {
      if (!(error instanceof EmulatorError)) throw error;
      const { applicationError } = error.body.details as {
        applicationError: { code: string; data: Record<string, unknown> };
      };
      return {
        status: error.status,
        message: error.message,
        code: applicationError.code,
        ...applicationError.data,
        retryAfter: headers['retry-after'],
      };
    }
  };
  /** Whether each of `count` calls of `caller` passed. */
  const calls = (caller: Caller, count: number) => Array.from({ length: count }, () => call(caller) === undefined);
  return { call, calls, clock, settings };
}

describe('createRateLimiter', () => {
  it('passes rateLimitPerMinute calls a minute, then answers 429 TOO_MANY_REQUESTS with the time left of the minute', () => {
    const { call, calls, clock } = limiter(3);
    expect(calls(apiKey, 3)).toEqual([true, true, true]);
    clock.advance(45.6);
    // 14.4 s left: a whole number of seconds, rounded up.
    expect(call(apiKey)).toEqual({
      status: 429,
      message: 'Rate limit exceeded: more than 3 requests per minute from this caller; retry after 15 s',
      code: 'TOO_MANY_REQUESTS',
      limitPerMinute: 3,
      retryAfterSeconds: 15,
      retryAfter: '15',
    });
  });

  it('the minute ends exactly 60 s after its first call, by the emulator clock', () => {
    const { call, calls, clock } = limiter(1);
    expect(calls(apiKey, 1)).toEqual([true]);
    clock.advance(59.999);
    expect(call(apiKey)).toMatchObject({ retryAfterSeconds: 1, retryAfter: '1' });
    clock.advance(0.001);
    expect(calls(apiKey, 2)).toEqual([true, false]);
    // The refused calls counted in their minute; the new minute started at its first call.
    clock.advance(59);
    expect(call(apiKey)).toMatchObject({ retryAfterSeconds: 1 });
  });

  it('a clock moved back starts a new minute rather than waiting for one that starts later', () => {
    const { call, calls, clock } = limiter(1);
    expect(calls(apiKey, 1)).toEqual([true]);
    clock.advance(-3600);
    expect(calls(apiKey, 2)).toEqual([true, false]);
    expect(call(apiKey)).toMatchObject({ retryAfterSeconds: 60 });
  });

  it('0 turns the limit off, read at each call', () => {
    const { calls, settings } = limiter(0);
    expect(calls(apiKey, 500).every(Boolean)).toBe(true);
    settings.rateLimitPerMinute = 2;
    expect(calls(apiKey, 3)).toEqual([true, true, false]);
    settings.rateLimitPerMinute = 0;
    expect(calls(apiKey, 1)).toEqual([true]);
  });

  it('counts against the API key, each member, and the OAuth client of anonymous callers (every visitor of a client together)', () => {
    const { calls } = limiter(2);
    // Visitors of the site's client and calls without a token share the client's minute.
    expect([...calls(visitor('v1', SITE_CLIENT), 1), ...calls(noToken, 1), ...calls(visitor('v2'), 1)]).toEqual([
      true,
      true,
      false,
    ]);
    // Each of the others has its own.
    expect(calls(apiKey, 3)).toEqual([true, true, false]);
    expect(calls(member('ada'), 3)).toEqual([true, true, false]);
    expect(calls(member('bob'), 2)).toEqual([true, true]);
    expect(calls(visitor('v3', 'another-client'), 2)).toEqual([true, true]);
  });

  it('with more callers than it keeps, a caller past its limit stays limited until its minute ends', () => {
    const { call, calls, clock } = limiter(1);
    expect(calls(member('busy'), 2)).toEqual([true, false]);
    clock.advance(30);
    // Past 10,000 callers, the limiter drops the minutes that ended: not the running ones.
    for (let index = 0; index <= 10_001; index++) call(member(`m${index}`));
    expect(call(member('busy'))).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    clock.advance(30);
    expect(calls(member('busy'), 1)).toEqual([true]);
  });
});
