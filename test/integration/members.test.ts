/**
 * Members through the SDK against the emulator: create, get by id and slug, my member, list and
 * query with paging, updates, slugs, statuses, community, deletes (single, bulk, by filter,
 * sub-resources), field sets, and who may do what (a member on itself, the API key on anyone,
 * visitors on nothing private).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApplicationError, isElevationRequiredError, type Client, type OAuthAuth } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { newEmail, sessionTokenOf } from '../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** A member registered through the SDK, and its signed-in client. */
async function signedInMember(nickname: string): Promise<{ client: Client<OAuthAuth>; id: string; email: string }> {
  const client = emulator.newVisitor();
  const email = newEmail(nickname.toLowerCase());
  const outcome = await client.auth.register({ email, password: 'member password', profile: { nickname } });
  await client.auth.getMemberTokensForDirectLogin(sessionTokenOf(outcome), { redirectUri: 'http://localhost:3000/cb' });
  const me = (await client.members.getCurrentMember()).member!;
  return { client, id: me._id!, email };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as { code: string; status: number },
  );

describe('members', () => {
  it('create, get with each field set, slug changes (unique), update, delete', async () => {
    const { admin } = emulator;
    const email = newEmail('created');
    const created = await admin.members.createMember({
      member: {
        loginEmail: email,
        profile: { nickname: 'Hedy Lamarr' },
        contact: { firstName: 'Hedy', phones: ['+1 555 0100'] },
      },
    });
    expect(created).toMatchObject({
      loginEmail: email,
      status: 'APPROVED',
      profile: { nickname: 'Hedy Lamarr', slug: 'hedy-lamarr' },
    });
    expect(created._createdDate).toBeInstanceOf(Date);

    expect((await admin.members.getMember('hedy-lamarr'))._id).toBe(created._id);
    const publicView = await admin.members.getMember(created._id!);
    expect(Object.keys(publicView).sort()).toEqual(['_id', 'contactId', 'profile']);
    const extended = await admin.members.getMember(created._id!, { fieldsets: ['EXTENDED'] });
    expect(extended).toMatchObject({
      loginEmail: email,
      status: 'APPROVED',
      privacyStatus: 'PUBLIC',
      activityStatus: 'ACTIVE',
    });
    expect(extended.contact).toBeUndefined();
    expect((await admin.members.getMember(created._id!, { fieldsets: ['FULL'] })).contact).toMatchObject({
      firstName: 'Hedy',
    });

    const other = await admin.members.createMember({
      member: { loginEmail: newEmail('other'), profile: { nickname: 'Other' } },
    });
    const clash = await failure(admin.members.updateMemberSlug(other._id!, 'hedy-lamarr'));
    expect(clash).toMatchObject({ status: 409, code: 'SLUG_ALREADY_EXISTS' });
    expect((await admin.members.getMember(other._id!)).profile?.slug).toBe('other');
    expect((await admin.members.updateMemberSlug(other._id!, 'frequency-hopping')).member?.profile?.slug).toBe(
      'frequency-hopping',
    );
    expect(await failure(admin.members.updateMemberSlug(other._id!, 'Not A Slug'))).toMatchObject({ status: 400 });

    const byEmail = await failure(admin.members.createMember({ member: { loginEmail: email.toUpperCase() } }));
    expect(byEmail).toMatchObject({ status: 409 });

    const updated = await admin.members.updateMember(created._id!, {
      contact: { lastName: 'Lamarr' },
      profile: { title: 'Inventor' },
    });
    expect(updated).toMatchObject({
      contact: { firstName: 'Hedy', lastName: 'Lamarr' },
      profile: { nickname: 'Hedy Lamarr', title: 'Inventor' },
    });

    // The official types promise the list: an empty one after the delete.
    expect((await admin.members.deleteMemberPhones(created._id!)).member?.contact?.phones).toEqual([]);
    await admin.members.deleteMember(created._id!);
    expect(await failure(admin.members.getMember(created._id!))).toMatchObject({
      status: 404,
      code: 'MEMBER_NOT_FOUND',
    });
  });

  it('approve, block, mute, unmute, disconnect; bulk approve, block and delete by filter', async () => {
    const { admin } = emulator;
    const member = await admin.members.createMember({
      member: { loginEmail: newEmail('status'), profile: { nickname: 'Statuses' } },
    });
    expect((await admin.members.blockMember(member._id!)).member?.status).toBe('BLOCKED');
    expect((await admin.members.approveMember(member._id!)).member?.status).toBe('APPROVED');
    expect((await admin.members.muteMember(member._id!)).member?.activityStatus).toBe('MUTED');
    expect((await admin.members.unmuteMember(member._id!)).member?.activityStatus).toBe('ACTIVE');
    expect((await admin.members.disconnectMember(member._id!)).member?.status).toBe('OFFLINE');

    const tag = `bulk${Date.now()}`;
    const ids = [];
    for (let index = 0; index < 3; index++)
      ids.push(
        (
          await admin.members.createMember({
            member: { loginEmail: newEmail(tag), profile: { nickname: `${tag} ${index}` } },
          })
        )._id!,
      );
    const matching = admin.members.queryMembers().startsWith('profile.nickname', tag);
    expect((await admin.members.bulkBlockMembers(matching)).jobId).toBeTruthy();
    expect(
      new Set(
        (
          await admin.members
            .queryMembers({ fieldsets: ['FULL'] })
            .startsWith('profile.nickname', tag)
            .find()
        ).items.map((found) => found.status),
      ),
    ).toEqual(new Set(['BLOCKED']));
    await admin.members.bulkApproveMembers(matching);
    expect((await admin.members.getMember(ids[0]!, { fieldsets: ['FULL'] })).status).toBe('APPROVED');

    const bulk = await admin.members.bulkDeleteMembers([ids[0]!, 'no-such-member']);
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 1 });
    expect(bulk.results![1]!.itemMetadata).toMatchObject({ success: false, error: { code: 'MEMBER_NOT_FOUND' } });
    await admin.members.bulkDeleteMembersByFilter(matching);
    expect((await admin.members.queryMembers().startsWith('profile.nickname', tag).find()).items).toEqual([]);
  });

  it('query: filter, sort, offset paging with totals, search', async () => {
    const { admin } = emulator;
    const tag = `query${Date.now()}`;
    for (const name of ['Charlie', 'alpha', 'Bravo', 'delta', 'Echo'])
      await admin.members.createMember({
        member: { loginEmail: newEmail(tag), profile: { nickname: `${tag} ${name}` } },
      });
    const first = await admin.members
      .queryMembers()
      .startsWith('profile.nickname', tag)
      .ascending('profile.nickname')
      .limit(2)
      .find();
    expect(first.items.map((found) => found.profile?.nickname?.split(' ')[1])).toEqual(['Bravo', 'Charlie']);
    expect(first.totalCount).toBe(5);
    const second = await first.next();
    expect(second.items.map((found) => found.profile?.nickname?.split(' ')[1])).toEqual(['Echo', 'alpha']);
    const searched = await admin.members.queryMembers({ search: { expression: `${tag} ECH` } }).find();
    expect(searched.items.map((found) => found.profile?.nickname)).toEqual([`${tag} Echo`]);
    const listed = await admin.members.listMembers({ paging: { limit: 3 }, fieldsets: ['EXTENDED'] });
    expect(listed.members).toHaveLength(3);
    expect(listed.members![0]!.status).toBeDefined();
  });
});

describe('demo members', () => {
  it('are seeded: Ada signs in with the demo password; the pending one waits; the private one is hidden from visitors', async () => {
    const visitor = emulator.newVisitor();
    expect((await visitor.auth.login({ email: 'ada@example.com', password: 'demo-password' })).loginState).toBe(
      'SUCCESS',
    );
    expect((await visitor.auth.login({ email: 'pending@example.com', password: 'anything' })).loginState).toBe(
      'FAILURE',
    );
    const nicknames = (
      await emulator.newVisitor().members.queryMembers().startsWith('profile.nickname', 'A').find()
    ).items.map((found) => found.profile?.nickname);
    expect(nicknames).toContain('Ada Lovelace');
    expect(nicknames).not.toContain('Alan Turing');
    const pending = await emulator.admin.members
      .queryMembers({ fieldsets: ['FULL'] })
      .eq('loginEmail', 'pending@example.com')
      .find();
    expect(pending.items[0]!.status).toBe('PENDING');
  });
});

describe('permissions', () => {
  it('a member edits itself, never another member; visitors see public members only, PUBLIC fields', async () => {
    const ada = await signedInMember('Ada');
    const bob = await signedInMember('Bob');

    const own = await ada.client.members.updateMember(ada.id, { profile: { title: 'Countess' } });
    expect(own.profile?.title).toBe('Countess');
    const denied = await failure(ada.client.members.updateMember(bob.id, { profile: { title: 'Hacked' } }));
    expect(denied).toMatchObject({ status: 403 });
    expect((await emulator.admin.members.getMember(bob.id)).profile?.title).toBeUndefined();

    // Elevated-only routes are refused before any request by the SDK, and by the emulator for raw calls.
    await expect(ada.client.members.blockMember(bob.id)).rejects.toSatisfy(isElevationRequiredError);
    const raw = await emulator.fetch(`/members/v1/members/${bob.id}/block`, {
      method: 'POST',
      headers: { authorization: ada.client.auth.getTokens().accessToken.value, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(403);

    // Others get the PUBLIC field set, whatever they ask.
    const seenByBob = await bob.client.members.getMember(ada.id, { fieldsets: ['FULL'] });
    expect(Object.keys(seenByBob).sort()).toEqual(['_id', 'contactId', 'profile']);
    expect((await ada.client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(ada.email);

    // A private member disappears for visitors and other members.
    await ada.client.members.leaveCommunity();
    expect(await failure(emulator.newVisitor().members.getMember(ada.id))).toMatchObject({ status: 404 });
    expect(await failure(bob.client.members.getMember(ada.id))).toMatchObject({ status: 404 });
    const visible = await emulator.newVisitor().members.queryMembers().in('_id', [ada.id, bob.id]).find();
    expect(visible.items.map((found) => found._id)).toEqual([bob.id]);
    expect((await ada.client.members.joinCommunity()).member?.privacyStatus).toBe('PUBLIC');

    // A visitor has no "my member".
    const visitorError = await failure(emulator.newVisitor().members.getCurrentMember());
    expect(isApplicationError(visitorError)).toBe(true);
    expect(visitorError.status).toBe(403);
  });

  it('my slug and deleting my member', async () => {
    const carol = await signedInMember('Carol');
    expect((await carol.client.members.updateCurrentMemberSlug(`carol-${Date.now()}`)).member?.profile?.slug).toMatch(
      /^carol-\d+$/,
    );
    await carol.client.members.deleteMyMember();
    expect(await failure(emulator.admin.members.getMember(carol.id))).toMatchObject({ status: 404 });
    expect(await emulator.newVisitor().auth.login({ email: carol.email, password: 'member password' })).toMatchObject({
      loginState: 'FAILURE',
    });
  });
});
