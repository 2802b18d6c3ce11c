/**
 * `npm start`'s prestart: builds what `npm start` runs when it is missing or older than its
 * sources, and does nothing else. `npm start` then runs the built CLI (`node dist/cli.mjs`), with
 * no TypeScript compile at start.
 * - The emulator (`dist/cli.mjs`, `dist/emulator.mjs` and their chunks): rebuilt by rollup (the
 *   emulator's part of rollup.config.mjs) when any file under emulator/, src/ or generated/, or
 *   the package or rollup configuration, is newer than `dist/cli.mjs`.
 * - The console (`dist/console/`): rebuilt by console/scripts/ensure-built.ts when stale.
 * Plain JavaScript run by `node`: the check when nothing is stale costs a few milliseconds of
 * file times, which `npm start` pays on every start.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestChange } from './newest-change.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Why `built` is stale against `sources`, or null when it is up to date. */
function staleReason(built, sources) {
  if (!existsSync(join(root, built))) return `${built} is not built`;
  const builtAt = statSync(join(root, built)).mtimeMs;
  const changed = sources.find((source) => newestChange(join(root, source)) > builtAt);
  return changed ? `${changed} changed since the last build` : null;
}

/** Runs a command in the repository, inheriting the terminal; exits with its status when it fails. */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const emulatorSources = ['emulator', 'src', 'generated', 'package.json', 'package-lock.json', 'rollup.config.mjs'];
const emulatorStale = staleReason('dist/cli.mjs', emulatorSources);
if (emulatorStale) {
  const started = Date.now();
  process.stdout.write(`Building the emulator (${emulatorStale})…\n`);
  // Only the emulator's part of the package build (rollup.config.mjs): the SDK's builds and type
  // declarations are not what `npm start` runs.
  const { rollup } = await import('rollup');
  const { default: configs } = await import('../rollup.config.mjs');
  const config = configs.find((candidate) => typeof candidate.input == 'object' && 'cli' in candidate.input);
  const bundle = await rollup({ ...config, onwarn: () => {} });
  for (const output of [config.output].flat()) await bundle.write(output);
  await bundle.close();
  process.stdout.write(`Emulator built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}

// The same sources as console/scripts/ensure-built.ts checks (which only runs, through tsx, when needed).
if (staleReason('dist/console/index.html', ['console', 'src', 'package-lock.json'])) {
  run(process.execPath, ['--import', 'tsx', join(root, 'console', 'scripts', 'ensure-built.ts')]);
}
