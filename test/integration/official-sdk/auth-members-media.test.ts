/**
 * The official client's sign-in flows, members and uploads against the emulator: register with
 * the emailed code, direct login turned into member tokens (outside a browser: the hosted page's
 * redirect read with a manual-redirect fetch), external login, members, a member session that
 * outlives several access-token lifetimes (the official client keeps its first refresh token and
 * sends it at every renewal), and an upload.
 */
import { files } from '@wix/media';
import { members } from '@wix/members';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newEmail, readOutbox, setConfig } from '../../helpers/sign-in.js';
import { useOfficialHarness } from './harness.js';

const harness = useOfficialHarness();

/** Where the pretend app's sign-in lands (the demo client allows any localhost redirect). */
const APP = 'http://localhost:5999/callback';

beforeAll(() =>
  setConfig(harness.emulator, {
    emailVerificationRequired: false,
    ownerApprovalRequired: false,
    captchaRequired: false,
  }),
);
afterEach(() => setConfig(harness.emulator, { emailVerificationRequired: false }));

/** The authorization code of the hosted page for a session token: its redirects followed by hand, up to the app's URL. */
async function codeFromHostedPage(authUrl: string): Promise<string> {
  let url = authUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (url.startsWith(APP)) return url;
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    if (!location) throw new Error(`no redirect from ${url}: ${response.status}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects');
}

/** A session token turned into member tokens as the official client does it, with the page read outside a browser. */
async function memberTokensFor(client: any, sessionToken: string) {
  const oauthData = client.auth.generateOAuthData(APP);
  const { authUrl } = await client.auth.getAuthUrl(oauthData, { prompt: 'none', sessionToken, responseMode: 'query' });
  const { code, state } = client.auth.parseFromUrl(await codeFromHostedPage(authUrl), 'query');
  return client.auth.getMemberTokens(code, state, oauthData);
}

describe('sign-in', () => {
  it('register → emailed code → verify → direct login → the current member', async () => {
    await setConfig(harness.emulator, { emailVerificationRequired: true });
    const client: any = harness.visitor({ members });
    const email = newEmail('official');
    const registered = await client.auth.register({
      email,
      password: 'a long passphrase',
      profile: { nickname: 'Off' },
    });
    expect(registered.loginState).toBe('EMAIL_VERIFICATION_REQUIRED');
    const [mail] = await readOutbox(harness.emulator, email);
    const verified = await client.auth.processVerification({ verificationCode: mail!.code });
    expect(verified.loginState).toBe('SUCCESS');

    const loggedIn = await client.auth.login({ email, password: 'a long passphrase' });
    expect(loggedIn.loginState).toBe('SUCCESS');
    client.auth.setTokens(await memberTokensFor(client, loggedIn.data.sessionToken));
    expect(client.auth.loggedIn()).toBe(true);
    const { member } = await client.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(member).toMatchObject({ loginEmail: email, profile: { nickname: 'Off' } });
  });

  it('a wrong password: FAILURE with invalidPassword', async () => {
    const client: any = harness.visitor({ members });
    const email = newEmail('wrong');
    expect((await client.auth.register({ email, password: 'right password' })).loginState).toBe('SUCCESS');
    const outcome = await client.auth.login({ email, password: 'wrong password' });
    expect(outcome).toMatchObject({ loginState: 'FAILURE', errorCode: 'invalidPassword' });
  });

  it('external login with the API key; members: get, update, query', async () => {
    const admin: any = harness.admin({ members });
    const created = await admin.members.createMember({ member: { loginEmail: newEmail('external') } });
    const client: any = harness.visitor({ members });
    client.auth.setTokens(await client.auth.getMemberTokensForExternalLogin(created._id, harness.emulator.info.apiKey));
    const { member } = await client.members.getCurrentMember();
    expect(member._id).toBe(created._id);
    const updated = await client.members.updateMember(created._id, { profile: { nickname: 'Renamed' } });
    expect(updated.profile.nickname).toBe('Renamed');
    const found = await admin.members.queryMembers().eq('_id', created._id).find();
    expect(found.items.map((item: { _id: string }) => item._id)).toEqual([created._id]);
  });
});

describe('a member session across several access-token lifetimes', () => {
  afterAll(() => vi.useRealTimers());

  it('renews with the same refresh token again and again and stays the member', async () => {
    const admin: any = harness.admin({ members });
    const created = await admin.members.createMember({ member: { loginEmail: newEmail('long') } });
    const client: any = harness.visitor({ members });
    client.auth.setTokens(await client.auth.getMemberTokensForExternalLogin(created._id, harness.emulator.info.apiKey));
    const firstRefreshToken = client.auth.getTokens().refreshToken.value;
    const renewals = () => harness.sent.filter((request) => request.path == '/oauth2/token').length;
    // The emulator's clock (started before Date was faked) reads the real time plus its offset;
    // the official client's expiry check reads Date: both move by the same amount.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const lifetime = 4 * 60 * 60 + 60;
    for (let round = 1; round <= 3; round++) {
      vi.setSystemTime(Date.now() + lifetime * 1000);
      await harness.emulator.clock.advance(lifetime);
      const before = renewals();
      const { member } = await client.members.getCurrentMember();
      expect(member._id, `round ${round}`).toBe(created._id);
      expect(renewals(), `round ${round}: one renewal`).toBe(before + 1);
      expect(client.auth.getTokens().refreshToken.value).toBe(firstRefreshToken);
    }
    const renewalBodies = harness.sent.filter((request) => request.path == '/oauth2/token').slice(-3);
    expect(renewalBodies.map((request) => request.body)).toEqual(
      Array(3).fill({
        clientId: harness.emulator.info.clientId,
        refreshToken: firstRefreshToken,
        grantType: 'refresh_token',
      }),
    );
  });
});

describe('media', () => {
  it('upload URL → PUT the bytes → the file descriptor', async () => {
    const admin: any = harness.admin({ files });
    const { uploadUrl } = await admin.files.generateFileUploadUrl('text/plain', { fileName: 'note.txt' });
    const put = await fetch(`${uploadUrl}?filename=note.txt`, {
      method: 'PUT',
      headers: { 'content-type': 'text/plain' },
      body: 'hello from the official client',
    });
    expect(put.status).toBe(200);
    const { file } = (await put.json()) as { file: { id: string } };
    const descriptor = await admin.files.getFileDescriptor(file.id);
    expect(descriptor).toMatchObject({ _id: file.id, displayName: 'note.txt', sizeInBytes: '30' });
  });

  it('listFiles: the next page continues the sorted listing (the cursor keeps the sort)', async () => {
    const admin: any = harness.admin({ files });
    for (const name of ['sort-a.txt', 'sort-b.txt', 'sort-c.txt', 'sort-d.txt']) {
      const { uploadUrl } = await admin.files.generateFileUploadUrl('text/plain', { fileName: name });
      const put = await fetch(`${uploadUrl}?filename=${name}`, { method: 'PUT', body: name });
      expect(put.status).toBe(200);
    }
    const sort = { fieldName: 'displayName', order: 'ASC' };
    const first = await admin.files.listFiles({ sort, paging: { limit: 2 } });
    // A cursor stands for the rest of its listing: the next page is asked with the cursor alone.
    const second = await admin.files.listFiles({ paging: { limit: 2, cursor: first.nextCursor.cursors.next } });
    const names = [...first.files, ...second.files].map((file: { displayName: string }) => file.displayName);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(4);
  });
});
