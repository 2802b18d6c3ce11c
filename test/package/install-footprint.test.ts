/**
 * What an install costs: the packed package carries no source maps (the built code is not
 * minified, so it reads as written) and no CommonJS build of the command (`bin` is ESM), which keeps
 * it small enough that an app installing it (with jose and tus-js-client) stays under 10 MB of
 * node_modules, the emulator's bundled server included (`node scripts/check-install.mjs` installs
 * it and measures). Reads dist/ (built first when missing or stale: `built-package.ts`).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from './built-package.js';

const root = resolve(import.meta.dirname, '../..');
let packed: { files: { path: string }[] };

/** Every path package.json names for users: exports targets, main, module, types and bins. */
function pointedAt(manifest: Record<string, unknown>): string[] {
  const paths = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value == 'string') paths.add(value.replace(/^\.\//, ''));
    else if (value && typeof value == 'object') for (const inner of Object.values(value)) visit(inner);
  };
  visit([manifest.exports, manifest.main, manifest.module, manifest.types, manifest.bin]);
  return [...paths];
}

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

  it('unpacks to at most 6 MB, so that with its dependencies an install stays under 10 MB', () => {
    // jose, tus-js-client and its dependencies take about 3.9 MB of node_modules. Counted: what the
    // package's entries reach, the console and the README (a local dist/ may also hold files of
    // earlier builds that nothing reaches; CI packs a clean build).
    const paths = new Set(packed.files.map((file) => file.path));
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    const pending = [
      ...pointedAt(manifest),
      'package.json',
      ...[...paths].filter((path) => path.startsWith('dist/console/') || !path.startsWith('dist/')),
    ];
    const reached = new Set<string>();
    while (pending.length > 0) {
      const path = pending.pop()!;
      if (reached.has(path) || !paths.has(path)) continue;
      reached.add(path);
      if (!/\.(mjs|cjs|d\.mts|d\.cts)$/.test(path)) continue;
      const text = readFileSync(join(root, path), 'utf8');
      for (const [, specifier] of text.matchAll(/['"](\.\.?\/[^'"]+)['"]/g))
        pending.push(relative(root, resolve(root, dirname(path), specifier!)));
    }
    expect(reached).toContain('dist/cli.mjs');
    const size = [...reached].reduce((total, path) => total + statSync(join(root, path)).size, 0);
    expect(size).toBeLessThanOrEqual(6_000_000);
  });
});
