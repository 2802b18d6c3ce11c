/**
 * `CallDeadline`: the call's limit and its attempts' limits. A call whose first attempt's limit
 * ends before the call's runs on one timer until then (a timer started and stopped around each
 * request costs CPU on Node); the limits must still end each at its own time, on the timers'
 * clock alone (a test's fake `setTimeout` without a fake `Date`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AttemptTimeout, CallDeadline, callerAbortError, deadline } from '../../../src/http/deadline.js';
import { AbortedError, TimeoutError } from '../../../src/errors/index.js';

describe('CallDeadline', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('a call answered in its first attempt starts one timer, not two', () => {
    const started = vi.spyOn(globalThis, 'setTimeout');
    const deadline = new CallDeadline(undefined, 60_000, 'op', 30_000);
    const step = deadline.attempt(30_000);
    step.end();
    deadline.finish();
    expect(started).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('the first attempt ends at its limit and the call at its own', async () => {
    const deadline = new CallDeadline(undefined, 60_000, 'op', 30_000);
    const first = deadline.attempt(30_000);
    expect(first.canAbort).toBe(true);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(first.abort.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(first.abort.reason).toBeInstanceOf(AttemptTimeout);
    expect(deadline.abort.aborted).toBe(false);
    first.end();
    const second = deadline.attempt(30_000);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(deadline.abort.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.abort.reason).toBeInstanceOf(TimeoutError);
    expect((deadline.abort.reason as TimeoutError).timeoutMs).toBe(60_000);
    expect(second.abort.aborted).toBe(true);
    second.end();
    deadline.finish();
  });

  it('a first attempt that failed early: the call still ends at its limit, the next attempt at its own', async () => {
    const deadline = new CallDeadline(undefined, 60_000, 'op', 30_000);
    await vi.advanceTimersByTimeAsync(10_000);
    deadline.attempt(30_000).end();
    const second = deadline.attempt(30_000);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(second.abort.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    // 40 s: the second attempt's limit, not the call's.
    expect(second.abort.reason).toBeInstanceOf(AttemptTimeout);
    expect(deadline.abort.aborted).toBe(false);
    second.end();
    await vi.advanceTimersByTimeAsync(19_999);
    expect(deadline.abort.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.abort.reason).toBeInstanceOf(TimeoutError);
    deadline.finish();
  });

  it('finish stops every timer, before and after the first attempt limit', async () => {
    const early = new CallDeadline(undefined, 60_000, 'op', 30_000);
    early.attempt(30_000).end();
    early.finish();
    expect(vi.getTimerCount()).toBe(0);
    const late = new CallDeadline(undefined, 60_000, 'op', 30_000);
    late.attempt(30_000);
    await vi.advanceTimersByTimeAsync(30_000);
    late.finish();
    expect(vi.getTimerCount()).toBe(0);
    expect(late.abort.aborted).toBe(false);
  });

  it('an attempt limit as long as the call limit or longer: each keeps its own timer', async () => {
    const deadline = new CallDeadline(undefined, 30_000, 'op', 30_000);
    const step = deadline.attempt(30_000);
    expect(vi.getTimerCount()).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(deadline.abort.reason).toBeInstanceOf(TimeoutError);
    step.end();
    deadline.finish();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("a caller's abort", () => {
  it('keeps our error, makes a TimeoutError of a timeout signal and an AbortedError of anything else', () => {
    const ours = new TimeoutError(5, { operation: 'getItem' });
    expect(callerAbortError(ours, 'other')).toBe(ours);
    const timeout = new DOMException('signal timed out', 'TimeoutError');
    const timedOut = callerAbortError(timeout, 'getItem');
    expect(timedOut).toBeInstanceOf(TimeoutError);
    expect(timedOut).toMatchObject({ operation: 'getItem', cause: timeout });
    for (const reason of ['stop', null, undefined, new Error('gone')]) {
      const aborted = callerAbortError(reason, 'getItem');
      expect(aborted, String(reason)).toBeInstanceOf(AbortedError);
      expect(aborted, String(reason)).toMatchObject({ operation: 'getItem' });
      expect(aborted.cause, String(reason)).toBe(reason);
    }
  });

  it('ends the call at once when the signal is already aborted, else when it aborts, and is no longer heard after finish', () => {
    const done = new AbortController();
    done.abort('before');
    const early = new CallDeadline(done.signal, 0, 'getItem');
    expect(early.abort.reason).toBeInstanceOf(AbortedError);

    const later = new AbortController();
    const call = new CallDeadline(later.signal, 0, 'getItem');
    expect(call.canAbort).toBe(true);
    expect(call.abort.reason).toBeUndefined();
    const removed = vi.spyOn(later.signal, 'removeEventListener');
    call.finish();
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
    later.abort('after');
    expect(call.abort.reason).toBeUndefined();
    expect(new CallDeadline(undefined, 0, 'getItem').canAbort).toBe(false);
  });
});

describe('deadline (one limit as a plain AbortSignal, for the calls outside the transport)', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('its signal aborts at the limit with a TimeoutError naming the operation; done() stops the timer', async () => {
    const limited = deadline(undefined, 50, 'upload');
    expect(limited.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(50);
    expect(limited.signal.aborted).toBe(true);
    expect(limited.error()).toBeInstanceOf(TimeoutError);
    expect(limited.error()).toMatchObject({ operation: 'upload' });
    const finished = deadline(undefined, 50, 'upload');
    finished.done();
    expect(vi.getTimerCount()).toBe(0);
    expect(finished.signal.aborted).toBe(false);
  });

  it('without a limit it ends only by the caller’s signal, as an AbortedError', () => {
    const caller = new AbortController();
    const open = deadline(caller.signal, undefined);
    expect(vi.getTimerCount()).toBe(0);
    caller.abort();
    expect(open.signal.aborted).toBe(true);
    expect(open.error()).toBeInstanceOf(AbortedError);
  });
});
