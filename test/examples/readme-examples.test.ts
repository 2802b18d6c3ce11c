/**
 * README.md's "Testing your app against the emulator" and "Tests without a server" show the test
 * files that run in CI: each snippet must be the code between the README markers of its file,
 * with the package's import names (`sitekit-sdk`, `sitekit-sdk/emulator`) in place of the source
 * paths.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(resolve(ROOT, 'README.md'), 'utf8');

/** The README region of a file, as the README shows it. */
function readmeRegion(file: string): string {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  const region = text.slice(
    text.indexOf('// README:start\n') + '// README:start\n'.length,
    text.indexOf('// README:end'),
  );
  return region
    .replace(/'(\.\.\/)+src\/index\.js'/g, "'sitekit-sdk'")
    .replace(/'(\.\.\/)+emulator\/index\.js'/g, "'sitekit-sdk/emulator'");
}

it.each([
  'test/examples/vitest-app.test.ts',
  'test/examples/vitest-snapshots.test.ts',
  'test/examples/site-per-worker/global-setup.ts',
  'test/examples/site-per-worker/notes.test.ts',
  'test/playwright/global-setup.ts',
  'test/playwright/site-fixture.ts',
  'test/playwright/sign-in.spec.ts',
  'test/examples/vitest-in-process.test.ts',
  'test/e2e/readme-playwright.test.ts',
])('README.md shows %s as it runs', (file) => {
  const region = readmeRegion(file);
  expect(region.length).toBeGreaterThan(200);
  expect(README).toContain(`\`\`\`ts\n${region}\`\`\``);
});
