/**
 * The time limits' timer in the package's `node` build (swapped in for `timer.ts` by
 * rollup.config.mjs). Every call has a time limit and so does each attempt, and nearly all of
 * them end long before it: on Node, a `setTimeout` and `clearTimeout` per limit is a good part of
 * the client's own work per call (a timer object, Node's per-duration list, often its priority
 * queue). Limits of one duration expire in the order they start, so they wait in one linked list
 * of their own under a single Node timer set for the oldest; starting and cancelling a limit is
 * then only linking and unlinking. (undici keeps its own timers for its time limits, for the
 * same reason.)
 */

import { performance as nodePerformance } from 'node:perf_hooks';
import { setTimeout as nodeSetTimeout } from 'node:timers';
import { MAX_TIMER_MS, startPlainTimer } from './plain-timer.js';

/**
 * Whether the global clock is Node's own. Test tools (vitest's and Jest's fake timers) replace the
 * global `setTimeout` and `performance`, often only some of them: the lists, which read one and
 * wait on the other, are used only when both are Node's, and limits are then plain timers on
 * whatever clock the test installed, as a user testing a time limit expects.
 */
const onNodeClock = (): boolean =>
  (globalThis.setTimeout as unknown) === nodeSetTimeout && (globalThis.performance as unknown) === nodePerformance;

/** What the lists wait on and read: Node's clock, or a test's. */
export interface Clock {
  setTimeout(callback: () => void, ms: number): { ref(): unknown; unref(): unknown };
  now(): number;
}

/** One pending limit of a list. */
interface Pending {
  readonly deadline: number;
  readonly onExpire: () => void;
  previous: Pending | undefined;
  next: Pending | undefined;
  /** False once expired or cancelled. */
  linked: boolean;
}

/** The pending limits of one duration, oldest first, and the Node timer of the oldest. */
class TimerList {
  private oldest: Pending | undefined;
  private newest: Pending | undefined;
  private timer: ReturnType<Clock['setTimeout']> | undefined;
  /** True while expired limits' callbacks run: a limit they start waits for the timer set after them. */
  private expiring = false;

  constructor(
    private readonly ms: number,
    private readonly clock: Clock,
  ) {}

  add(onExpire: () => void): Pending {
    const pending: Pending = {
      deadline: this.clock.now() + this.ms,
      onExpire,
      previous: this.newest,
      next: undefined,
      linked: true,
    };
    if (this.newest) this.newest.next = pending;
    else this.oldest = pending;
    this.newest = pending;
    // A timer left from earlier limits fires no later than this one's end (same duration, started
    // earlier); when it fires it sets itself again for whatever is still pending.
    if (this.timer) this.timer.ref();
    else if (!this.expiring) this.timer = this.clock.setTimeout(() => this.expire(), this.ms);
    return pending;
  }

  remove(pending: Pending): void {
    if (!pending.linked) return;
    pending.linked = false;
    if (pending.previous) pending.previous.next = pending.next;
    else this.oldest = pending.next;
    if (pending.next) pending.next.previous = pending.previous;
    else this.newest = pending.previous;
    pending.previous = pending.next = undefined;
    // Nothing pending: the timer stays set (it is cheaper than setting a new one for the next
    // call) but no longer keeps the process alive.
    if (!this.oldest) this.timer?.unref();
  }

  /** Ends every limit whose time has come, then waits for the oldest of the rest. */
  private expire(): void {
    this.timer = undefined;
    const now = this.clock.now();
    this.expiring = true;
    try {
      while (this.oldest && this.oldest.deadline <= now) {
        const pending = this.oldest;
        this.remove(pending);
        pending.onExpire();
      }
    } finally {
      // (Also after a callback threw: the rest of the list still expires.)
      this.expiring = false;
      if (this.oldest)
        this.timer = this.clock.setTimeout(() => this.expire(), Math.max(1, Math.ceil(this.oldest.deadline - now)));
    }
  }
}

/**
 * A `startTimer` on `clock`: one list per duration in use; durations past this many (per-call
 * limits that all differ), and limits longer than a Node timer can wait, use plain timers.
 * @internal Exported for tests, which drive the lists on a fake clock.
 */
export function timerLists(clock: Clock): (ms: number, onExpire: () => void) => () => void {
  const lists = new Map<number, TimerList>();
  return (ms, onExpire) => {
    let list = lists.get(ms);
    if (!list) {
      if (lists.size >= MAX_LISTS || ms > MAX_TIMER_MS) return startPlainTimer(ms, onExpire);
      lists.set(ms, (list = new TimerList(ms, clock)));
    }
    const pending = list.add(onExpire);
    return () => list.remove(pending);
  };
}
const MAX_LISTS = 16;

const startOnNodeClock = timerLists({ setTimeout: nodeSetTimeout, now: () => nodePerformance.now() });

/** Calls `onExpire` after `ms` milliseconds, unless the returned function is called first. */
export const startTimer = (ms: number, onExpire: () => void): (() => void) =>
  onNodeClock() ? startOnNodeClock(ms, onExpire) : startPlainTimer(ms, onExpire);
