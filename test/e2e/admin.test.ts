/** The admin view in Chromium: collections and their items, creating an item, the request log. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, setEmulatorConfig, useStage } from './harness.js';
import { gradientPng } from './png.js';

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
      // The ID column keeps each ID on one line (it wrapped at the dash of "movie-300").
      const idLines = await rows
        .first()
        .getByTestId('item-id')
        .evaluate((cell) => {
          const text = document.createRange();
          text.selectNodeContents(cell);
          return text.getClientRects().length;
        });
      expect(idLines).toBe(1);
      await expect.poll(() => page.getByTestId('pager-status').textContent()).toMatch(/^Showing 1–20 of \d{3}/);
    });
  });

  it('creates an item from the keyboard, edits it and deletes it', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'admin-item-created', async (page) => {
      await page.goto('/admin/items/Movies');
      await page.getByRole('button', { name: 'New item' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(/^title/i).fill('The Keyboard Movie');
      await dialog.getByLabel(/^title/i).press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      const firstRow = page.getByTestId('items-table').locator('tbody tr').first();
      await expect.poll(() => firstRow.textContent()).toContain('The Keyboard Movie');

      // Edit it, then delete it with the bulk delete (after its confirmation).
      await firstRow.getByRole('button', { name: 'Edit' }).click();
      await dialog.getByLabel(/^title/i).fill('The Keyboard Movie, edited');
      await dialog.getByRole('button', { name: 'Save changes' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(() => firstRow.textContent()).toContain('The Keyboard Movie, edited');
      const countBefore = await page.getByTestId('pager-status').textContent();

      await firstRow.getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Delete selected (1)' }).click();
      await page
        .getByRole('dialog', { name: 'Delete items' })
        .getByRole('button', { name: 'Delete', exact: true })
        .click();
      await expect.poll(() => firstRow.textContent()).not.toContain('The Keyboard Movie');
      await expect.poll(() => page.getByTestId('pager-status').textContent()).not.toBe(countBefore);
    });
  });

  it('keeps the list, object and date fields of an item whose title alone is edited', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { apiKey, siteId } = stage().emulator.info;
    const admin = createClient({ baseUrl: stage().emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }) });
    const fields = {
      genres: ['Sci-Fi', 'Drama, Romance'],
      details: { runtimeMinutes: 93, language: 'fr', crew: [{ role: 'editor' }] },
      releaseDate: new Date('1968-04-02T20:15:42.250Z'),
      rating: 7.5,
      inColor: true,
    };
    const movie = await admin.items.insert('Movies', { title: 'The Untouched Fields', ...fields });
    await inPage(stage(), 'admin-item-edit-title', async (page) => {
      await page.goto('/admin/items/Movies');
      const row = page.getByTestId('items-table').getByRole('row', { name: /The Untouched Fields/ });
      for (const title of ['The Untouched Fields, edited', 'The Untouched Fields, edited twice']) {
        await row.getByRole('button', { name: 'Edit' }).click();
        const dialog = page.getByRole('dialog');
        // The list shows one genre per line, not as JSON.
        expect(await dialog.getByLabel(/^genres/i).inputValue()).toBe('Sci-Fi\nDrama, Romance');
        await dialog.getByLabel(/^title/i).fill(title);
        await dialog.getByRole('button', { name: 'Save changes' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await expect.poll(async () => (await admin.items.get('Movies', movie._id))?.title).toBe(title);
      }
    });
    expect(await admin.items.get('Movies', movie._id)).toMatchObject(fields);
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

  it('says what to do when the emulator stops answering, not "Failed to fetch"', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(
      stage(),
      'admin-emulator-down',
      async (page) => {
        await page.goto('/admin/collections');
        await page.getByRole('row', { name: /Movies/ }).waitFor();
        // The emulator "stops": every API call from now on finds nothing listening.
        await page.route('**', (route) =>
          route.request().resourceType() === 'fetch' ? route.abort('connectionrefused') : route.continue(),
        );
        await page.getByRole('link', { name: 'Members' }).click();
        const message = page.getByRole('alert').getByTestId('error-message');
        await message.waitFor();
        expect(await message.textContent()).toBe(
          `The emulator is not reachable at ${stage().emulator.url}. Start it with npm start (or npx sitekit-sdk emulator), then try again.`,
        );
      },
      { expectedFailures: /./ },
    );
  });

  it('checks a new collection’s id and keys, creates it once on a double click, then edits and removes a field', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'admin-collection-fields', async (page) => {
      const creations: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && /\/v2\/collections$/.test(request.url())) creations.push(request.url());
      });
      await page.goto('/admin/collections');
      await page.getByRole('button', { name: 'New collection' }).click();
      const dialog = page.getByRole('dialog', { name: 'New collection' });
      await dialog.getByLabel('Collection ID').fill('my books/2');
      await dialog.getByLabel('Field 1 key').fill('bad key!');
      await dialog.getByRole('button', { name: 'Create collection' }).click();
      expect(await dialog.locator('#collection-id-problem').textContent()).toMatch(/no spaces/);
      expect(await dialog.locator('#field-0-problem').textContent()).toMatch(/must start with a letter/);
      expect(creations).toEqual([]);

      // One list of field types in both places, all of them.
      const dialogTypes = await dialog.getByLabel('Field 1 type').locator('option').allTextContents();
      expect(dialogTypes).toContain('MULTI_REFERENCE');
      expect(dialogTypes).toContain('DATE');

      const id = `Shelf${Date.now().toString(36)}`;
      await dialog.getByLabel('Collection ID').fill(id);
      await dialog.getByLabel('Field 1 key').fill('title');
      await dialog.getByRole('button', { name: 'Add a field' }).click();
      await dialog.getByLabel('Field 2 key').fill('pages');
      await dialog.getByRole('button', { name: 'Create collection' }).dblclick();
      await page.waitForURL(new RegExp(`/admin/collections/${id}$`));
      expect(creations).toHaveLength(1);
      // allTextContents does not wait: the collection page may still be loading after the URL changed.
      await expect
        .poll(() => page.getByLabel('New field type').locator('option').allTextContents())
        .toEqual(dialogTypes);

      // Edit a field's name and type, then remove another.
      await page.getByRole('button', { name: 'Edit field pages' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit field pages' });
      await edit.getByLabel('Display name').fill('Page count');
      await edit.getByRole('combobox', { name: 'Type' }).selectOption('NUMBER');
      await edit.getByRole('button', { name: 'Save field' }).click();
      await edit.waitFor({ state: 'hidden' });
      const pagesRow = page.getByRole('row', { name: /^pages/ });
      await expect.poll(() => pagesRow.textContent()).toContain('Page count');
      expect(await pagesRow.textContent()).toContain('NUMBER');
      await page.getByRole('button', { name: 'Remove field title' }).click();
      await page.getByRole('dialog', { name: 'Remove field' }).getByRole('button', { name: 'Remove' }).click();
      await expect.poll(() => page.getByRole('row', { name: /^title/ }).count()).toBe(0);

      // A bad key added on the collection page is refused there too.
      await page.getByLabel('New field key').fill('2nd field');
      await page.getByRole('button', { name: 'Add field' }).click();
      expect(await page.locator('#new-field-key-problem').textContent()).toMatch(/must start with a letter/);
    });
  });

  it('admin pages: their own badge, a sticky one-line sidebar, Config with labels in words and Save in sight', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'admin-layout', async (page) => {
      await page.goto('/admin/config');
      await page.getByRole('form', { name: 'Settings' }).waitFor();
      // Not the site's "Visitor · Sign in · Register": the admin pages act with the API key.
      expect(await page.getByTestId('session').count()).toBe(0);
      expect(await page.getByTestId('admin-badge').textContent()).toContain('API key');

      expect(await page.getByLabel('Webhook URLs').count()).toBe(1);
      expect(await page.getByText('Webhook urls', { exact: true }).count()).toBe(0);
      expect(await page.getByLabel('Allowed CORS origins').count()).toBe(1);
      const save = page.getByRole('button', { name: 'Save settings' });
      const viewport = page.viewportSize()!;
      const saveBox = (await save.boundingBox())!;
      expect(saveBox.y + saveBox.height, 'Save is in sight without scrolling').toBeLessThanOrEqual(viewport.height);

      // Every switch's box is the same size and sits by the first line of its words, however long they are.
      const boxes = await page
        .getByRole('form', { name: 'Settings' })
        .locator('label.check')
        .evaluateAll((labels) =>
          labels.map((label) => {
            const box = label.querySelector('input')!.getBoundingClientRect();
            return { width: box.width, offset: Math.round(box.top - label.getBoundingClientRect().top) };
          }),
        );
      expect(boxes.length).toBeGreaterThan(3);
      expect(new Set(boxes.map((box) => `${box.width} ${box.offset}`))).toEqual(new Set([`16 ${boxes[0]!.offset}`]));
      expect(boxes[0]!.offset).toBeLessThanOrEqual(4);

      // The emulator's URL on one line; the sidebar stays put when the page scrolls.
      const url = page.locator('.sidebar-foot .mono');
      const lineHeight = await url.evaluate((element) => Number.parseFloat(getComputedStyle(element).lineHeight));
      expect((await url.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
      await page.mouse.wheel(0, 2000);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      // Within a pixel: a page whose height is fractional scrolls by fractions, and the sticky box follows.
      await expect.poll(async () => Math.abs((await page.locator('.sidebar').boundingBox())!.y)).toBeLessThan(1);
    });
  });

  it('request log: filters by status, path and caller; a row opens to its bodies and says why it was refused', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const visitor = createClient({
      baseUrl: stage().emulator.url,
      auth: OAuthStrategy({ clientId: stage().emulator.info.clientId }),
    });
    // A visitor may read Movies but not write them: a refusal with a reason in the log.
    await visitor.items.insert('Movies', { title: 'Not allowed' }).catch(() => undefined);
    await visitor.auth.login({ email: 'ada@example.com', password: 'demo-password' });
    await inPage(stage(), 'admin-request-log-details', async (page) => {
      await page.goto('/admin/requests');
      const filters = page.getByRole('form', { name: 'Filter requests' });
      await filters.getByLabel('Status').fill('403');
      await filters.getByLabel('Caller').fill('visitor');
      await filters.getByLabel('Path starts with').fill('/wix-data/');
      await filters.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/status=403/);
      const table = page.getByTestId('requests-table');
      const rows = table.locator('tbody tr');
      await rows.first().waitFor();
      const statuses = await rows.evaluateAll((all) => all.map((row) => row.children[4]?.textContent ?? ''));
      expect(statuses.every((status) => status.startsWith('403'))).toBe(true);
      expect(await rows.first().getByTestId('refusal-reason').textContent()).toMatch(/^Refused: .*visitor/);

      await rows
        .first()
        .getByRole('button', { name: /^Open POST / })
        .click();
      const details = page.getByTestId('request-details');
      await details.waitFor();
      expect(await details.textContent()).toContain('visitor');
      expect(await details.getByTestId('decision').textContent()).toMatch(/^Refused/);
      expect(await details.getByTestId('request-body').textContent()).toContain('Not allowed');
      expect(await details.getByTestId('response-body').textContent()).toContain('message');
      await page.keyboard.press('Escape');

      // The login's password and session token never show.
      await page.goto('/admin/requests?path=/_api/iam/authentication/');
      await table
        .locator('tbody tr')
        .first()
        .getByRole('button', { name: /^Open POST / })
        .click();
      const loginBody = await page.getByTestId('request-body').textContent();
      expect(loginBody).toContain('ada@example.com');
      expect(loginBody).not.toContain('demo-password');
      expect(loginBody).toContain('[redacted]');
    });
  });

  it('request log: refuses a status that is not one, names the caller of a faulted call and says its answer was injected', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { apiKey, siteId } = stage().emulator.info;
    const control = (path: string, body: unknown) =>
      fetch(`${stage().emulator.url}/_emulator/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const rule = (await (await control('faults', { operation: 'items.query', status: 503, times: 1 })).json()) as {
      id: string;
    };
    const admin = createClient({
      baseUrl: stage().emulator.url,
      auth: ApiKeyStrategy({ apiKey, siteId }),
      retry: false,
    });
    await admin.items
      .query('Movies')
      .find()
      .catch(() => undefined);
    await inPage(stage(), 'admin-request-log-fault', async (page) => {
      await page.goto('/admin/requests');
      const filters = page.getByRole('form', { name: 'Filter requests' });
      await filters.getByLabel('Status').fill('abc');
      await filters.getByRole('button', { name: 'Filter' }).click();
      expect(await page.getByTestId('filter-problem').textContent()).toBe(
        'Status "abc" is not an HTTP status: give a number such as 403 (or 0 for a dropped connection).',
      );
      expect(await page.getByTestId('requests-table').count()).toBe(0);

      await filters.getByLabel('Status').fill('503');
      await filters.getByRole('button', { name: 'Filter' }).click();
      const faulted = page.getByTestId('requests-table').locator('tbody tr').first();
      await expect.poll(() => faulted.getByTestId('fault-badge').textContent()).toBe('injected');
      expect(await faulted.locator('td').nth(6).textContent()).toBe('elevated');
      await faulted.getByRole('button', { name: /^Open POST / }).click();
      expect(await page.getByTestId('fault-notice').textContent()).toContain(
        `Answer injected by the fault rule ${rule.id}: the route never ran.`,
      );
    });
  });

  it('request log: says the emulator does not answer rather than "Reading…" for ever', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(
      stage(),
      'admin-request-log-stuck',
      async (page) => {
        await page.goto('/admin/collections');
        await page.getByRole('row', { name: /Movies/ }).waitFor();
        // The emulator is stuck (suspended, say): its control API takes the request and never answers.
        await page.route('**/_emulator/requests?**', () => undefined);
        await page.getByRole('link', { name: 'Request log' }).click();
        const message = page.getByRole('alert').getByTestId('error-message');
        await message.waitFor({ timeout: 20_000 });
        expect(await message.textContent()).toBe(
          `The emulator at ${stage().emulator.url} did not answer in time: it may be stopped or stuck. Restart it (npm start, or npx sitekit-sdk emulator), then try again.`,
        );
      },
      { expectedFailures: /./ },
    );
  });

  it('is usable from the keyboard: skip link, navigation, dialogs that close with Escape', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
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

  it('uploads to the media library, moves the file to the trash and restores it', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'admin-media-trash', async (page) => {
      await page.goto('/admin/media');
      await page.getByTestId('upload-input').setInputFiles({
        name: 'sky.png',
        mimeType: 'image/png',
        buffer: gradientPng(1600, 1000, [40, 120, 220], [200, 230, 255]),
      });
      const library = page.getByTestId('media-library');
      const thumbnail = library.getByRole('img', { name: 'sky.png' });
      await expect
        .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBeGreaterThan(0);
      // The grid loads a scaled preview, not the 1600×1000 original.
      expect(await thumbnail.getAttribute('src')).toMatch(/\/v1\/fill\/w_360,h_360\//);
      expect(await thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(360);

      await library.getByRole('checkbox', { name: 'Select sky.png' }).check();
      await page.getByRole('button', { name: 'Move to trash (1)' }).click();
      await thumbnail.waitFor({ state: 'detached' });

      await page.getByRole('tab', { name: 'Trash' }).click();
      await page.getByRole('button', { name: 'Restore' }).click();
      await page.getByText('The trash is empty').waitFor();
      await page.getByRole('tab', { name: 'Library' }).click();
      await library.getByRole('img', { name: 'sky.png' }).waitFor();
    });
  });

  it('approves, mutes, blocks and unblocks a member who waits for approval', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const email = `pending.${Date.now().toString(36)}@example.com`;
    await setEmulatorConfig(stage(), { ownerApprovalRequired: true });
    try {
      const visitor = createClient({
        baseUrl: stage().emulator.url,
        auth: OAuthStrategy({ clientId: stage().emulator.info.clientId }),
      });
      expect((await visitor.auth.register({ email, password: 'waiting patiently' })).loginState).toBe(
        'OWNER_APPROVAL_REQUIRED',
      );
    } finally {
      await setEmulatorConfig(stage(), { ownerApprovalRequired: false });
    }
    await inPage(stage(), 'admin-members', async (page) => {
      await page.goto('/admin/members');
      const row = page
        .getByTestId('members-table')
        .getByRole('row', { name: new RegExp(email.replace(/[.]/g, '\\.')) });
      await expect.poll(() => row.textContent()).toContain('pending');
      await row.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => row.textContent()).toContain('approved');
      await row.getByRole('button', { name: 'Mute' }).click();
      await expect.poll(() => row.textContent()).toContain('muted');
      await row.getByRole('button', { name: 'Block' }).click();
      await expect.poll(() => row.textContent()).toContain('blocked');
      // A blocked member's button says what it does.
      expect(await row.getByRole('button', { name: 'Approve' }).count()).toBe(0);
      await row.getByRole('button', { name: 'Unblock' }).click();
      await expect.poll(() => row.textContent()).toContain('approved');
    });
  });

  it('turns on email verification in Config and shows the code in the Outbox', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const email = `outbox.${Date.now().toString(36)}@example.com`;
    await inPage(stage(), 'admin-config-outbox', async (page) => {
      await page.goto('/admin/config');
      await page.getByRole('checkbox', { name: /Email verification required/ }).check();
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved.').waitFor();

      const visitor = createClient({
        baseUrl: stage().emulator.url,
        auth: OAuthStrategy({ clientId: stage().emulator.info.clientId }),
      });
      expect((await visitor.auth.register({ email, password: 'check my inbox' })).loginState).toBe(
        'EMAIL_VERIFICATION_REQUIRED',
      );

      await page.getByRole('link', { name: 'Outbox' }).click();
      await page.getByLabel('Only emails to').fill(email);
      await expect.poll(() => page.getByTestId('outbox-code').first().textContent()).toMatch(/\S{4,}/);
    });
    await setEmulatorConfig(stage(), { emailVerificationRequired: false });
  });

  it('shows a reference as a link to its item and manages multi-references', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { apiKey, siteId } = stage().emulator.info;
    const admin = createClient({ baseUrl: stage().emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }) });
    await admin.collections.createDataCollection({
      _id: 'Festivals',
      displayName: 'Festivals',
      fields: [
        { key: 'name', displayName: 'Name', type: 'TEXT' },
        {
          key: 'opening',
          displayName: 'Opening film',
          type: 'REFERENCE',
          typeMetadata: { reference: { referencedCollectionId: 'Movies' } },
        },
        {
          key: 'lineup',
          displayName: 'Line-up',
          type: 'MULTI_REFERENCE',
          typeMetadata: { multiReference: { referencedCollectionId: 'Movies' } },
        },
      ],
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    const [opening, other] = (await admin.items.query('Movies').ascending('title').limit(2).find()).items;
    await admin.items.insert('Festivals', { name: 'Cannes', opening: opening!._id });
    await inPage(stage(), 'admin-references', async (page) => {
      await page.goto('/admin/items/Festivals');
      const row = page.getByTestId('items-table').getByRole('row', { name: /Cannes/ });
      // The single reference comes back in full (includeReferences) and links to the Movies items.
      await row.getByRole('link', { name: String(opening!.title) }).waitFor();

      await row.getByRole('button', { name: 'Manage references' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('No references yet').waitFor();
      await dialog.getByLabel('Referenced item ID').fill(other!._id);
      await dialog.getByRole('button', { name: 'Add reference' }).click();
      await dialog.getByText(String(other!.title)).waitFor();
      await dialog.getByRole('button', { name: 'Remove' }).click();
      await dialog.getByText('No references yet').waitFor();
    });
  });

  it('lists webhook deliveries to a receiver set in Config', { timeout: e2eTestTimeoutMs }, async () => {
    const received: string[] = [];
    const receiver = createServer((request, response) => {
      request.on('data', () => undefined);
      request.on('end', () => {
        received.push(request.url ?? '');
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const { port } = receiver.address() as AddressInfo;
    try {
      await inPage(stage(), 'admin-webhooks', async (page) => {
        await page.goto('/admin/config');
        await page.getByLabel(/^Webhook urls/i).fill(`http://127.0.0.1:${port}/hooks`);
        await page.getByRole('button', { name: 'Save settings' }).click();
        await page.getByText('Settings saved.').waitFor();

        const { apiKey, siteId } = stage().emulator.info;
        const admin = createClient({ baseUrl: stage().emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }) });
        await admin.items.insert('Movies', { title: 'Announced by webhook' });
        await expect.poll(() => received.length).toBeGreaterThan(0);

        await page.getByRole('link', { name: 'Webhooks' }).click();
        const row = page.getByRole('row', { name: /wix\.data\.v2\.data_item_created/ }).first();
        await expect.poll(() => row.textContent()).toContain('204');
      });
    } finally {
      await setEmulatorConfig(stage(), { webhookUrls: [] });
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
