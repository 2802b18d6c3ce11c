/**
 * `npm pack` from a clean checkout, as a maintainer publishes: the checkout has no `dist/`, the
 * `prepack` script builds it, and the tarball holds the built package. Every file that
 * package.json points at (exports, main, module, types, bin) is in it, with the console, the README
 * and its screenshot; no TypeScript source is.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let work: string;
let packed: string[];

/** The files of a checkout of this repository: what git tracks, plus new files it does not ignore. */
function checkoutFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  return listed.split('\0').filter((file) => file && existsSync(join(root, file)));
}

/** Every path package.json names for users: exports targets, main, module, types and bins. */
function pointedAt(manifest: Record<string, unknown>): string[] {
  const paths = new Set<string>();
  const visit = (value: unknown) => {
    if (typeof value == 'string') paths.add(value.replace(/^\.\//, ''));
    else if (value && typeof value == 'object') Object.values(value).forEach(visit);
  };
  visit(manifest.exports);
  visit([manifest.main, manifest.module, manifest.types, manifest.bin]);
  return [...paths];
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sitekit-pack-'));
  const checkout = join(work, 'checkout');
  for (const file of checkoutFiles()) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    copyFileSync(join(root, file), join(checkout, file));
  }
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  expect(existsSync(join(checkout, 'dist'))).toBe(false);
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: checkout,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  // npm prints the scripts' output before the JSON on stdout.
  const [{ files }] = JSON.parse(output.slice(output.indexOf('\n[') + 1)) as [{ files: { path: string }[] }];
  packed = files.map((file) => file.path);
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('npm pack from a clean checkout', () => {
  it('builds dist/ first and packs every file package.json points at', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const missing = pointedAt(manifest).filter((path) => !packed.includes(path));
    expect(missing).toEqual([]);
    expect(packed).toContain('dist/console/index.html');
  });

  it('names its command like the package, so `npx <name>` can only resolve to this package', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.bin)).toEqual([manifest.name]);
    expect(packed).toContain(manifest.bin[manifest.name].replace(/^\.\//, ''));
  });

  it('packs the README with its screenshot and package.json, and no source', () => {
    const outsideDist = packed.filter((path) => !path.startsWith('dist/')).sort();
    expect(outsideDist).toEqual(['README.md', 'docs/console.png', 'package.json']);
    expect(packed.filter((path) => /\.tsx?$/.test(path) && !/\.d\.[mc]?ts$/.test(path))).toEqual([]);
  });
});
