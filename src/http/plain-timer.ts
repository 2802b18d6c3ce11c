/**
 * A time limit on a plain `setTimeout`. `setTimeout` cannot wait longer than 2^31 - 1 ms (about
 * 24.8 days): a longer delay fires at once, in browsers and in Node. `timeoutMs` takes any number,
 * so a longer limit waits in steps.
 */

/** The longest delay `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `onExpire` after `ms` milliseconds, unless the returned function is called first. */
export function startPlainTimer(ms: number, onExpire: () => void): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const wait = (left: number): void => {
    timer = left > MAX_TIMER_MS ? setTimeout(() => wait(left - MAX_TIMER_MS), MAX_TIMER_MS) : setTimeout(onExpire, left);
  };
  wait(ms);
  return () => clearTimeout(timer);
}
