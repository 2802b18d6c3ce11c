/**
 * How many sites' key pairs an emulator makes ahead (`sitePool`, `--site-pool`): its default and
 * its bounds, read by the emulator and by the CLI (which checks the flag without loading the
 * emulator).
 */

/** Key pairs made ahead when none is asked for: the sites of 8 test workers. */
export const DEFAULT_SITE_POOL = 8;

/** The most a pool takes: each pair costs its making (50-800 ms of a core) and about 3 KB kept. */
export const MAX_SITE_POOL = 64;

/** What is wrong with a pool size (`must be a whole number from 0 to 64`), or undefined when it is one. */
export function sitePoolProblem(size: number): string | undefined {
  return Number.isInteger(size) && size >= 0 && size <= MAX_SITE_POOL
    ? undefined
    : `must be a whole number from 0 to ${MAX_SITE_POOL}`;
}
