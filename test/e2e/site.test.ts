/**
 * The site view in Chromium, as a visitor becoming a member: registration with the emailed code
 * read from the outbox panel, creating an item, uploading an image, signing out; the hosted page
 * by redirect; silent sign-in after a reload; a wrong password.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '../../src/index.js';
import { describeInBrowser, e2eTestTimeoutMs, inPage, useStage, setEmulatorConfig } from './harness.js';
import { gradientPng } from './png.js';

/** A new address per test, so tests never depend on each other's members. */
const newEmail = (() => {
  let count = 0;
  return (name: string) => `${name}.${Date.now().toString(36)}.${++count}@example.com`;
})();

/** Every value the page's progress bar shows from now on, as the page changes it. */
async function progressValues(page: Page): Promise<Set<number>> {
  const seen = new Set<number>();
  await page.exposeFunction('reportProgress', (value: number) => seen.add(value));
  await page.evaluate(() => {
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      if (bar)
        (window as unknown as { reportProgress(value: number): void }).reportProgress(
          Number(bar.getAttribute('aria-valuenow')),
        );
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  return seen;
}

describeInBrowser('console: site view', () => {
  const stage = useStage();

  /** The demo site's elevated client, in Node. */
  const adminClient = () =>
    createClient({
      baseUrl: stage().emulator.url,
      auth: ApiKeyStrategy({ apiKey: stage().emulator.info.apiKey, siteId: stage().emulator.info.siteId }),
    });

  /** Registers a member through the SDK in Node (verification off), for the sign-in tests. */
  async function registeredMember(name: string): Promise<{ email: string; password: string }> {
    const email = newEmail(name);
    const password = 'correct horse 1';
    const client = createClient({
      baseUrl: stage().emulator.url,
      auth: OAuthStrategy({ clientId: stage().emulator.info.clientId }),
    });
    await setEmulatorConfig(stage(), { emailVerificationRequired: false });
    const outcome = await client.auth.register({ email, password });
    expect(outcome.loginState).toBe('SUCCESS');
    return { email, password };
  }

  it('registers, verifies with the code from the outbox, creates an item, uploads an image and signs out', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await setEmulatorConfig(stage(), { emailVerificationRequired: true });
    const email = newEmail('journey');
    await inPage(stage(), 'site-member-journey', async (page) => {
      await page.goto('/');
      await page.getByTestId('session').getByRole('link', { name: 'Register' }).click();
      const form = page.getByRole('form', { name: 'Register' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill('a long passphrase');
      await form.getByLabel(/Nickname/).fill('Journey');
      await form.getByRole('button', { name: 'Create account' }).click();

      // The code the emulator "emailed", as a person reads it from the outbox panel.
      const code = (await page.getByTestId('outbox-code').first().textContent())?.trim() ?? '';
      expect(code).toMatch(/^\S{4,}$/);
      await page.getByLabel('Verification code').fill(code);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/site\/profile$/);
      await expect.poll(() => page.getByTestId('session').textContent()).toContain('Member');
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);

      // Admin: create an item and see it in the table.
      await page.getByRole('link', { name: 'Items', exact: true }).click();
      await page.getByRole('link', { name: 'Movies' }).first().click();
      await page.getByRole('button', { name: 'New item' }).click();
      await page
        .getByRole('dialog')
        .getByLabel(/^title/i)
        .fill('Made by a new member');
      await page.getByRole('dialog').getByRole('button', { name: 'Create item' }).click();
      await expect
        .poll(() => page.getByTestId('items-table').locator('tbody tr').first().textContent())
        .toContain('Made by a new member');

      // Site: upload an image as the member and see its thumbnail.
      await page.getByRole('link', { name: 'Uploads' }).click();
      await page.getByTestId('upload-input').setInputFiles({
        name: 'sunset.png',
        mimeType: 'image/png',
        buffer: gradientPng(320, 200, [255, 140, 0], [120, 40, 200]),
      });
      const thumbnail = page.getByTestId('uploaded-files').getByRole('img', { name: 'sunset.png' });
      await thumbnail.waitFor();
      await expect
        .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth))
        .toBeGreaterThan(0);

      // Sign out through the hosted logout page, back as a visitor.
      const navigations: string[] = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame())
          navigations.push(new URL(request.url()).pathname);
      });
      await page.getByTestId('session').getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      expect(
        navigations.some((path) => path.startsWith('/_')),
        `went through the emulator's logout page (${navigations.join(', ')})`,
      ).toBe(true);
      await expect.poll(() => page.getByTestId('session').textContent()).toContain('Visitor');
      await page.getByRole('link', { name: 'Profile' }).click();
      await page.getByText('You are browsing as a visitor').waitFor();
    });
  });

  it('signs in through the hosted page and comes back with the code in the fragment', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { email, password } = await registeredMember('hosted');
    await inPage(stage(), 'site-hosted-sign-in', async (page) => {
      const returns: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame() && frame.url().includes('/site/callback')) returns.push(frame.url());
      });
      await page.goto('/site/sign-in');
      await page.getByRole('button', { name: 'Continue to the sign-in page' }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/site/'));
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: /sign in|log in/i }).click();
      await page.waitForURL(/\/site\/profile$/);
      expect(returns[0]).toMatch(/\/site\/callback#.*code=/);
      expect(returns[0]).toMatch(/state=/);
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);
    });
  });

  it('hosted page: a wrong password, then Back after signing in shows a spent page; a stale callback goes home signed in', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { email, password } = await registeredMember('back');
    await inPage(
      stage(),
      'site-hosted-back',
      async (page) => {
        await page.goto('/site/sign-in');
        await page.getByRole('button', { name: 'Continue to the sign-in page' }).click();
        await page.waitForURL((url) => url.pathname.startsWith('/_pages/auth/'));
        const hostedPage = page.url();
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill('not the password');
        await page.getByRole('button', { name: 'Sign in' }).click();
        // Post-redirect-get: the error shows on the page's own URL, reached by a GET.
        await page.getByRole('alert').waitFor();
        expect(page.url()).toBe(hostedPage);
        expect(await page.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
          '/site/recover',
        );
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(/\/site\/profile$/);
        await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);

        // Back: the spent page says so, with the way back to the app (no form, no resubmission).
        await page.goBack();
        await page.waitForURL(hostedPage);
        await page.getByText('This sign-in is complete').waitFor();
        expect(await page.locator('form').count()).toBe(0);
        await page.getByRole('link', { name: 'Back to the app' }).click();
        await page.waitForURL(`${stage().emulator.url}/`);
        await expect.poll(() => page.getByTestId('session').textContent()).toContain('Member');

        // A stale return to the callback (nothing waits for its code): home, still signed in.
        await page.goto('/site/callback#code=stale&state=stale');
        await page.waitForURL(`${stage().emulator.url}/`);
        await expect.poll(() => page.getByTestId('session').textContent()).toContain('Member');
        expect(await page.getByRole('alert').count()).toBe(0);
      },
      { expectedFailures: /\/_pages\/auth\// },
    );
  });

  it('signs in again silently through the hidden iframe after a reload', { timeout: e2eTestTimeoutMs }, async () => {
    const { email, password } = await registeredMember('silent');
    await inPage(stage(), 'site-silent-sign-in', async (page) => {
      await page.goto('/site/sign-in');
      const form = page.getByRole('form', { name: 'Sign in with email and password' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill(password);
      await form.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/site\/profile$/);
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);

      // The tokens live in memory only: after a reload, only the emulator's session cookie remains.
      const silentFrames: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame !== page.mainFrame()) silentFrames.push(frame.url());
      });
      await page.reload();
      await expect.poll(() => page.getByTestId('session').textContent()).toContain('Member');
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);
      expect(silentFrames.length, 'a hidden frame did the silent sign-in').toBeGreaterThan(0);
      expect(await page.evaluate(() => Object.keys(window.localStorage).length), 'no tokens kept in storage').toBe(0);
    });
  });

  it('keeps the member signed in across a reload at http://localhost too (not only 127.0.0.1)', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { email, password } = await registeredMember('localhost');
    const localhost = stage().emulator.url.replace('127.0.0.1', 'localhost');
    await inPage(stage(), 'site-localhost-reload', async (page) => {
      await page.goto(`${localhost}/site/sign-in`);
      const form = page.getByRole('form', { name: 'Sign in with email and password' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill(password);
      await form.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${localhost}/site/profile`);
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);
      await page.reload();
      await expect.poll(() => page.getByTestId('session').textContent()).toContain('Member');
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);
    });
  });

  it('shows a wrong password as an error with its message and code', { timeout: e2eTestTimeoutMs }, async () => {
    const { email } = await registeredMember('wrong');
    await inPage(
      stage(),
      'site-wrong-password',
      async (page) => {
        await page.goto('/site/sign-in');
        const form = page.getByRole('form', { name: 'Sign in with email and password' });
        await form.getByLabel('Email').fill(email);
        await form.getByLabel('Password').fill('not the password');
        await form.getByLabel('Password').press('Enter');
        const alert = form.getByRole('alert');
        await alert.waitFor();
        expect(await alert.getByTestId('error-code').textContent()).toContain('invalidPassword');
        expect(await alert.getByTestId('error-message').textContent()).not.toBe('');
        await expect.poll(() => page.getByTestId('session').textContent()).toContain('Visitor');
      },
      { expectedFailures: /\/_api\/iam\/authentication\// },
    );
  });

  it('shows the demo member’s credentials on the sign-in page, and they sign in', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'site-demo-credentials', async (page) => {
      await page.goto('/site/sign-in');
      expect(await page.getByTestId('demo-credentials').textContent()).toContain('ada@example.com / demo-password');
      await page.getByRole('button', { name: 'Use the demo member' }).click();
      const form = page.getByRole('form', { name: 'Sign in with email and password' });
      await form.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/site\/profile$/);
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe('ada@example.com');
    });
  });

  it('says that a blocked account is blocked, not "Unknown _state"', { timeout: e2eTestTimeoutMs }, async () => {
    const { email, password } = await registeredMember('blocked');
    const admin = adminClient();
    const [member] = (await admin.members.queryMembers().eq('loginEmail', email).find()).items;
    await admin.members.blockMember(member!._id!);
    await inPage(stage(), 'site-blocked-account', async (page) => {
      await page.goto('/site/sign-in');
      const form = page.getByRole('form', { name: 'Sign in with email and password' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill(password);
      await form.getByRole('button', { name: 'Sign in' }).click();
      const alert = form.getByRole('alert');
      await alert.waitFor();
      expect(await alert.getByTestId('error-message').textContent()).toMatch(/^This account is blocked/);
      expect(await alert.getByTestId('error-code').textContent()).toContain('STATUS_CHECK');
    });
  });

  it('shows a wrong verification code in the server’s words, without the SDK’s call name', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await setEmulatorConfig(stage(), { emailVerificationRequired: true });
    await inPage(
      stage(),
      'site-wrong-code',
      async (page) => {
        await page.goto('/site/register');
        const form = page.getByRole('form', { name: 'Register' });
        await form.getByLabel('Email').fill(newEmail('code'));
        await form.getByLabel('Password').fill('a long passphrase');
        await form.getByRole('button', { name: 'Create account' }).click();
        await page.getByLabel('Verification code').fill('000000');
        await page.getByRole('button', { name: 'Verify' }).click();
        const message = page.getByRole('alert').getByTestId('error-message');
        await message.waitFor();
        expect(await message.textContent()).toBe(
          'The verification code is wrong; the latest emailed code is the one that works',
        );
      },
      { expectedFailures: /\/_api\/iam\/verification\// },
    );
    await setEmulatorConfig(stage(), { emailVerificationRequired: false });
  });

  it('resets a forgotten password with the link from the outbox, then signs in with the new one', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const { email } = await registeredMember('forgetful');
    await inPage(stage(), 'site-password-recovery', async (page) => {
      await page.goto('/site/sign-in');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.waitForURL(/\/site\/recover$/);
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByRole('button', { name: 'Send the reset link' }).click();
      await page.getByTestId('outbox-link').first().click();
      await page.waitForURL(/\/site\/reset-password\?/);
      await page.getByLabel('New password').fill('a brand new secret');
      await page.getByRole('button', { name: 'Set password' }).click();
      await page.getByText('Your password was changed.').waitFor();
      // One sentence on one line, its link inside it (it was split in three lines around the link).
      const notice = page.getByRole('status').filter({ hasText: 'Your password was changed.' });
      const { height, lineHeight } = await notice.evaluate((element) => {
        const text = document.createRange();
        text.selectNodeContents(element);
        const rects = [...text.getClientRects()];
        return {
          height: Math.max(...rects.map((rect) => rect.bottom)) - Math.min(...rects.map((rect) => rect.top)),
          lineHeight: Number.parseFloat(getComputedStyle(element).lineHeight),
        };
      });
      expect(height).toBeLessThan(lineHeight * 1.5);

      await page.getByRole('link', { name: 'Sign in', exact: true }).last().click();
      const form = page.getByRole('form', { name: 'Sign in with email and password' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill('a brand new secret');
      await form.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/site\/profile$/);
      await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(email);
    });
  });

  it('browses Movies as a visitor with a filter, a sort and paging', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'site-browse', async (page) => {
      await page.goto('/site/browse');
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await page.getByLabel('Filter 1 field').fill('year');
      await page.getByLabel('Filter 1 operator').selectOption('ge');
      await page.getByLabel('Filter 1 value').fill('2000');
      await page.getByLabel('Sort by').fill('year');
      await page.getByLabel('Order').selectOption('descending');
      await page.getByRole('button', { name: 'Run query' }).click();

      const table = page.getByTestId('browse-table');
      const years = async () =>
        table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Number(row.children[1]?.textContent)));
      await expect.poll(async () => (await years()).length).toBe(10);
      const firstPage = await years();
      expect(firstPage.every((year) => year >= 2000)).toBe(true);
      expect([...firstPage].sort((a, b) => b - a)).toEqual(firstPage);

      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => page.getByTestId('pager-status').textContent()).toMatch(/^Showing 11–20/);
      expect((await years()).every((year) => year >= 2000 && year <= firstPage[9]!)).toBe(true);
    });
  });

  it('browse types filter values by field (a date, text that looks numeric) and keeps them in the URL', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    const admin = adminClient();
    await admin.items.insert('Movies', { title: '1984', year: 1956 });
    const since2010 = await admin.items.query('Movies').ge('releaseDate', new Date('2010-01-01')).count();
    expect(since2010).toBeGreaterThan(0);
    await inPage(stage(), 'site-browse-typed', async (page) => {
      await page.goto('/site/browse');
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await page.getByLabel('Filter 1 field').fill('title');
      await page.getByLabel('Filter 1 value').fill('1984');
      await page.getByRole('button', { name: 'Run query' }).click();
      await expect.poll(() => page.getByTestId('pager-status').textContent()).toMatch(/of 1\b/);
      expect(await page.getByTestId('browse-table').textContent()).toContain('1984');

      await page.getByLabel('Filter 1 field').fill('releaseDate');
      await page.getByLabel('Filter 1 operator').selectOption('ge');
      await page.getByLabel('Filter 1 value').fill('2010-01-01');
      await page.getByRole('button', { name: 'Run query' }).click();
      const status = new RegExp(`of ${since2010}$`);
      await expect.poll(() => page.getByTestId('pager-status').textContent()).toMatch(status);
      expect(new URL(page.url()).searchParams.getAll('filter')).toEqual(['releaseDate:ge:2010-01-01']);

      // A reload keeps the query: it is in the URL.
      await page.reload();
      await expect.poll(() => page.getByTestId('pager-status').textContent()).toMatch(status);
      expect(await page.getByLabel('Filter 1 value').inputValue()).toBe('2010-01-01');
    });
  });

  it('uploads a file under the resumable threshold with a moving progress bar too', {
    timeout: e2eTestTimeoutMs,
  }, async () => {
    await inPage(stage(), 'site-simple-upload-progress', async (page, context) => {
      await page.goto('/site/uploads');
      // A slow uplink (Chromium's network emulation), so the one PUT takes a second or two.
      const devtools = await context.newCDPSession(page);
      await devtools.send('Network.enable');
      await devtools.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 2 * 1024 * 1024,
      });
      const seen = await progressValues(page);
      await page.getByTestId('upload-input').setInputFiles({
        name: 'notes.bin',
        mimeType: 'application/octet-stream',
        buffer: Buffer.alloc(3 * 1024 * 1024, 3),
      });
      await page.getByTestId('uploaded-files').getByText('notes.bin').waitFor({ timeout: 45_000 });
      const values = [...seen];
      expect(
        values.filter((value) => value > 0 && value < 100).length,
        `intermediate progress (${values.join(', ')})`,
      ).toBeGreaterThan(1);
    });
  });

  it('uploads a large file resumably with a moving progress bar', { timeout: e2eTestTimeoutMs }, async () => {
    await inPage(stage(), 'site-resumable-upload', async (page) => {
      await page.goto('/site/uploads');
      // Over the 10 MiB threshold: sent with TUS in chunks, so the bar has time to move.
      const large = Buffer.alloc(12 * 1024 * 1024, 7);
      const seen = await progressValues(page);
      await page
        .getByTestId('upload-input')
        .setInputFiles({ name: 'archive.bin', mimeType: 'application/octet-stream', buffer: large });
      await page.getByTestId('uploaded-files').getByText('archive.bin').waitFor({ timeout: 45_000 });
      const values = [...seen];
      expect(
        values.some((value) => value > 0 && value < 100),
        `intermediate progress (${values.join(', ')})`,
      ).toBe(true);
    });
  });
});
