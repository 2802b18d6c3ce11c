/**
 * The package tests read `dist/`: this builds it (rollup, not the console) when it is missing or older
 * than what it is built from, once across the test files that ask at the same time. So the first
 * `npm test` on a fresh clone runs them all, as every later run does, and none tests a stale build.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { withBuildLock } from '../../console/scripts/ensure-built.js';
import { staleReason as staleAgainst } from '../../scripts/newest-change.mjs';

const root = resolve(import.meta.dirname, '../..');
/** Written by every build of the package; the oldest of them is the build's age. */
const outputs = ['dist/index.mjs', 'dist/node/index.mjs', 'dist/react.mjs', 'dist/emulator.mjs', 'dist/cli.mjs'];
/** What the package is built from. */
const sources = [
  'src',
  'generated',
  'emulator',
  'cli',
  'rollup.config.mjs',
  'scripts/server-packages.mjs',
  'scripts/sqljs-files.mjs',
  'scripts/fastify-public-types.d.ts',
  'package.json',
  'tsconfig.build.json',
];

/** Why the package needs building, or `null` when `dist/` is current. */
const staleReason = () => staleAgainst(root, outputs, sources);

/** Builds the package into `dist/` unless it is current. */
export async function ensurePackageBuilt(): Promise<void> {
  if (!staleReason()) return;
  await withBuildLock(
    async () => {
      // Another test file may have built it while this one waited for the lock.
      if (!staleReason()) return;
      const rollup = join(root, 'node_modules/rollup/dist/bin/rollup');
      await promisify(execFile)(process.execPath, [rollup, '-c', 'rollup.config.mjs', '--silent'], { cwd: root });
    },
    join(root, 'dist', '.package-build.lock'),
  );
}
