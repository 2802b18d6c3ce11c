/**
 * The console's site switcher (issue 30, item 4): once a made site is chosen, every page acts on it
 * (the admin's items are that site's, a clock move on the Test bench moves that site's clock
 * alone), a reload stays on it, "New site" makes and opens one, and the default site comes back.
 */
import { expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage } from './harness.js';

/** How long the page may take to show a change (a loaded machine runs the whole suite at once). */
const ui = { timeout: 10_000 };

describeInBrowser('console: site switcher', () => {
  const stage = useStage();

  it('acts on the chosen site on every page, and keeps it across a reload', { timeout: e2eTestTimeoutMs }, async () => {
    const { emulator } = stage();
    const site = await emulator.createSite();
    const siteAdmin = createClient({
      baseUrl: site.info.url,
      auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
    });
    await siteAdmin.items.insert('Movies', { title: 'Only on the chosen site' });
    try {
      await inPage(stage(), 'site-switcher', async (page) => {
        await page.goto('/admin/items/Movies');
        const items = page.getByTestId('items-table');
        await items.waitFor();
        expect(await items.textContent()).not.toContain('Only on the chosen site');

        const select = page.getByTestId('site-select');
        await expect.poll(() => select.locator('option').count(), ui).toBe(2);
        await select.selectOption(site.info.siteId);
        await items.getByRole('row', { name: /Only on the chosen site/ }).waitFor();

        // The Test bench's clock is the chosen site's.
        await page.goto('/admin/bench');
        await page.getByRole('button', { name: '+1 hour' }).click();
        await expect.poll(async () => (await site.clock.now()).offsetSeconds, ui).toBe(3600);
        expect((await emulator.clock.now()).offsetSeconds).toBe(0);

        await page.reload();
        await expect.poll(() => page.getByTestId('site-select').inputValue(), ui).toBe(site.info.siteId);

        // Back to the default site.
        await page.getByTestId('site-select').selectOption(emulator.info.siteId);
        await expect.poll(() => page.getByTestId('site-select').inputValue(), ui).toBe(emulator.info.siteId);
      });
    } finally {
      await site.remove();
    }
  });

  it('"New site" makes a site from the demo data and opens the console on it', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { emulator } = stage();
    await inPage(stage(), 'site-switcher-new', async (page) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'New site' }).click();
      await expect.poll(async () => (await emulator.control.call('listSites')).sites.length, ui).toBe(2);
      const made = (await emulator.control.call('listSites')).sites.find((listed) => !listed.default)!;
      await expect.poll(() => page.getByTestId('site-select').inputValue(), ui).toBe(made.siteId);
      await page.getByRole('button', { name: 'Delete this site' }).click();
      await expect.poll(() => page.getByTestId('site-select').inputValue(), ui).toBe(emulator.info.siteId);
      expect((await emulator.control.call('listSites')).sites).toHaveLength(1);
    });
  });
});
