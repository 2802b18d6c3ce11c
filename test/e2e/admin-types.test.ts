/**
 * The console's collection page shows the collection's TypeScript interface, the one
 * `sitekit-sdk types` writes (same generator), and copies it.
 */
import { expect, it } from 'vitest';
import { collectionInterface } from '../../cli/site-types.js';
import { ApiKeyStrategy, createClient } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage } from './harness.js';

describeInBrowser('console: a collection’s TypeScript interface', () => {
  const stage = useStage();

  it('shows the generated interface of Movies and copies it', { timeout: e2eTestTimeoutMs }, async () => {
    const { url, info } = stage().emulator;
    const admin = createClient({ baseUrl: url, auth: ApiKeyStrategy({ apiKey: info.apiKey, siteId: info.siteId }) });
    const expected = collectionInterface(await admin.collections.getDataCollection('Movies'));
    expect(expected).toContain('export interface Movie {');

    await inPage(stage(), 'admin-collection-types', async (page, context) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
      await page.goto('/admin/collections/Movies');
      const source = page.getByTestId('collection-interface');
      await source.waitFor();
      expect(await source.textContent()).toBe(expected);
      await page.getByRole('button', { name: 'Copy interface' }).click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).count()).toBe(1);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
    });
  });

  it('says the clipboard was refused where the page has none (plain HTTP on another host name)', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'admin-collection-types-no-clipboard', async (page) => {
      // Browsers give navigator.clipboard to secure contexts only: a console reached over plain
      // HTTP by a host name other than localhost (a Docker service name) has none.
      await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
      await page.goto('/admin/collections/Movies');
      await page.getByTestId('collection-interface').waitFor();
      await page.getByRole('button', { name: 'Copy interface' }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'The browser refused the clipboard' }).count())
        .toBe(1);
    });
  });
});
