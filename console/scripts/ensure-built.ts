/**
 * Builds the console into `dist/console/` when it is missing or older than its sources (the
 * console's own files and the SDK source it is built from), and does nothing otherwise. Run
 * before `npm start` (so a fresh clone serves the console with no extra step) and by the
 * end-to-end tests. A fresh build takes a few seconds; a check of a fresh build, milliseconds.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Where the built console lives, and the file written last by a complete build. */
export const consoleOutputDir = join(root, 'dist', 'console');
const builtIndex = join(consoleOutputDir, 'index.html');

/** What the built console is made from. */
const sources = [join(root, 'console'), join(root, 'src'), join(root, 'package-lock.json')];

/** The newest modification time under `path` (a file or a directory tree). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestChange(join(path, entry)));
  }
  return newest;
}

/** Why the console needs building, or `null` when the build is up to date. */
export function staleReason(): string | null {
  if (!existsSync(builtIndex)) return 'dist/console/ is not built';
  const builtAt = statSync(builtIndex).mtimeMs;
  const changed = sources.find((source) => newestChange(source) > builtAt);
  return changed ? `${changed.slice(root.length + 1)} changed since the last build` : null;
}

/** Builds the console unless the build is up to date; resolves with whether it built. */
export async function ensureConsoleBuilt({ quiet = false } = {}): Promise<boolean> {
  const reason = staleReason();
  if (!reason) return false;
  const started = Date.now();
  if (!quiet) process.stdout.write(`Building the console (${reason})…\n`);
  // Loaded only when a build is needed: checking costs nothing then.
  const { build } = await import('vite');
  await build({ configFile: join(root, 'console', 'vite.config.ts'), logLevel: 'warn' });
  if (!quiet) process.stdout.write(`Console built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  return true;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureConsoleBuilt().catch((error: unknown) => {
    process.stderr.write(`The console could not be built: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
