/**
 * The time limits' timer: a plain `setTimeout`, in every build. (The node build had its own, the
 * limits of one duration in one list under a single Node timer; measured, it saved about 60 ns of
 * a call's 80 µs of CPU: Node keeps its timers of one duration in one list already.)
 * `setTimeout` cannot wait longer than 2^31 - 1 ms (about 24.8 days): a longer delay would fire at
 * once, in browsers and in Node. `timeoutMs` takes any number, so a longer limit is held to that much.
 */

/** The longest delay `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `onExpire` after `ms` milliseconds (at most {@link MAX_TIMER_MS}), unless the returned function is called first. */
export function startTimer(ms: number, onExpire: () => void): () => void {
  const timer = setTimeout(onExpire, Math.min(ms, MAX_TIMER_MS));
  return () => clearTimeout(timer);
}
