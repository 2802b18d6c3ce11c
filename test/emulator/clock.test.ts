/**
 * The emulator's clock on its own: real time plus an offset, in the units its callers use
 * (milliseconds for `now`, seconds for `advance` and `offsetSeconds`), every form of the time
 * (`now`, `iso`, `date`) from the same moved time, and the real time read at each call.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClock } from '../../emulator/clock.js';

/** A real time the test moves by hand. */
function realTime(start = Date.parse('2030-05-01T10:00:00.000Z')) {
  let now = start;
  return { now: () => now, pass: (ms: number) => void (now += ms) };
}

afterEach(() => vi.useRealTimers());

describe('createClock', () => {
  it('starts at real time, and advance() moves every form of the time by seconds', () => {
    const real = realTime();
    const clock = createClock(real.now);
    expect([clock.now(), clock.offsetSeconds()]).toEqual([real.now(), 0]);
    clock.advance(90);
    expect(clock.now()).toBe(real.now() + 90_000);
    expect(clock.offsetSeconds()).toBe(90);
    expect(clock.iso()).toBe('2030-05-01T10:01:30.000Z');
    expect(clock.date().toISOString()).toBe('2030-05-01T10:01:30.000Z');
    // It keeps running with real time.
    real.pass(2_500);
    expect(clock.iso()).toBe('2030-05-01T10:01:32.500Z');
    expect(clock.offsetSeconds()).toBe(90);
  });

  it('advance() adds up and goes backward with a negative number of seconds', () => {
    const real = realTime();
    const clock = createClock(real.now);
    clock.advance(3600);
    clock.advance(-5400);
    expect(clock.offsetSeconds()).toBe(-1800);
    expect(clock.iso()).toBe('2030-05-01T09:30:00.000Z');
    clock.advance(0.25);
    expect(clock.now()).toBe(real.now() - 1_800_000 + 250);
  });

  it('set() makes the time the one given, which then runs on; reset() goes back to real time', () => {
    const real = realTime();
    const clock = createClock(real.now);
    clock.advance(10);
    clock.set(new Date('2031-01-01T00:00:00.000Z'));
    expect(clock.iso()).toBe('2031-01-01T00:00:00.000Z');
    expect(clock.offsetSeconds()).toBe((Date.parse('2031-01-01T00:00:00.000Z') - real.now()) / 1000);
    real.pass(1_000);
    expect(clock.date().getTime()).toBe(Date.parse('2031-01-01T00:00:01.000Z'));
    clock.set(new Date('2029-12-31T23:59:59.000Z'));
    expect(clock.offsetSeconds()).toBeLessThan(0);
    clock.reset();
    expect([clock.now(), clock.offsetSeconds()]).toEqual([real.now(), 0]);
  });

  it('without a real-time source it reads Date.now() at each call, so a test that fakes Date later moves it too', () => {
    // Made before Date is faked, as an emulator started in a test's beforeAll is.
    const clock = createClock();
    clock.advance(60);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2040-02-02T02:02:02.000Z'));
    expect(clock.iso()).toBe('2040-02-02T02:03:02.000Z');
    vi.setSystemTime(new Date('2041-03-03T03:03:03.000Z'));
    expect(clock.iso()).toBe('2041-03-03T03:04:03.000Z');
  });
});
