/**
 * Builds the console into `dist/console/` when it is missing or older than its sources (the
 * console's own files and the SDK source it is built from), and does nothing otherwise. Run
 * before `npm start` (so a fresh clone serves the console with no extra step) and by the
 * end-to-end tests. A fresh build takes a few seconds; a check of a fresh build, milliseconds.
 */
import { closeSync, existsSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleSources, staleReason as staleAgainst } from '../../scripts/newest-change.mjs';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where the built console lives. */
export const consoleOutputDir = join(root, 'dist', 'console');

/** Why the console needs building, or `null` when the build is up to date (index.html is written last). */
export function staleReason(): string | null {
  return staleAgainst(root, ['dist/console/index.html'], consoleSources);
}

/** Held while a build runs: the end-to-end test files run in parallel, and each may ask for one. */
const consoleBuildLock = join(root, 'dist', '.console-build.lock');
/** A lock older than this belongs to a build that died without removing it. */
const abandonedLockMs = 120_000;

/** Runs `work` while holding the build lock, waiting for another process's build to finish first. */
export async function withBuildLock<T>(work: () => Promise<T>, buildLock = consoleBuildLock): Promise<T> {
  mkdirSync(dirname(buildLock), { recursive: true });
  for (;;) {
    try {
      closeSync(openSync(buildLock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const heldSince = existsSync(buildLock) ? statSync(buildLock).mtimeMs : Date.now();
      if (Date.now() - heldSince > abandonedLockMs) rmSync(buildLock, { force: true });
      else await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(buildLock, { force: true });
  }
}

/** Builds the console unless the build is up to date; resolves with whether it built. */
export async function ensureConsoleBuilt({ quiet = false } = {}): Promise<boolean> {
  if (!staleReason()) return false;
  return withBuildLock(async () => {
    // Another process may have built it while this one waited for the lock.
    const reason = staleReason();
    if (!reason) return false;
    const started = Date.now();
    if (!quiet) process.stdout.write(`Building the console (${reason})…\n`);
    // Loaded only when a build is needed: checking costs nothing then.
    const { build } = await import('vite');
    // The console that ships, whoever asks: under vitest NODE_ENV is "test", and Vite would then
    // bundle the development builds of React and TanStack Query.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: join(root, 'console', 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    if (!quiet) process.stdout.write(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
    return true;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureConsoleBuilt().catch((error: unknown) => {
    process.stderr.write(`The console could not be built: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
