/**
 * Every in-scope official method as a call: its official name (`module.function`), who calls it,
 * and its arguments, made fresh for each client that calls it (each side gets its own fixtures,
 * so a delete on one side leaves the other's member in place). The official client and ours take
 * the same arguments: the table is both the official-method check and the porting check.
 */
import type { TestEmulator } from '../../helpers/emulator.js';
import { newEmail, readOutbox, setConfig } from '../../helpers/sign-in.js';

/** Where the pretend app's sign-in lands (the demo client allows any localhost redirect). */
export const APP = 'http://localhost:5999/callback';

/** Who makes a call: the site (API key), a new visitor, or a signed-in member (a new one each call). */
export type Caller = 'admin' | 'visitor' | 'member';

/** What fixtures the arguments of a call are made from (all made with our admin client). */
export interface Fixtures {
  emulator: TestEmulator;
  /** The caller's client (the official one or ours): what the call runs on. */
  client: any;
  /** The signed-in member's ID, for `member` calls. */
  memberId?: string;
  /** A new collection with three items (`a`, `b`, `c`) and a multi-reference field `friends` to itself. */
  collection(): Promise<string>;
  /** A new member (with a first name), elevated-created; its ID. */
  member(): Promise<string>;
  /** A new text file in the media manager; its ID. */
  file(): Promise<string>;
  /** A new video file in the media manager; its ID. */
  video(): Promise<string>;
  /** A URL the emulator serves a new text file at (to import from). */
  fileUrl(): Promise<string>;
  /** A registered member's email (password `a long passphrase`). */
  registered(): Promise<string>;
}

/** One official method. */
export interface MethodCase {
  /** `module.function` as the official SDK names it (`auth` for the client's auth strategy). */
  name: string;
  as: Caller;
  /** The arguments, from fresh fixtures. */
  args?: (fixtures: Fixtures) => unknown[] | Promise<unknown[]>;
  /** How the method is called when it is not `method(...args)`: builders, whose terminal call resolves. */
  call?: (method: any, args: unknown[], fixtures: Fixtures) => unknown;
}

const PASSWORD = 'a long passphrase';

/** The module that holds a case's method, on each client. */
export const officialPlace = (name: string): string[] => name.split('.');
/** Where our client holds a method of an official module: the official names, the five namespaces and `auth`. */
export function ourPlace(name: string): string[] {
  const [module, ...rest] = name.split('.');
  if (module == 'files') return ['media', ...rest];
  if (module == 'verification') return ['auth', 'verification', ...rest];
  if (['authentication', 'recovery', 'redirects', 'apiKey'].includes(module!)) return ['auth', ...rest];
  return [module!, ...rest];
}

/** The code of a visitor's registration that needs email verification: its state token and the emailed code. */
async function pendingVerification(fixtures: Fixtures): Promise<{ stateToken: string; code: string }> {
  const email = newEmail('verify');
  await setConfig(fixtures.emulator, { emailVerificationRequired: true });
  try {
    const outcome = await fixtures.emulator.newVisitor().auth.register({ email, password: PASSWORD });
    if (outcome.loginState != 'EMAIL_VERIFICATION_REQUIRED') throw new Error(`no verification: ${outcome.loginState}`);
    const [mail] = await readOutbox(fixtures.emulator, email);
    return { stateToken: outcome.data.stateToken, code: mail!.code! };
  } finally {
    await setConfig(fixtures.emulator, { emailVerificationRequired: false });
  }
}

/** The recovery token of the reset link emailed to a registered member. */
async function recoveryToken(fixtures: Fixtures): Promise<string> {
  const email = await fixtures.registered();
  await fixtures.emulator.newVisitor().auth.sendPasswordResetEmail(email, APP);
  const [mail] = await readOutbox(fixtures.emulator, email);
  return new URL(mail!.link!).searchParams.get('recoveryToken')!;
}

/** The authorization code the hosted page gives for an auth URL, its redirects followed by hand up to the app's URL. */
export async function codeFromHostedPage(authUrl: string): Promise<string> {
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

const collectionCases: MethodCase[] = [
  {
    name: 'collections.createDataCollection',
    as: 'admin',
    args: () => [{ _id: `Made${crypto.randomUUID().slice(0, 8)}`, fields: [{ key: 'title', type: 'TEXT' }] }],
  },
  { name: 'collections.getDataCollection', as: 'admin', args: async (f) => [await f.collection()] },
  { name: 'collections.listDataCollections', as: 'admin' },
  {
    name: 'collections.updateDataCollection',
    as: 'admin',
    args: async (f) => {
      const collection = await f.emulator.admin.collections.getDataCollection(await f.collection());
      return [{ ...collection, displayName: 'Renamed' }];
    },
  },
  { name: 'collections.deleteDataCollection', as: 'admin', args: async (f) => [await f.collection()] },
];

const itemCases: MethodCase[] = [
  { name: 'items.insert', as: 'admin', args: async (f) => [await f.collection(), { title: 'new', n: 1 }] },
  { name: 'items.update', as: 'admin', args: async (f) => [await f.collection(), { _id: 'a', title: 'changed' }] },
  { name: 'items.save', as: 'admin', args: async (f) => [await f.collection(), { _id: 'a', title: 'saved' }] },
  { name: 'items.get', as: 'admin', args: async (f) => [await f.collection(), 'a'] },
  { name: 'items.remove', as: 'admin', args: async (f) => [await f.collection(), 'a'] },
  { name: 'items.truncate', as: 'admin', args: async (f) => [await f.collection()] },
  {
    name: 'items.bulkInsert',
    as: 'admin',
    args: async (f) => [await f.collection(), [{ title: 'x' }, { title: 'y' }]],
  },
  {
    name: 'items.bulkUpdate',
    as: 'admin',
    args: async (f) => [
      await f.collection(),
      [
        { _id: 'a', title: 'x' },
        { _id: 'b', title: 'y' },
      ],
    ],
  },
  { name: 'items.bulkSave', as: 'admin', args: async (f) => [await f.collection(), [{ _id: 'a' }, { title: 'z' }]] },
  { name: 'items.bulkRemove', as: 'admin', args: async (f) => [await f.collection(), ['a', 'b']] },
  {
    name: 'items.bulkPatch',
    as: 'admin',
    args: async (f) => [await f.collection(), ['a', 'b'], [{ fieldPath: 'n', action: 'INCREMENT_FIELD', value: 2 }]],
  },
  {
    name: 'items.bulkPatch (builder)',
    as: 'admin',
    args: async (f) => [await f.collection(), ['a', 'b']],
    call: (bulkPatch, [collectionId, itemIds]) =>
      bulkPatch(collectionId, itemIds).incrementField('n', 2).setField('title', 'p').removeField('gone').run(),
  },
  { name: 'items.isReferenced', as: 'admin', args: async (f) => [await f.collection(), 'friends', 'a', 'b'] },
  { name: 'items.insertReference', as: 'admin', args: async (f) => [await f.collection(), 'friends', 'a', 'c'] },
  { name: 'items.removeReference', as: 'admin', args: async (f) => [await f.collection(), 'friends', 'a', 'b'] },
  { name: 'items.replaceReferences', as: 'admin', args: async (f) => [await f.collection(), 'friends', 'a', ['c']] },
  {
    name: 'items.query',
    as: 'admin',
    args: async (f) => [await f.collection()],
    call: (query, [collectionId]) => query(collectionId).gt('n', 0).ascending('n').limit(2).find(),
  },
  {
    name: 'items.patch',
    as: 'admin',
    args: async (f) => [await f.collection(), 'a'],
    call: (patch, [collectionId, itemId]) =>
      patch(collectionId, itemId).incrementField('n', 1).setField('title', 'p').run(),
  },
  {
    name: 'items.aggregate',
    as: 'admin',
    args: async (f) => [await f.collection()],
    call: (aggregate, [collectionId]) => aggregate(collectionId).group('kind').sum('n').run(),
  },
  { name: 'items.distinct', as: 'admin', args: async (f) => [await f.collection(), 'kind'] },
  { name: 'items.count', as: 'admin', args: async (f) => [await f.collection()] },
  { name: 'items.queryReferenced', as: 'admin', args: async (f) => [await f.collection(), 'a', 'friends'] },
  { name: 'items.queryReferencedItems', as: 'admin', args: async (f) => [await f.collection(), 'a', 'friends'] },
];

const fileCases: MethodCase[] = [
  { name: 'files.generateFilesDownloadUrl', as: 'admin', args: async (f) => [[await f.file()]] },
  { name: 'files.generateFileDownloadUrl', as: 'admin', args: async (f) => [await f.file()] },
  { name: 'files.getFileDescriptor', as: 'admin', args: async (f) => [await f.file()] },
  { name: 'files.getFileDescriptors', as: 'admin', args: async (f) => [[await f.file()]] },
  {
    name: 'files.updateFileDescriptor',
    as: 'admin',
    args: async (f) => [{ _id: await f.file(), displayName: 'renamed.txt' }],
  },
  { name: 'files.generateFileUploadUrl', as: 'admin', args: () => ['text/plain', { fileName: 'a.txt' }] },
  { name: 'files.generateFileResumableUploadUrl', as: 'admin', args: () => ['text/plain', { fileName: 'a.txt' }] },
  {
    name: 'files.importFile',
    as: 'admin',
    args: async (f) => [await f.fileUrl(), { displayName: 'imported.txt', mimeType: 'text/plain' }],
  },
  {
    name: 'files.bulkImportFiles',
    as: 'admin',
    args: async (f) => [[{ url: await f.fileUrl(), displayName: 'bulk.txt', mimeType: 'text/plain' }]],
  },
  {
    name: 'files.bulkImportFile',
    as: 'admin',
    args: async (f) => [
      [{ url: await f.fileUrl(), displayName: 'bulk.txt', mimeType: 'text/plain' }],
      { returnEntity: true },
    ],
  },
  {
    name: 'files.listFiles',
    as: 'admin',
    args: async (f) => {
      await Promise.all([f.file(), f.file(), f.file()]);
      return [{ paging: { limit: 2 }, sort: { fieldName: 'displayName', order: 'DESC' } }];
    },
  },
  { name: 'files.searchFiles', as: 'admin', args: () => [{ search: 'note', paging: { limit: 2 } }] },
  { name: 'files.generateVideoStreamingUrl', as: 'admin', args: async (f) => [await f.video()] },
  { name: 'files.bulkDeleteFiles', as: 'admin', args: async (f) => [[await f.file()]] },
  {
    name: 'files.bulkRestoreFilesFromTrashBin',
    as: 'admin',
    args: async (f) => {
      const id = await f.file();
      await f.emulator.admin.media.bulkDeleteFiles([id]);
      return [[id]];
    },
  },
  {
    name: 'files.listDeletedFiles',
    as: 'admin',
    args: async (f) => {
      await f.emulator.admin.media.bulkDeleteFiles([await f.file()]);
      return [];
    },
  },
];

const memberCases: MethodCase[] = [
  { name: 'members.updateCurrentMemberSlug', as: 'member', args: () => [`slug-${crypto.randomUUID().slice(0, 8)}`] },
  {
    name: 'members.updateMemberSlug',
    as: 'admin',
    args: async (f) => [await f.member(), `slug-${crypto.randomUUID().slice(0, 8)}`],
  },
  { name: 'members.joinCommunity', as: 'member' },
  { name: 'members.leaveCommunity', as: 'member' },
  { name: 'members.getCurrentMember', as: 'member', args: () => [{ fieldsets: ['FULL'] }] },
  { name: 'members.getMember', as: 'admin', args: async (f) => [await f.member(), { fieldsets: ['FULL'] }] },
  { name: 'members.listMembers', as: 'admin', args: () => [{ paging: { limit: 3 }, fieldsets: ['FULL'] }] },
  {
    name: 'members.queryMembers',
    as: 'admin',
    args: async (f) => [await f.member()],
    call: (queryMembers, [id]) => queryMembers().eq('_id', id).find(),
  },
  { name: 'members.muteMember', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.unmuteMember', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.approveMember', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.blockMember', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.disconnectMember', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.deleteMember', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.deleteMyMember', as: 'member' },
  { name: 'members.bulkDeleteMembers', as: 'admin', args: async (f) => [[await f.member(), await f.member()]] },
  { name: 'members.bulkDeleteMembersByFilter', as: 'admin', args: async (f) => [{ _id: { $in: [await f.member()] } }] },
  { name: 'members.bulkApproveMembers', as: 'admin', args: async (f) => [{ _id: { $in: [await f.member()] } }] },
  { name: 'members.bulkBlockMembers', as: 'admin', args: async (f) => [{ _id: { $in: [await f.member()] } }] },
  { name: 'members.createMember', as: 'admin', args: () => [{ member: { loginEmail: newEmail('created') } }] },
  {
    name: 'members.updateMember',
    as: 'admin',
    args: async (f) => [await f.member(), { profile: { nickname: 'Renamed' } }],
  },
  { name: 'members.deleteMemberPhones', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.deleteMemberEmails', as: 'admin', args: async (f) => [await f.member()] },
  { name: 'members.deleteMemberAddresses', as: 'admin', args: async (f) => [await f.member()] },
];

const authCases: MethodCase[] = [
  { name: 'auth.generateVisitorTokens', as: 'visitor' },
  {
    name: 'auth.renewToken',
    as: 'visitor',
    args: async (f) => [(await f.client.auth.generateVisitorTokens()).refreshToken],
  },
  { name: 'auth.generateOAuthData', as: 'visitor', args: () => [APP, 'http://localhost:5999/page'] },
  { name: 'auth.getAuthUrl', as: 'visitor', args: async (f) => [await f.client.auth.generateOAuthData(APP)] },
  { name: 'auth.parseFromUrl', as: 'visitor', args: () => [`${APP}?code=c&state=s`, 'query'] },
  {
    name: 'auth.getMemberTokens',
    as: 'visitor',
    args: async (f) => {
      const email = await f.registered();
      const outcome = await f.emulator.newVisitor().auth.login({ email, password: PASSWORD });
      if (outcome.loginState != 'SUCCESS') throw new Error(`login: ${outcome.loginState}`);
      const oauthData = await f.client.auth.generateOAuthData(APP);
      const { authUrl } = await f.client.auth.getAuthUrl(oauthData, {
        prompt: 'none',
        responseMode: 'query',
        sessionToken: outcome.data.sessionToken,
      });
      const { code, state } = f.client.auth.parseFromUrl(await codeFromHostedPage(authUrl), 'query');
      return [code, state, oauthData];
    },
  },
  {
    name: 'auth.getMemberTokensForExternalLogin',
    as: 'visitor',
    args: async (f) => [await f.member(), f.emulator.info.apiKey],
  },
  {
    name: 'auth.getMemberTokensForExternalLoginWithSession',
    as: 'visitor',
    args: async (f) => [await f.registered(), f.emulator.info.apiKey],
  },
  { name: 'auth.login', as: 'visitor', args: async (f) => [{ email: await f.registered(), password: PASSWORD }] },
  { name: 'auth.register', as: 'visitor', args: () => [{ email: newEmail('register'), password: PASSWORD }] },
  {
    name: 'auth.processVerification',
    as: 'visitor',
    args: async (f) => {
      const { stateToken, code } = await pendingVerification(f);
      return [{ verificationCode: code }, { loginState: 'EMAIL_VERIFICATION_REQUIRED', data: { stateToken } }];
    },
  },
  { name: 'auth.sendPasswordResetEmail', as: 'visitor', args: async (f) => [await f.registered(), APP] },
  { name: 'auth.logout', as: 'member', args: () => ['http://localhost:5999/'] },
  { name: 'auth.loggedIn', as: 'member' },
  { name: 'auth.getTokens', as: 'member' },
  { name: 'auth.setTokens', as: 'visitor', args: async (f) => [await f.client.auth.generateVisitorTokens()] },
  { name: 'auth.getAuthHeaders', as: 'visitor' },
  { name: 'auth.getActiveToken', as: 'member' },
  { name: 'apiKey.getAuthHeaders', as: 'admin', call: (_method, _args, f) => f.client.auth.getAuthHeaders() },
  {
    name: 'apiKey.setSiteId',
    as: 'admin',
    call: (_method, _args, f) => f.client.auth.setSiteId(f.emulator.info.siteId),
  },
  { name: 'apiKey.setAccountId', as: 'admin', call: (_method, _args, f) => f.client.auth.setAccountId('account') },
];

const identityCases: MethodCase[] = [
  {
    name: 'authentication.registerV2',
    as: 'visitor',
    args: () => [{ email: newEmail('register-v2') }, { password: PASSWORD, profile: { nickname: 'Reg' } }],
  },
  {
    name: 'authentication.loginV2',
    as: 'visitor',
    args: async (f) => [{ email: await f.registered() }, { password: PASSWORD }],
  },
  { name: 'authentication.signOn', as: 'admin', args: async (f) => [{ email: await f.registered() }] },
  {
    name: 'recovery.sendRecoveryEmail',
    as: 'visitor',
    args: async (f) => [await f.registered(), { redirect: { url: APP, clientId: f.emulator.info.clientId } }],
  },
  {
    name: 'recovery.sendActivationEmail',
    as: 'admin',
    args: async (f) => [await f.member()],
  },
  {
    name: 'recovery.recover',
    as: 'visitor',
    args: async (f) => [await recoveryToken(f), { password: 'another long passphrase' }],
  },
  { name: 'verification.start', as: 'member', args: (f) => [{ identityId: f.memberId, target: 'EMAIL' }] },
  {
    name: 'verification.verifyDuringAuthentication',
    as: 'visitor',
    args: async (f) => {
      const { stateToken, code } = await pendingVerification(f);
      return [code, { stateToken }];
    },
  },
  {
    name: 'redirects.createRedirectSession',
    as: 'visitor',
    args: () => [{ login: {}, callbacks: { postFlowUrl: 'http://localhost:5999/' } }],
  },
  {
    name: 'redirects.createRedirectSession (auth)',
    as: 'visitor',
    args: async (f) => {
      const data = await f.client.auth.generateOAuthData(APP);
      return [
        {
          auth: {
            authRequest: {
              redirectUri: APP,
              clientId: f.emulator.info.clientId,
              codeChallenge: data.codeChallenge,
              codeChallengeMethod: 'S256',
              responseMode: 'query',
              responseType: 'code',
              scope: 'offline_access',
              state: data.state,
            },
            prompt: 'login',
          },
        },
      ];
    },
  },
  {
    name: 'redirects.createRedirectSession (logout)',
    as: 'visitor',
    args: (f) => [
      { logout: { clientId: f.emulator.info.clientId }, callbacks: { postFlowUrl: 'http://localhost:5999/' } },
    ],
  },
];

/** Every in-scope official method (the client's GraphQL POST aside: the spec names the call, not the service's schema). */
export const METHOD_CASES: MethodCase[] = [
  ...collectionCases,
  ...itemCases,
  ...fileCases,
  ...memberCases,
  ...authCases,
  ...identityCases,
];
