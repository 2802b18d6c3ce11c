/** `GET/POST /_emulator/clock`: read and move the emulator's time (see `clock.ts`). */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { ClockMove, ClockState } from '../control/api.js';
import { controlRoute } from '../control/register.js';
import type { SiteDirectory } from '../service.js';

export type { ClockState };

/** The clock as the control API answers it. */
export const clockState = (clock: Clock): ClockState => ({ now: clock.iso(), offsetSeconds: clock.offsetSeconds() });

/**
 * Applies a `POST /_emulator/clock` body (validated by its schema: exactly one of them):
 * `{advanceSeconds}` (may be negative), `{set}` (an ISO time or epoch milliseconds) or
 * `{reset: true}` (back to real time).
 */
export function moveClock(clock: Clock, move: ClockMove): ClockState {
  if ('advanceSeconds' in move) clock.advance(move.advanceSeconds);
  else if ('set' in move) clock.set(new Date(move.set));
  else clock.reset();
  return clockState(clock);
}

/** Registers the clock routes (each site has its own clock). */
export function registerClockRoutes(app: FastifyInstance, sites: SiteDirectory): void {
  controlRoute(app, 'getClock', ({ request }) => clockState(sites.of(request).clock));
  controlRoute(app, 'moveClock', ({ body, request }) => moveClock(sites.of(request).clock, body));
}
