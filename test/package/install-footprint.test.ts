/**
 * What an SDK-only install costs: the packed package carries no source maps (the built code is not
 * minified, so it reads as written) and no CommonJS build of the command (`bin` is ESM), which keeps
 * it small enough that an app installing it (with jose and tus-js-client) stays under 8 MB of
 * node_modules. Reads dist/ (built first when missing or stale: `built-package.ts`).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from './built-package.js';

const root = resolve(import.meta.dirname, '../..');
let packed: { files: { path: string }[]; unpackedSize: number };

beforeAll(async () => {
  await ensurePackageBuilt();
  // A dry run of what `npm pack` puts in the tarball, without rebuilding (prepack) first.
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  [packed] = JSON.parse(output) as [typeof packed];
}, 180_000);

describe('the packed package', () => {
  it('has no source maps', () => {
    expect(packed.files.map((file) => file.path).filter((path) => path.endsWith('.map'))).toEqual([]);
  });

  it('has the command once, as the ESM file bin points at', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toContain('dist/cli.mjs');
    expect(paths).not.toContain('dist/cli.cjs');
  });

  it('unpacks to at most 4.5 MB, so that with its dependencies an install stays under 8 MB', () => {
    // jose, tus-js-client and its dependencies take about 3.5 MB of node_modules.
    expect(packed.unpackedSize).toBeLessThanOrEqual(4.5 * 1024 * 1024);
  });
});
