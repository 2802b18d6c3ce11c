/**
 * How the held-out install check (scripts/check-install.mjs) counts an app's node_modules: the
 * footprint bar (at most 25 packages and 10 MB, no native file) is only as true as this count.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { measureNodeModules } from '../../scripts/check-install.mjs';

let modules: string;
/** Writes `bytes` bytes at `path` under the node_modules folder. */
const file = (path: string, bytes: number) => {
  mkdirSync(dirname(join(modules, path)), { recursive: true });
  writeFileSync(join(modules, path), Buffer.alloc(bytes));
};

beforeAll(() => {
  modules = join(mkdtempSync(join(tmpdir(), 'sitekit-footprint-')), 'node_modules');
  file('plain/package.json', 10);
  file('plain/lib/index.js', 1000);
  file('@scope/scoped/package.json', 10);
  file('plain/node_modules/nested/package.json', 10);
  file('native-addon/package.json', 10);
  file('native-addon/build/Release/addon.node', 500);
  // Not packages: npm's own files, a folder without a package.json, a scope folder itself.
  file('.package-lock.json', 100);
  file('.bin/.keep', 0);
  file('stray/readme.txt', 5);
  // A link (npm's .bin entries, `npm link`) is not followed: what it points at is counted where it lives.
  symlinkSync(join(modules, 'plain/lib/index.js'), join(modules, '.bin/plain'));
  symlinkSync(join(modules, 'plain'), join(modules, 'linked'));
});
afterAll(() => rmSync(dirname(modules), { recursive: true, force: true }));

it('counts every package folder, scoped and nested ones too, and nothing else', () => {
  expect(measureNodeModules(modules).packages.sort()).toEqual([
    '@scope/scoped',
    'native-addon',
    'plain',
    'plain/node_modules/nested',
  ]);
});

it('adds up the sizes of the files, links not followed', () => {
  expect(measureNodeModules(modules).bytes).toBe(10 + 1000 + 10 + 10 + 10 + 500 + 100 + 5);
});

it('finds the native files', () => {
  expect(measureNodeModules(modules).native).toEqual(['native-addon/build/Release/addon.node']);
});
