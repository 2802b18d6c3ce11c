/**
 * `npm run lint:package`: publint and are-the-types-wrong on the package as `npm pack` makes it from
 * the current `dist/` (run `npm run build` first). The tarball is packed with `--ignore-scripts`, so
 * the `prepack` build does not run again here (attw's own `--pack` would run it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });

run('npx', ['publint', '--strict']);
const folder = mkdtempSync(join(tmpdir(), 'sitekit-lint-package-'));
try {
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [{ filename }] = JSON.parse(packed);
  run('npx', ['attw', join(folder, filename), '--profile', 'node16']);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
