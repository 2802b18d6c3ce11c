/**
 * The Playwright example of README.md ("Testing your app against the emulator"), run as it is
 * shown there (between the README markers, with the package's import names in place of these
 * source paths): a browser that starts signed in, from `storageState`. The lines outside the
 * markers only build the console and find Debian's Chromium, as the other browser tests do.
 */
import { ensureConsoleBuilt } from '../../console/scripts/ensure-built.js';
import { beforeEach as beforeEachTest } from 'vitest';
import { browserSkipReason, chromiumPath } from './harness.js';
// README:start
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../emulator/index.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, memory: true });
});
afterAll(() => emulator.close());

it('opens the site signed in as a member', async () => {
  // The emulator's sign-in cookie (and, with appOrigin, the tokens in your app's localStorage).
  const storageState = await emulator.storageState({ email: 'ada@example.com' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH }); // unset: Playwright's own
  try {
    const page = await (await browser.newContext({ storageState })).newPage();
    await page.goto(emulator.url); // the emulator's console, a sitekit app
    await expect.poll(() => page.getByTestId('session').textContent(), { timeout: 10_000 }).toContain('Ada Lovelace');
  } finally {
    await browser.close();
  }
});
// README:end

// Debian's Chromium (Playwright cannot download its own here), and the console the emulator serves.
process.env.CHROMIUM_PATH ??= chromiumPath;
// Without it (outside CI) the example is skipped, saying why, as the other browser tests are.
beforeEachTest((context) => {
  const skipped = browserSkipReason();
  if (skipped) context.skip(skipped);
});
beforeAll(() => ensureConsoleBuilt({ quiet: true }), 120_000);
