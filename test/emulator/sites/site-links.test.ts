/**
 * The links a site hands out find that site without any header: its hosted sign-in pages (the
 * redirect flow end to end, with the browser cookie of that site only), its upload URLs (one PUT and
 * TUS) and its media URLs, all under `/_sites/<siteId>`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorSite } from '../../../emulator/index.js';
import { ApiKeyStrategy, OAuthStrategy, createClient } from '../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
let site: EmulatorSite;
beforeAll(async () => {
  emulator = await startEmulator();
  site = await emulator.createSite({ from: 'empty' });
});
afterAll(() => emulator?.close());

const APP = 'http://127.0.0.1:5173/callback';
const siteAdmin = () =>
  createClient({
    baseUrl: site.info.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
  });
const siteVisitor = () =>
  createClient({ baseUrl: site.info.url, auth: OAuthStrategy({ clientId: site.info.clientId }) });

describe("a site's links", () => {
  it("the redirect flow on the site's hosted page signs in the site's member, with a cookie of that site's path", async () => {
    const email = `links-${Date.now()}@example.test`;
    const password = 'site page password';
    expect((await siteVisitor().auth.register({ email, password })).loginState).toBe('SUCCESS');

    const client = siteVisitor();
    const data = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data);
    expect(authUrl.startsWith(`${emulator.url}/_sites/${site.info.siteId}/_pages/auth/`)).toBe(true);
    const page = await fetch(authUrl);
    expect(page.status).toBe(200);
    // The form posts back to the site's page.
    expect(await page.text()).toContain(`action="/_sites/${site.info.siteId}/_pages/auth/`);
    const response = await fetch(authUrl, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'login', email, password }).toString(),
    });
    expect(response.status).toBe(302);
    expect(response.headers.get('set-cookie')).toContain(`Path=/_sites/${site.info.siteId};`);
    const { code, state } = client.auth.parseFromUrl(response.headers.get('location')!);
    await client.auth.getMemberTokens(code, state, data);
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(email);

    // The default site knows no such member: the same email and password are refused there.
    await expect(emulator.newVisitor().auth.login({ email, password })).resolves.not.toMatchObject({
      loginState: 'SUCCESS',
    });
  });

  it("uploads (one PUT and TUS) land in the site's media, and its file URLs serve them; the default site has none of them", async () => {
    const admin = siteAdmin();
    const bytes = Buffer.from('bytes of the new site\n');
    const put = await admin.media.upload(new Blob([new Uint8Array(bytes)], { type: 'text/plain' }), {
      fileName: 'put.txt',
    });
    const resumable = await admin.media.upload(Buffer.alloc(64 * 1024, 7), {
      mimeType: 'application/octet-stream',
      fileName: 'tus.bin',
      resumable: true,
    });
    expect(put.url).toContain(`/_sites/${site.info.siteId}/_media/`);
    const served = await fetch(put.url!);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
    const { downloadUrls } = await admin.media.generateFileDownloadUrl(resumable._id!);
    const downloaded = await fetch(downloadUrls![0]!.url!);
    expect(downloaded.status).toBe(200);
    expect((await downloaded.arrayBuffer()).byteLength).toBe(64 * 1024);

    const ids = (await emulator.admin.media.listFiles()).files!.map((file) => file._id);
    expect(ids).not.toContain(put._id);
    expect(ids).not.toContain(resumable._id);
    // The file's URL without the site's path is the default site's: not there.
    expect((await fetch(put.url!.replace(`/_sites/${site.info.siteId}`, ''))).status).toBe(404);
  });

  it('a link to a site that is not there is a 404, whatever its id holds', async () => {
    for (const id of ['no-such-site', '%E0%A4%A', '..%2F..', '%00']) {
      const response = await fetch(`${emulator.url}/_sites/${id}/_media/files/x`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ details: { applicationError: { code: 'SITE_NOT_FOUND' } } });
    }
    // The server still answers.
    expect((await fetch(`${emulator.url}/_emulator/health`)).status).toBe(200);
  });
});
