/**
 * `POST /_emulator/clock` bodies applied to a clock (moveClock), each of the three moves, the
 * state the route answers, and the two routes on a bare server, each request on its own site's
 * clock. The routes through the whole emulator are in bench.test.ts.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../../emulator/clock.js';
import { VALIDATOR_OPTIONS } from '../../../emulator/http/schema-validator.js';
import type { EmulatorContext, SiteDirectory } from '../../../emulator/service.js';
import { clockState, moveClock, registerClockRoutes } from '../../../emulator/test-bench/clock-routes.js';

const REAL = Date.parse('2030-05-01T10:00:00.000Z');
const fixedClock = () => createClock(() => REAL);

describe('moveClock', () => {
  it('{advanceSeconds} moves it forward, and backward when negative', () => {
    const clock = fixedClock();
    expect(moveClock(clock, { advanceSeconds: 120 })).toEqual({ now: '2030-05-01T10:02:00.000Z', offsetSeconds: 120 });
    expect(moveClock(clock, { advanceSeconds: -3720 })).toEqual({
      now: '2030-05-01T09:00:00.000Z',
      offsetSeconds: -3600,
    });
  });

  it('{set} takes an ISO time or epoch milliseconds', () => {
    const clock = fixedClock();
    expect(moveClock(clock, { set: '2031-02-03T04:05:06.000Z' })).toEqual({
      now: '2031-02-03T04:05:06.000Z',
      offsetSeconds: (Date.parse('2031-02-03T04:05:06.000Z') - REAL) / 1000,
    });
    const epoch = Date.parse('2029-01-01T00:00:00.000Z');
    expect(moveClock(clock, { set: epoch })).toEqual({
      now: '2029-01-01T00:00:00.000Z',
      offsetSeconds: (epoch - REAL) / 1000,
    });
  });

  it('{reset: true} goes back to real time; clockState reads the clock as it is', () => {
    const clock = fixedClock();
    moveClock(clock, { advanceSeconds: 86_400 });
    expect(clockState(clock)).toEqual({ now: '2030-05-02T10:00:00.000Z', offsetSeconds: 86_400 });
    expect(moveClock(clock, { reset: true })).toEqual({ now: '2030-05-01T10:00:00.000Z', offsetSeconds: 0 });
  });
});

describe('registerClockRoutes', () => {
  it("GET and POST /_emulator/clock read and move the clock of the request's site, and no other", async () => {
    const clocks = { a: fixedClock(), b: fixedClock() };
    const sites: SiteDirectory = {
      of: (request) => ({ clock: clocks[request.headers['x-site'] as 'a' | 'b'] }) as EmulatorContext,
    };
    // The emulator's validator options (its control schema uses keywords strict mode refuses).
    const app = Fastify({ ajv: VALIDATOR_OPTIONS });
    registerClockRoutes(app, sites);
    try {
      const moved = await app.inject({
        method: 'POST',
        url: '/_emulator/clock',
        headers: { 'x-site': 'a' },
        payload: { advanceSeconds: 60 },
      });
      expect([moved.statusCode, moved.json()]).toEqual([200, { now: '2030-05-01T10:01:00.000Z', offsetSeconds: 60 }]);
      const read = async (site: string) =>
        (await app.inject({ method: 'GET', url: '/_emulator/clock', headers: { 'x-site': site } })).json();
      expect(await read('a')).toEqual({ now: '2030-05-01T10:01:00.000Z', offsetSeconds: 60 });
      expect(await read('b')).toEqual({ now: '2030-05-01T10:00:00.000Z', offsetSeconds: 0 });
    } finally {
      await app.close();
    }
  });
});
