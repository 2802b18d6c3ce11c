/**
 * The console's Test bench saves named snapshots and restores them (issue 30, item 4): an item
 * changed after the save is back after a click on Restore, a snapshot is deleted from its row, and
 * a name that is not a path segment is refused with the emulator's reason, nothing saved.
 */
import { expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage } from './harness.js';

/** How long the page may take to show a change (a loaded machine runs the whole suite at once). */
const ui = { timeout: 10_000 };

describeInBrowser('console: snapshots', () => {
  const stage = useStage();
  const admin = () => {
    const { apiKey, siteId } = stage().emulator.info;
    return createClient({ baseUrl: stage().emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }) });
  };

  it('saves a snapshot, restores an item changed since, and deletes it', { timeout: e2eTestTimeoutMs }, async () => {
    const movie = await admin().items.insert('Movies', { title: 'As saved' });
    await inPage(stage(), 'bench-snapshots', async (page) => {
      await page.goto('/admin/bench');
      const panel = page.getByRole('region', { name: 'Snapshots' });
      const form = panel.getByRole('form', { name: 'Save a snapshot' });
      await form.getByLabel('Name').fill('before-edit');
      await form.getByRole('button', { name: 'Save snapshot' }).click();
      await panel.getByRole('status').filter({ hasText: 'Saved before-edit' }).waitFor();
      const row = panel.getByTestId('snapshots-table').getByRole('row', { name: /before-edit/ });
      await row.waitFor();
      expect((await stage().emulator.snapshots.list()).map((snapshot) => snapshot.name)).toEqual(['before-edit']);

      await admin().items.patch('Movies', movie._id).setField('title', 'Changed after the save').run();
      await row.getByRole('button', { name: 'Restore' }).click();
      await panel.getByRole('status').filter({ hasText: 'Restored before-edit' }).waitFor();
      expect((await admin().items.get('Movies', movie._id))?.title).toBe('As saved');

      await row.getByRole('button', { name: 'Delete' }).click();
      await panel.getByTestId('snapshots-table').waitFor({ state: 'detached' });
      expect(await stage().emulator.snapshots.list()).toEqual([]);
    });
  });

  it('refuses a name that is not a path segment, saying why, and saves nothing', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(
      stage(),
      'bench-snapshots-bad-name',
      async (page) => {
        await page.goto('/admin/bench');
        const panel = page.getByRole('region', { name: 'Snapshots' });
        const form = panel.getByRole('form', { name: 'Save a snapshot' });
        await form.getByLabel('Name').fill('../outside');
        await form.getByRole('button', { name: 'Save snapshot' }).click();
        const alert = panel.getByRole('alert');
        await expect.poll(() => alert.textContent(), ui).toContain('Could not save the snapshot');
        expect(await alert.textContent()).toContain('name');
      },
      { expectedFailures: /\/_emulator\/snapshots/ },
    );
    expect(await stage().emulator.snapshots.list()).toEqual([]);
  });
});
