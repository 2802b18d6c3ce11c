/**
 * The package as users install it, for the package tests: `npm pack` (without prepack: the tests
 * build dist/ themselves, `built-package.ts`), unpacked into a temporary app's node_modules, with
 * links to the other packages the app needs (from the repository's node_modules).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** Packs the package into `folder`; the tarball's path. */
export function packPackage(folder: string): string {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as { filename: string }[];
  return join(folder, packed!.filename);
}

/** Makes `folder` an app with the packed package in node_modules/sitekit-sdk and links to `linked`; returns it. */
export function appWithPackage(tarball: string, folder: string, linked: readonly string[]): string {
  mkdirSync(join(folder, 'node_modules'), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', join(folder, 'node_modules')]);
  renameSync(join(folder, 'node_modules/package'), join(folder, 'node_modules/sitekit-sdk'));
  for (const dependency of linked) {
    const link = join(folder, 'node_modules', dependency);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', dependency), link);
  }
  return folder;
}
