/**
 * The Playwright recipe of README.md ("a Playwright worker-scoped fixture"), run in CI by
 * `npx playwright test -c test/playwright` (`.ci/run`): one emulator for the run (global setup),
 * one site per Playwright worker (`site-fixture.ts`), Debian's Chromium.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  globalSetup: './global-setup.ts',
  workers: 2,
  fullyParallel: true,
  timeout: 60_000,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    // Unset: Playwright's own Chromium (`npx playwright install chromium`).
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
