/**
 * The porting guide, proven: a small app written against the official SDK (data, members, media,
 * visitor and member sign-in) runs unchanged on sitekit; only its imports and its client set-up
 * differ. Both set-ups run it against the same emulator, and it reports the same things.
 */
import { collections, items } from '@wix/data';
import { files } from '@wix/media';
import { members } from '@wix/members';
import { beforeAll, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '../../../src/index.js';
import { newEmail, setConfig } from '../../helpers/sign-in.js';
import { useOfficialHarness } from './harness.js';

const harness = useOfficialHarness();
beforeAll(() =>
  setConfig(harness.emulator, {
    emailVerificationRequired: false,
    ownerApprovalRequired: false,
    captchaRequired: false,
  }),
);

/** The app's two clients: the site's (API key) and a visitor's. */
interface Clients {
  admin: any;
  site: any;
}

/** The app, as written for the official SDK: it never names the SDK it runs on. */
async function notesApp({ admin, site }: Clients, apiKey: string, collectionId: string) {
  await admin.collections.createDataCollection({
    _id: collectionId,
    permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'ADMIN' },
    fields: [{ key: 'title', type: 'TEXT' }],
  });
  // A visitor registers and signs in as the member it became.
  const email = newEmail('notes');
  const registered = await site.auth.register({ email, password: 'a long passphrase' });
  const login = await site.auth.login({ email, password: 'a long passphrase' });
  const found = await admin.members.queryMembers().eq('loginEmail', email).find();
  site.auth.setTokens(await site.auth.getMemberTokensForExternalLogin(found.items[0]._id, apiKey));
  const { member } = await site.members.getCurrentMember({ fieldsets: ['FULL'] });
  // The member writes notes and reads them back.
  for (const title of ['first', 'second', 'first']) await site.items.insert(collectionId, { title });
  const page = await site.items.query(collectionId).ascending('title').limit(2).find();
  const { values } = await site.items.distinct(collectionId, 'title');
  // The site uploads a file and reads its descriptor.
  const { uploadUrl } = await admin.files.generateFileUploadUrl('text/plain', { fileName: 'notes.txt' });
  const put = await fetch(`${uploadUrl}?filename=notes.txt`, { method: 'PUT', body: 'notes' });
  const uploaded = (await put.json()) as { file: { id: string } };
  const descriptor = await admin.files.getFileDescriptor(uploaded.file.id);
  return {
    registered: registered.loginState,
    login: login.loginState,
    signedIn: site.auth.loggedIn(),
    member: { email: member.loginEmail, phones: member.contact.phones.length, status: member.status },
    notes: page.items.map((note: { title: string }) => note.title),
    more: page.hasNext(),
    titles: [...values].sort(),
    file: { name: descriptor.displayName, size: descriptor.sizeInBytes },
  };
}

it('the notes app reports the same on the official client and, ported, on sitekit', async () => {
  const { url, info } = harness.emulator;
  const modules = { items, collections, files, members };
  // Official set-up.
  const official = await notesApp(
    { admin: harness.admin(modules), site: harness.visitor(modules) },
    info.apiKey,
    'NotesOfficial',
  );
  // sitekit set-up: the namespaces are there without modules; the official `files` module is `media`.
  const sitekit = (auth: any) => {
    const client = createClient({ baseUrl: url, auth });
    return Object.assign(client, { files: client.media });
  };
  const ported = await notesApp(
    {
      admin: sitekit(ApiKeyStrategy({ apiKey: info.apiKey, siteId: info.siteId })),
      site: sitekit(OAuthStrategy({ clientId: info.clientId })),
    },
    info.apiKey,
    'NotesPorted',
  );
  expect(official).toMatchObject({
    registered: 'SUCCESS',
    login: 'SUCCESS',
    signedIn: true,
    notes: ['first', 'first'],
  });
  expect(ported).toEqual({ ...official, member: { ...official.member, email: ported.member.email } });
  expect(ported.member.email).toMatch(/^notes-/);
});
