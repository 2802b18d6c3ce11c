/**
 * The end-to-end harness: the emulator in-process (port 0, memory store) serving the built
 * console, Debian's Chromium driven by playwright-core, one fresh browser context per test, a
 * screenshot per test under reports/screenshots/, and a failure for any console error or page
 * error the test did not expect.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { consoleOutputDir, ensureConsoleBuilt } from '../../console/scripts/ensure-built.js';
import { startEmulator, type Emulator, type SettingValue } from '../../emulator/index.js';

/** Where Debian installs Chromium (`apt-get install -y chromium`); `npx playwright install` cannot work here. */
export const chromiumPath = '/usr/bin/chromium';

/** The flags these machines need (toolchain.md); Playwright refuses `--user-data-dir` among them. */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const screenshotDir = fileURLToPath(new URL('../../reports/screenshots/', import.meta.url));

/**
 * `describe`, or `describe.skip` with the reason in its name when Chromium is absent outside CI.
 * In CI (`CI` set) the tests always run, so a missing browser fails them instead of hiding them.
 */
export function describeInBrowser(name: string, body: () => void): void {
  const skipped = browserSkipReason();
  if (skipped) describe.skip(`${name} (${skipped})`, body);
  else describe(name, body);
}

/** Why the browser tests are skipped here (no Chromium, outside CI), or undefined when they run. */
export const browserSkipReason = (): string | undefined =>
  !existsSync(chromiumPath) && !process.env.CI
    ? `skipped: no Chromium at ${chromiumPath}; install Debian's chromium package to run the browser tests`
    : undefined;

/** What every test of a file shares: the emulator and the browser. */
export interface Stage {
  emulator: Emulator;
  browser: Browser;
}

/**
 * Opens the stage before the file's tests and closes it after them; the returned function gives
 * it to the tests.
 */
export function useStage(): () => Stage {
  let stage: (Stage & { close(): Promise<void> }) | undefined;
  beforeAll(async () => {
    stage = await openStage();
  }, 120_000);
  afterAll(async () => {
    await stage?.close();
  });
  return () => {
    if (!stage) throw new Error('The browser stage did not open (see the beforeAll error)');
    return stage;
  };
}

/** Builds the console if needed, starts the emulator and launches Chromium; returns how to stop them. */
async function openStage(): Promise<Stage & { close(): Promise<void> }> {
  if (!existsSync(chromiumPath))
    throw new Error(
      `Chromium is not installed at ${chromiumPath}: CI must run "apt-get install -y chromium" before the tests`,
    );
  await ensureConsoleBuilt({ quiet: true });
  // No key pairs made ahead: the browser tests make few sites, and the CPU is theirs.
  const emulator = await startEmulator({ port: 0, memory: true, consoleDir: consoleOutputDir, sitePool: 0 });
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  } catch (error) {
    await emulator.close();
    throw error;
  }
  return {
    emulator,
    browser,
    async close() {
      await browser.close();
      await emulator.close();
    },
  };
}

/** Options of {@link inPage}. */
export interface PageOptions {
  /**
   * Failed responses the test provokes on purpose (a wrong password is a 4xx): Chromium reports
   * each as a console error, which is not the app's fault when expected.
   */
  expectedFailures?: RegExp;
}

/** How long one browser step may wait (well inside the test's own time limit, so its error shows). */
const stepTimeoutMs = 15_000;

/** How long one end-to-end test may take. */
export const e2eTestTimeoutMs = 90_000;

/**
 * Runs `body` on a page of a fresh browser context (own cookies and storage), then saves the
 * screenshot `reports/screenshots/<screenshotName>.png` whether it passed or not, closes the
 * context, and fails on any console error or page error the test did not expect.
 */
export async function inPage(
  stage: Stage,
  screenshotName: string,
  body: (page: Page, context: BrowserContext) => Promise<void>,
  options: PageOptions = {},
): Promise<void> {
  const context = await stage.browser.newContext({
    baseURL: stage.emulator.url,
    viewport: { width: 1280, height: 860 },
  });
  context.setDefaultTimeout(stepTimeoutMs);
  const problems: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() !== 'error') return;
    const url = message.location().url;
    const failedLoad = message.text().startsWith('Failed to load resource');
    if (failedLoad && options.expectedFailures?.test(url)) return;
    problems.push(`console.error: ${message.text()}${url ? ` (${url})` : ''}`);
  };
  context.on('console', onConsole);
  context.on('weberror', (webError) => problems.push(`page error: ${webError.error().message}`));
  const page = await context.newPage();
  try {
    await body(page, context);
  } finally {
    mkdirSync(screenshotDir, { recursive: true });
    await page
      .screenshot({ path: join(screenshotDir, `${screenshotName}.png`), fullPage: true })
      .catch(() => undefined);
    await context.close();
  }
  expect(problems, 'console errors or page errors in the browser').toEqual([]);
}

/** Changes emulator settings through the control API (as the console's Config page does). */
export async function setEmulatorConfig(stage: Stage, changes: Record<string, SettingValue>): Promise<void> {
  await stage.emulator.config.update(changes);
}
