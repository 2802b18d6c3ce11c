/**
 * The time limits' timer: a plain `setTimeout`. The package's `node` build swaps this module for
 * `timer.node.ts` (see rollup.config.mjs), whose timers cost less when a server makes many calls.
 */
export { startPlainTimer as startTimer } from './plain-timer.js';
