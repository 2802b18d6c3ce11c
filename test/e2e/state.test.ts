/**
 * The console's Test bench saves the site's state to a file and loads it back: an item changed
 * after the export is restored by the import; a file that is not an export is refused with the
 * reason, and the state is left as it was.
 */
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage } from './harness.js';

/** How long the page may take to show a change (a loaded machine runs the whole suite at once). */
const ui = { timeout: 10_000 };

describeInBrowser('console: site state export and import', () => {
  const stage = useStage();
  const admin = () => {
    const { apiKey, siteId } = stage().emulator.info;
    return createClient({ baseUrl: stage().emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }) });
  };

  it('exports the state, and importing the file restores an item changed since', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const movie = await admin().items.insert('Movies', { title: 'Kept in the file', genres: ['Drama'] });
    await inPage(stage(), 'bench-state-round-trip', async (page) => {
      await page.goto('/admin/bench');
      const panel = page.getByRole('region', { name: 'Site state' });
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Export to a file' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^sitekit-state-.*\.json$/);
      const path = await download.path();
      const exported = JSON.parse(await readFile(path, 'utf8')) as {
        version: number;
        items: Record<string, { _id: string; title?: string }[]>;
      };
      expect(exported.version).toBe(2);
      expect(exported.items.Movies).toContainEqual(
        expect.objectContaining({ _id: movie._id, title: 'Kept in the file' }),
      );
      await expect.poll(() => panel.getByRole('status').textContent(), ui).toContain('Exported sitekit-state-');

      await admin().items.patch('Movies', movie._id).setField('title', 'Changed after the export').run();
      expect((await admin().items.get('Movies', movie._id))?.title).toBe('Changed after the export');

      await panel.getByTestId('state-import-input').setInputFiles(path);
      const imported = panel.getByRole('status').filter({ hasText: 'Imported' });
      await expect.poll(() => imported.textContent(), ui).toMatch(/Imported: .*items/);
      const restored = await admin().items.get('Movies', movie._id);
      expect(restored).toMatchObject({ title: 'Kept in the file', genres: ['Drama'] });
    });
  });

  it('refuses a file that is not an export, says why, and keeps the state', { timeout: e2eTestTimeoutMs }, async () => {
    const movie = await admin().items.insert('Movies', { title: 'Survives a bad file' });
    const before = await admin().items.count('Movies');
    await inPage(
      stage(),
      'bench-state-bad-file',
      async (page) => {
        await page.goto('/admin/bench');
        const panel = page.getByRole('region', { name: 'Site state' });
        const input = panel.getByTestId('state-import-input');
        const alert = panel.getByRole('alert');

        // Not JSON: refused in the page, nothing sent.
        await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not { json') });
        await expect
          .poll(() => alert.textContent(), ui)
          .toContain('Could not import the file (the state is unchanged)');
        expect(await alert.textContent()).toContain('notes.txt: is not a JSON export');

        // JSON, but not an export: the emulator's validation error names the section.
        const wrong = { format: 'sitekit-emulator-state', version: 2, items: 'none' };
        await input.setInputFiles({
          name: 'wrong.json',
          mimeType: 'application/json',
          buffer: Buffer.from(JSON.stringify(wrong)),
        });
        await expect.poll(() => alert.textContent(), ui).toContain('items');
        expect(await alert.textContent()).toContain('INVALID_ARGUMENT');
      },
      { expectedFailures: /\/_emulator\/import/ },
    );
    expect(await admin().items.count('Movies')).toBe(before);
    expect((await admin().items.get('Movies', movie._id))?.title).toBe('Survives a bad file');
  });
});
