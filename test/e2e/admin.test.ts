/** The admin view in Chromium: collections and their items, creating an item, the request log. */
import { expect, it } from 'vitest';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage } from './harness.js';

describeInBrowser('console: admin view', () => {
  const stage = useStage();

  it('lists the demo collections and opens the Movies items', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'admin-items', async (page) => {
      await page.goto('/admin/collections');
      const moviesRow = page.getByRole('row', { name: /Movies/ });
      await moviesRow.getByRole('link', { name: 'Items', exact: true }).click();
      await page.waitForURL(/\/admin\/items\/Movies$/);
      const rows = page.getByTestId('items-table').locator('tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(20);
      await expect.poll(() => page.getByTestId('pager-status').textContent()).toMatch(/^Showing 1–20 of \d{3}/);
    });
  });

  it('creates an item from the keyboard and sees it first in the table', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'admin-item-created', async (page) => {
      await page.goto('/admin/items/Movies');
      await page.getByRole('button', { name: 'New item' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^title/i).fill('The Keyboard Movie');
      await dialog.getByLabel(/^title/i).press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => page.getByTestId('items-table').locator('tbody tr').first().textContent()).toContain('The Keyboard Movie');
    });
  });

  it('shows the request log with the console’s own calls', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'admin-request-log', async (page) => {
      await page.goto('/admin/items/Movies');
      await page.getByTestId('items-table').waitFor();
      await page.getByRole('link', { name: 'Request log' }).click();
      const table = page.getByTestId('requests-table');
      await table.waitFor();
      await expect.poll(() => table.textContent()).toContain('queryDataItems');
    });
  });

  it('is usable from the keyboard: skip link, navigation, dialogs that close with Escape', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'admin-keyboard', async (page) => {
      await page.goto('/admin/collections');
      await page.getByRole('row', { name: /Movies/ }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');

      // The first button of the page opens the "new collection" dialog; Escape closes it again.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('New collection');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'New collection' });
      await dialog.waitFor();
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    });
  });
});
