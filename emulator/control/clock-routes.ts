/** `GET/POST /_emulator/clock`: read and move the emulator's time (see `clock.ts`). */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import { invalidField } from '../errors.js';
import { isRecord } from '../untrusted-json.js';

/** The answer of both routes. */
export interface ClockState {
  /** The emulator's time, ISO 8601. */
  now: string;
  /** How far it is from real time, in seconds (negative when behind). */
  offsetSeconds: number;
}

/** The clock as the control API answers it. */
export const clockState = (clock: Clock): ClockState => ({ now: clock.iso(), offsetSeconds: clock.offsetSeconds() });

/**
 * Applies a `POST /_emulator/clock` body: `{advanceSeconds}` (may be negative), `{set}` (an ISO
 * time or epoch milliseconds) or `{reset: true}` (back to real time); exactly one of them.
 */
export function moveClock(clock: Clock, body: unknown): ClockState {
  if (!isRecord(body)) throw invalidField('request', 'must be an object with advanceSeconds, set or reset');
  const given = ['advanceSeconds', 'set', 'reset'].filter((key) => body[key] !== undefined);
  if (given.length != 1) throw invalidField('request', 'must hold exactly one of advanceSeconds, set and reset');
  if (body.advanceSeconds !== undefined) {
    if (typeof body.advanceSeconds != 'number' || !Number.isFinite(body.advanceSeconds))
      throw invalidField('advanceSeconds', 'must be a number of seconds');
    clock.advance(body.advanceSeconds);
  } else if (body.set !== undefined) {
    const time = typeof body.set == 'string' || typeof body.set == 'number' ? new Date(body.set) : undefined;
    if (!time || Number.isNaN(time.getTime()))
      throw invalidField('set', 'must be an ISO 8601 time or epoch milliseconds', 'FORMAT');
    clock.set(time);
  } else {
    if (body.reset !== true) throw invalidField('reset', 'must be true');
    clock.reset();
  }
  return clockState(clock);
}

/** Registers the clock routes. */
export function registerClockRoutes(app: FastifyInstance, clock: Clock): void {
  app.get('/_emulator/clock', async () => clockState(clock));
  app.post('/_emulator/clock', async (request) => moveClock(clock, request.body));
}
