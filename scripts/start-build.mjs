/**
 * `npm start`'s prestart: builds what `npm start` runs when it is missing or older than its
 * sources, and does nothing else. `npm start` then runs the built CLI (`node dist/cli.mjs`), with
 * no TypeScript compile at start.
 * - The emulator (`dist/cli.mjs`, `dist/emulator.mjs` and their chunks): rebuilt by rollup (the
 *   emulator's part of rollup.config.mjs) when any file under emulator/, cli/, src/ or generated/, or
 *   the package or rollup configuration (or its plugins in scripts/), is newer than `dist/cli.mjs`.
 * - The console (`dist/console/`): rebuilt by console/scripts/ensure-built.ts when stale.
 * Plain JavaScript run by `node`: the check when nothing is stale costs a few milliseconds of
 * file times, which `npm start` pays on every start.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { consoleSources, staleReason } from './newest-change.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Runs a command in the repository, inheriting the terminal; exits with its status when it fails. */
function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const emulatorSources = [
  'emulator',
  'cli',
  'src',
  'generated',
  'package.json',
  'package-lock.json',
  'rollup.config.mjs',
  // The build's plugins that bundle the server packages and copy the wasm engine's files.
  'scripts/server-packages.mjs',
  'scripts/sqljs-files.mjs',
];
const emulatorStale = staleReason(root, ['dist/cli.mjs'], emulatorSources);
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

// The same check as console/scripts/ensure-built.ts makes (which only runs, through tsx, when needed).
if (staleReason(root, ['dist/console/index.html'], consoleSources)) {
  run(process.execPath, ['--import', 'tsx', join(root, 'console', 'scripts', 'ensure-built.ts')]);
}
