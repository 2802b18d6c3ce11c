/**
 * The time limits' timer: `setTimeout`. The package's `node` build swaps this module for
 * `timer.node.ts` (see rollup.config.mjs), whose timers cost less when a server makes many calls.
 */

/** Calls `onExpire` after `ms` milliseconds, unless the returned function is called first. */
export function startTimer(ms: number, onExpire: () => void): () => void {
  const timer = setTimeout(onExpire, ms);
  return () => clearTimeout(timer);
}
