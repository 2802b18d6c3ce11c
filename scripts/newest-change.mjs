/**
 * How old a build is against its sources: the newest modification time under a file or folder, and
 * from it whether a build is stale. Plain JavaScript, so `npm start`'s prestart (run by `node`) and
 * the TypeScript build checks (the console's, the package tests') share it.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The newest modification time under `path` (a file or a directory tree, node_modules and dot entries aside); 0 when missing. */
export function newestChange(path) {
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

/** What the built console (`dist/console/`) is made from: the console's own files and the SDK source. */
export const consoleSources = ['console', 'src', 'cli/site-types.ts', 'package-lock.json'];

/**
 * Why a build is stale, or `null` when it is current. `outputs` are files every build writes (the
 * oldest of them is the build's age), `sources` what it is built from; both relative to `root`.
 */
export function staleReason(root, outputs, sources) {
  const missing = outputs.find((output) => !existsSync(join(root, output)));
  if (missing) return `${missing} is not built`;
  const builtAt = Math.min(...outputs.map((output) => statSync(join(root, output)).mtimeMs));
  const changed = sources.find((source) => newestChange(join(root, source)) > builtAt);
  return changed ? `${changed} changed since the last build` : null;
}
