/**
 * The Playwright recipe's tests: each worker's tests run on its own site (the same email registers
 * in every worker without a clash), through the site's hosted sign-in page in the browser.
 */
// README:start
import { ApiKeyStrategy, OAuthStrategy, createClient } from '../../src/index.js';
import { expect, test } from './site-fixture.js';

test("a member of this worker's site signs in on its hosted page", async ({ page, site }) => {
  const email = 'worker-member@example.com'; // the same in every worker: each has its own site
  const visitor = createClient({ baseUrl: site.info.url, auth: OAuthStrategy({ clientId: site.info.clientId }) });
  await visitor.auth.register({ email, password: 'a long password' });
  const { authUrl } = await visitor.auth.getAuthUrl(await visitor.auth.generateOAuthData(`${site.info.url}/`));
  await page.goto(authUrl); // under /_sites/<siteId>/: the site's own page
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/code=/);
});

test("this worker's site keeps its own data", async ({ site }) => {
  const admin = createClient({
    baseUrl: site.info.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
  });
  await admin.items.save('Movies', { _id: 'worker-movie', title: `Only on ${site.info.siteId}` });
  expect((await admin.items.get('Movies', 'worker-movie'))?.title).toBe(`Only on ${site.info.siteId}`);
});
// README:end
