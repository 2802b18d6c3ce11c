/**
 * The official client's hosted sign-in in Chromium: `getAuthUrl` makes the redirect session, a
 * member signs in on the emulator's hosted page, the page comes back to the app's redirect URI
 * with the code in the fragment, and the official client parses it and exchanges it for member
 * tokens.
 */
import { members } from '@wix/members';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newEmail, setConfig } from '../../helpers/sign-in.js';
import { chromiumArgs, chromiumPath, describeInBrowser } from '../../e2e/harness.js';
import { useOfficialHarness } from './harness.js';

const harness = useOfficialHarness();

/** The pretend app's redirect URI (the demo client allows any localhost port); the browser never reaches it. */
const APP = 'http://localhost:5999/callback';

describeInBrowser('the official client, hosted sign-in page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    await setConfig(harness.emulator, { emailVerificationRequired: false, captchaRequired: false });
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  }, 60_000);
  afterAll(() => browser?.close());

  it('getAuthUrl → sign in on the page → parseFromUrl → getMemberTokens → the current member', {
    timeout: 60_000,
  }, async () => {
    const client: any = harness.visitor({ members });
    const email = newEmail('hosted-official');
    expect((await client.auth.register({ email, password: 'a long passphrase' })).loginState).toBe('SUCCESS');

    const oauthData = client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(oauthData);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // The app is not running: its redirect URI answers from here, so the page's URL can be read.
      await page.route(`${APP}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: 'app' }));
      await page.goto(authUrl);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('a long passphrase');
      await page.getByRole('button', { name: /sign in|log in/i }).click();
      await page.waitForURL((url) => url.toString().startsWith(APP), { timeout: 15_000 });
      const returned = client.auth.parseFromUrl(page.url());
      expect(returned.code).toBeTruthy();
      client.auth.setTokens(await client.auth.getMemberTokens(returned.code, returned.state, oauthData));
    } finally {
      await context.close();
    }
    expect(client.auth.loggedIn()).toBe(true);
    const { member } = await client.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(member.loginEmail).toBe(email);
  });
});
