/**
 * The emulator's clock: real time plus an offset that tests move (`POST /_emulator/clock`), so
 * everything that expires (access tokens, verification and authorization codes, upload and
 * download URLs, redirect and browser sessions) can be made to expire without waiting.
 * Every time the emulator decides or records goes through the clock of its context, never
 * through `Date.now()` or `new Date()` directly.
 */

/** The emulator's time. */
export interface Clock {
  /** Milliseconds since the epoch, as the emulator sees them (real time plus the offset). */
  now(): number;
  /** {@link now} as an ISO 8601 string (the form stored and sent). */
  iso(): string;
  /** {@link now} as a `Date` (for libraries that take one). */
  date(): Date;
  /** How far ahead (or behind, when negative) of real time the emulator is, in seconds. */
  offsetSeconds(): number;
  /** Moves time forward by `seconds` (backward when negative). */
  advance(seconds: number): void;
  /** Makes the emulator's time `time` now; it keeps running from there. */
  set(time: Date): void;
  /** Back to real time. */
  reset(): void;
}

/** A clock at real time; `realNow` is for the clock's own tests. */
// `Date.now()` read at each call (not the function kept), so a test that fakes Date moves the emulator too.
export function createClock(realNow: () => number = () => Date.now()): Clock {
  let offsetMs = 0;
  const now = () => realNow() + offsetMs;
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    date: () => new Date(now()),
    offsetSeconds: () => offsetMs / 1000,
    advance(seconds) {
      offsetMs += seconds * 1000;
    },
    set(time) {
      offsetMs = time.getTime() - realNow();
    },
    reset() {
      offsetMs = 0;
    },
  };
}
