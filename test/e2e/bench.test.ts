/**
 * The console's test bench in Chromium: the clock moved by its buttons, a fault added and
 * removed, "sign in as" a member, and a webhook event triggered and resent from the Webhooks page.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage } from './harness.js';

/** How long the page may take to show a change (a loaded machine runs the whole suite at once). */
const ui = { timeout: 10_000 };

describeInBrowser('console: test bench', () => {
  const stage = useStage();

  it('moves the clock by 4 hours and back to real time', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'bench-clock', async (page) => {
      await page.goto('/admin/config');
      await page.getByRole('link', { name: 'Test bench' }).click();
      const offset = page.getByTestId('clock-offset');
      await expect.poll(() => offset.textContent(), ui).toBe('real time');
      await page.getByRole('button', { name: '+4 hours' }).click();
      await expect.poll(() => offset.textContent(), ui).toBe('4 h ahead');
      expect((await stage().emulator.clock.now()).offsetSeconds).toBe(4 * 3600);
      await page.getByRole('button', { name: '+1 day' }).click();
      await expect.poll(() => offset.textContent(), ui).toBe('1 d 4 h ahead');
      await page.getByRole('button', { name: 'Back to real time' }).click();
      await expect.poll(() => offset.textContent(), ui).toBe('real time');
      expect((await stage().emulator.clock.now()).offsetSeconds).toBe(0);
    });
  });

  it('adds a fault that the next call meets, then removes it', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'bench-faults', async (page) => {
      await page.goto('/admin/bench');
      const form = page.getByRole('form', { name: 'Add a fault' });
      await form.getByLabel('Operation').fill('items.query');
      await form.getByLabel('Status').fill('503');
      await form.getByLabel('Times').fill('1');
      await form.getByRole('button', { name: 'Add fault' }).click();
      const table = page.getByTestId('faults-table');
      await expect.poll(() => table.textContent(), ui).toContain('items.query');
      const [rule] = await stage().emulator.faults.list();
      expect(rule).toMatchObject({ operation: 'items.query', status: 503, times: 1, fired: 0 });

      // A call meets it; the table shows it fired.
      const response = await fetch(`${stage().emulator.url}/wix-data/v2/items/query`, {
        method: 'POST',
        headers: { authorization: stage().emulator.info.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ dataCollectionId: 'Movies' }),
      });
      expect(response.status).toBe(503);
      // The table refreshes every two seconds.
      await expect.poll(() => page.getByTestId('fault-fired').textContent(), { timeout: 10_000 }).toBe('1');

      await table.getByRole('button', { name: 'Remove' }).click();
      await table.waitFor({ state: 'detached' });
      expect(await stage().emulator.faults.list()).toEqual([]);
    });
  });

  it('signs the site view in as a member, and it stays signed in after a reload', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'bench-sign-in-as', async (page) => {
      await page.goto('/');
      const session = page.getByTestId('session');
      await expect.poll(() => session.textContent(), ui).toContain('Visitor');
      await page.goto('/admin/bench');
      await page
        .getByTestId('identities-table')
        .getByRole('row', { name: /ada@example\.com/ })
        .getByRole('button', { name: 'Sign in as' })
        .click();
      await page.waitForURL((url) => url.pathname == '/');
      await expect.poll(() => session.textContent(), ui).toContain('Ada Lovelace');
      // The tokens are in memory only: the emulator's sign-in cookie signs the reloaded page in again.
      await page.reload();
      await expect.poll(() => session.textContent(), ui).toContain('Ada Lovelace');
    });
  });

  describe('webhooks', () => {
    let receiver: Server;
    let receiverUrl: string;
    const bodies: string[] = [];
    /** While set, the receiver waits for it before answering (a slow app). */
    let held: Promise<void> | undefined;
    beforeAll(async () => {
      // An app that checks signatures, as a real one must: a body it cannot verify gets a 401.
      const app = createClient({
        baseUrl: stage().emulator.url,
        auth: OAuthStrategy({ clientId: stage().emulator.info.clientId }),
        webhooks: { publicKey: stage().emulator.info.publicKey },
      });
      receiver = createServer(async (request, response) => {
        let body = '';
        for await (const chunk of request) body += chunk;
        bodies.push(body);
        await held;
        const verified = await app.webhooks.process(body).then(
          () => true,
          () => false,
        );
        response.writeHead(verified ? 200 : 401).end();
      });
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    });
    afterAll(() => receiver?.close());

    it('triggers an event of a chosen type to a URL, then resends it', { timeout: e2eTestTimeoutMs }, async () => {
      await inPage(stage(), 'bench-webhooks', async (page) => {
        await page.goto('/admin/webhooks');
        const form = page.getByRole('form', { name: 'Trigger an event' });
        await form.getByLabel('Event type').selectOption('wix.members.v1.member_updated');
        await form.getByLabel('Send to').fill(receiverUrl);
        await form.getByRole('button', { name: 'Send event' }).click();
        await expect.poll(() => form.textContent(), ui).toContain('Sent wix.members.v1.member_updated');
        const deliveries = page.getByTestId('deliveries-table');
        await expect.poll(() => deliveries.textContent(), ui).toContain('wix.members.v1.member_updated');
        await expect.poll(() => bodies.length, ui).toBe(1);

        await deliveries.getByRole('button', { name: 'Resend' }).first().click();
        await expect.poll(() => bodies.length, ui).toBe(2);
        await expect.poll(() => deliveries.locator('tbody tr').count(), ui).toBe(2);
      });
    });

    it('shows a delivery as soon as it is sent, marks a bad signature refused as it should be, and opens the payload', {
      timeout: e2eTestTimeoutMs,
    }, async () => {
      await inPage(stage(), 'bench-webhooks-outcomes', async (page) => {
        await page.goto('/admin/webhooks');
        const form = page.getByRole('form', { name: 'Trigger an event' });
        const deliveries = page.getByTestId('deliveries-table');
        await form.getByLabel('Send to').fill(receiverUrl);

        // The receiver holds its answer: the delivery is listed already, as sending.
        let answer!: () => void;
        held = new Promise((resolve) => (answer = resolve));
        await form.getByLabel('Event type').selectOption('wix.members.v1.member_created');
        await form.getByRole('button', { name: 'Send event' }).click();
        const sending = deliveries.getByRole('row', { name: /wix\.members\.v1\.member_created/ });
        await expect.poll(() => sending.textContent(), ui).toContain('sending…');
        answer();
        held = undefined;
        await expect.poll(() => sending.textContent(), ui).toContain('200');

        await form.getByLabel('Event type').selectOption('wix.members.v1.member_deleted');
        await form.getByLabel(/Sign it with a wrong key/).check();
        await form.getByRole('button', { name: 'Send event' }).click();
        const forged = deliveries.getByRole('row', { name: /wix\.members\.v1\.member_deleted/ });
        await expect.poll(() => forged.textContent(), ui).toContain('bad signature');
        await expect.poll(() => forged.textContent(), ui).toContain('401 refused, as it should');
        await expect.poll(() => forged.count(), ui).toBe(1);

        await forged.getByRole('button', { name: /^Open wix\.members\.v1\.member_deleted/ }).click();
        const payload = JSON.parse((await page.getByTestId('delivery-payload').textContent()) ?? '') as {
          eventType: string;
          data: { entityId: string; actionEvent?: unknown; deletedEvent?: unknown };
        };
        expect(payload.eventType).toBe('wix.members.v1.member_deleted');
        expect(payload.data.entityId).toEqual(expect.any(String));
        expect(await page.getByTestId('delivery-details').textContent()).toContain('a wrong key, on purpose');
      });
    });
  });
});
