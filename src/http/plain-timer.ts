/**
 * A time limit on a plain `setTimeout`. `setTimeout` cannot wait longer than 2^31 - 1 ms (about
 * 24.8 days): a longer delay would fire at once, in browsers and in Node. `timeoutMs` takes any
 * number, so a longer limit is held to that much.
 */

/** The longest delay `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `onExpire` after `ms` milliseconds (at most {@link MAX_TIMER_MS}), unless the returned function is called first. */
export function startPlainTimer(ms: number, onExpire: () => void): () => void {
  const timer = setTimeout(onExpire, Math.min(ms, MAX_TIMER_MS));
  return () => clearTimeout(timer);
}
