/** Collections and items through the SDK against the emulator: CRUD, bulk, patch, references, permissions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApplicationError, isValidationError, type Client, type OAuthAuth } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const OPEN = { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } as const;
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as { code: string; status: number; requestId?: string },
  );

let members = 0;
/** A new member (created by the owner) and a client signed in as them (external login with the API key). */
async function memberClient(name: string): Promise<{ client: Client<OAuthAuth>; memberId: string }> {
  const { _id: memberId } = await emulator.admin.members.createMember({
    member: { loginEmail: `${name}-${++members}@example.test` },
  });
  const client = emulator.newVisitor();
  client.auth.setTokens(await client.auth.getMemberTokensForExternalLogin(memberId!, emulator.info.apiKey));
  return { client, memberId: memberId! };
}

describe('collections', () => {
  it('create, get, list, update with the revision, delete', async () => {
    const { admin } = emulator;
    const created = await admin.collections.createDataCollection({
      _id: 'Books',
      displayName: 'Books',
      fields: [{ key: 'title', type: 'TEXT' }],
      permissions: OPEN,
    });
    expect(created).toMatchObject({ _id: 'Books', revision: '1', permissions: OPEN });
    expect(created._createdDate).toBeInstanceOf(Date);
    expect(created.fields!.map((field) => field.key)).toEqual([
      '_id',
      '_createdDate',
      '_updatedDate',
      '_owner',
      'title',
    ]);

    const again = await failure(admin.collections.createDataCollection({ _id: 'Books' }));
    expect(again).toMatchObject({ status: 409, code: 'ALREADY_EXISTS' });

    expect(await admin.collections.getDataCollection('Books')).toMatchObject({ _id: 'Books', displayName: 'Books' });
    const list = await admin.collections.listDataCollections();
    expect(list.collections!.map((collection) => collection._id)).toEqual(expect.arrayContaining(['Books', 'Movies']));

    const updated = await admin.collections.updateDataCollection({ ...created, displayName: 'Library' });
    expect(updated).toMatchObject({ displayName: 'Library', revision: '2' });
    const stale = await failure(admin.collections.updateDataCollection({ ...created, displayName: 'Stale' }));
    expect(stale).toMatchObject({ status: 409, code: 'REVISION_MISMATCH' });

    await admin.collections.deleteDataCollection('Books');
    const missing = await failure(admin.collections.getDataCollection('Books'));
    expect(missing).toMatchObject({ status: 404, code: 'WDE0025' });
    expect(missing.requestId).toMatch(/[0-9a-f-]{36}/);
  });
});

describe('items', () => {
  beforeAll(async () => {
    await emulator.admin.collections.createDataCollection({ _id: 'Notes', permissions: OPEN });
  });
  const items = () => emulator.admin.items;

  it('insert, get, update, save, remove; missing items are null; dates round-trip', async () => {
    const when = new Date('2024-05-06T07:08:09.123Z');
    const inserted = await items().insert('Notes', { _id: 'n1', text: 'hello', when, tags: ['a'] });
    expect(inserted).toMatchObject({ _id: 'n1', text: 'hello', when, tags: ['a'] });
    expect(inserted._createdDate).toBeInstanceOf(Date);
    expect(inserted._owner).toBe(emulator.context.site.ownerId);

    const duplicate = await failure(items().insert('Notes', { _id: 'n1' }));
    expect(duplicate).toMatchObject({ status: 409, code: 'WDE0074' });

    expect(await items().get('Notes', 'n1')).toMatchObject({ text: 'hello', when });
    expect(await items().get('Notes', 'nope')).toBeNull();

    const updated = await items().update('Notes', { _id: 'n1', text: 'bye' });
    expect(updated).toMatchObject({ _id: 'n1', text: 'bye' });
    expect(updated).not.toHaveProperty('when');
    expect(updated._createdDate).toEqual(inserted._createdDate);
    const updateMissing = await failure(items().update('Notes', { _id: 'ghost', text: 'x' }));
    expect(updateMissing).toMatchObject({ status: 404, code: 'WDE0073' });

    const savedNew = await items().save('Notes', { _id: 'n2', text: 'new' });
    expect(savedNew).toMatchObject({ _id: 'n2', text: 'new' });
    const savedOld = await items().save('Notes', { _id: 'n2', text: 'changed' });
    expect(savedOld).toMatchObject({ text: 'changed' });

    const generated = await items().insert('Notes', { text: 'no id' });
    expect(generated._id).toMatch(/^[0-9a-f-]{36}$/);

    expect(await items().remove('Notes', 'n2')).toMatchObject({ _id: 'n2' });
    expect(await items().remove('Notes', 'n2')).toBeNull();
  });

  it('truncate empties a collection', async () => {
    await emulator.admin.collections.createDataCollection({ _id: 'Scratch', permissions: OPEN });
    await items().bulkInsert('Scratch', [{ v: 1 }, { v: 2 }]);
    await items().truncate('Scratch');
    expect(await items().query('Scratch').count()).toBe(0);
  });

  it('bulk insert, update, save, remove report each item', async () => {
    const inserted = await items().bulkInsert('Notes', [
      { _id: 'b1', v: 1 },
      { _id: 'b2', v: 2 },
      { _id: 'n1', v: 3 },
    ]);
    expect(inserted).toMatchObject({ inserted: 2, insertedItemIds: ['b1', 'b2'] });
    expect(inserted.errors).toEqual([expect.objectContaining({ index: 2, code: 'WDE0074' })]);

    const updated = await items().bulkUpdate('Notes', [
      { _id: 'b1', v: 10 },
      { _id: 'ghost', v: 0 },
    ]);
    expect(updated).toMatchObject({ updated: 1, updatedItemIds: ['b1'] });
    expect(updated.errors).toEqual([expect.objectContaining({ index: 1, code: 'WDE0073' })]);

    const saved = await items().bulkSave('Notes', [
      { _id: 'b2', v: 20 },
      { _id: 'b3', v: 30 },
    ]);
    expect(saved).toMatchObject({ inserted: 1, updated: 1, insertedItemIds: ['b3'], updatedItemIds: ['b2'] });

    const removed = await items().bulkRemove('Notes', ['b1', 'b2', 'ghost']);
    expect(removed).toMatchObject({ removed: 2, removedItemIds: ['b1', 'b2'] });
    expect(removed.errors).toEqual([expect.objectContaining({ index: 2, code: 'WDE0073' })]);
  });

  it('bulk results are in the production shape on the wire', async () => {
    const response = await emulator.fetch('/wix-data/v2/bulk/items/insert', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        dataCollectionId: 'Notes',
        dataItems: [
          { id: 'w1', data: { v: 1 } },
          { id: 'w1', data: { v: 2 } },
        ],
        returnEntity: true,
      }),
    });
    const body = await response.json();
    expect(body.bulkActionMetadata).toEqual({ totalSuccesses: 1, totalFailures: 1, undetailedFailures: 0 });
    expect(body.results[0]).toMatchObject({
      action: 'INSERT',
      itemMetadata: { id: 'w1', originalIndex: 0, success: true },
      dataItem: { id: 'w1', dataCollectionId: 'Notes' },
    });
    expect(body.results[1]).toMatchObject({
      itemMetadata: { id: 'w1', originalIndex: 1, success: false, error: { code: 'WDE0074' } },
    });
    // Without returnEntity (default false), results carry the metadata only.
    const lean = await emulator.fetch('/wix-data/v2/bulk/items/remove', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ dataCollectionId: 'Notes', dataItemIds: ['w1'] }),
    });
    expect((await lean.json()).results).toEqual([
      { action: 'DELETE', itemMetadata: { id: 'w1', originalIndex: 0, success: true } },
    ]);
  });

  it('patch: every action', async () => {
    await items().insert('Notes', { _id: 'p1', count: 1, list: ['x', 'y', 'x'], gone: true, nested: { a: 1 } });
    const patched = await items()
      .patch('Notes', 'p1')
      .setField('title', 'set')
      .incrementField('count', 4)
      .appendToArray('list', 'z')
      .removeFromArray('list', 'x')
      .removeField('gone')
      .run();
    expect(patched).toMatchObject({ _id: 'p1', title: 'set', count: 5, list: ['y', 'z'], nested: { a: 1 } });
    expect(patched).not.toHaveProperty('gone');
    const notNumber = await failure(items().patch('Notes', 'p1').incrementField('title', 1).run());
    expect(isValidationError(notNumber)).toBe(true);
    expect(await items().get('Notes', 'p1')).toMatchObject({ title: 'set', count: 5 });
    const missing = await failure(items().patch('Notes', 'ghost').setField('a', 1).run());
    expect(missing).toMatchObject({ code: 'WDE0073' });
  });
});

describe('references', () => {
  beforeAll(async () => {
    const { admin } = emulator;
    await admin.collections.createDataCollection({ _id: 'Actors', permissions: OPEN });
    await admin.collections.createDataCollection({
      _id: 'Films',
      permissions: OPEN,
      fields: [
        { key: 'title', type: 'TEXT' },
        { key: 'lead', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Actors' } } },
        {
          key: 'cast',
          type: 'MULTI_REFERENCE',
          typeMetadata: { multiReference: { referencedCollectionId: 'Actors' } },
        },
      ],
    });
    await admin.items.bulkInsert('Actors', [
      { _id: 'ann', name: 'Ann' },
      { _id: 'bob', name: 'Bob' },
      { _id: 'cy', name: 'Cy' },
    ]);
    await admin.items.insert('Films', { _id: 'f1', title: 'One', lead: 'ann' });
  });

  it('insert, is-referenced, query-referenced, replace, remove (single and bulk forms)', async () => {
    const items = emulator.admin.items;
    await items.insertReference('Films', 'cast', 'f1', 'ann');
    await items.insertReference('Films', 'cast', 'f1', ['bob', 'cy']);
    expect(await items.isReferenced('Films', 'cast', 'f1', 'bob')).toBe(true);
    const cast = await items.queryReferenced('Films', 'f1', 'cast', { returnTotalCount: true });
    expect(cast.items.map((actor) => actor._id)).toEqual(['ann', 'bob', 'cy']);
    expect(cast.totalCount).toBe(3);
    const page = await items.queryReferenced('Films', 'f1', 'cast', { limit: 2, skip: 1 });
    expect(page.items.map((actor) => actor._id)).toEqual(['bob', 'cy']);

    await items.removeReference('Films', 'cast', 'f1', 'bob');
    expect(await items.isReferenced('Films', 'cast', 'f1', 'bob')).toBe(false);
    await items.replaceReferences('Films', 'cast', 'f1', ['cy', 'bob']);
    expect((await items.queryReferenced('Films', 'f1', 'cast')).items.map((actor) => actor._id)).toEqual(['cy', 'bob']);

    const single = await emulator.fetch('/wix-data/v2/items/remove-reference', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        dataCollectionId: 'Films',
        dataItemReference: { referringItemFieldName: 'cast', referringItemId: 'f1', referencedItemId: 'cy' },
      }),
    });
    expect(single.status).toBe(200);
    expect((await items.queryReferenced('Films', 'f1', 'cast')).items.map((actor) => actor._id)).toEqual(['bob']);
  });

  it('include() returns referenced items in full; without it, multi references are left out', async () => {
    const [withCast] = (await emulator.admin.items.query('Films').include('lead', 'cast').find()).items;
    expect(withCast).toMatchObject({ lead: { _id: 'ann', name: 'Ann' }, cast: [{ _id: 'bob', name: 'Bob' }] });
    const [plain] = (await emulator.admin.items.query('Films').find()).items;
    expect(plain).toMatchObject({ lead: 'ann' });
    expect(plain).not.toHaveProperty('cast');
  });

  it('include(field, limit) and get with includeReferences: at most limit referenced items per item', async () => {
    const { admin } = emulator;
    await admin.items.insert('Films', { _id: 'f9', title: 'Nine' });
    await admin.items.insertReference('Films', 'cast', 'f9', ['ann', 'bob', 'cy']);
    const [film] = (await admin.items.query('Films').eq('_id', 'f9').include('cast', 2).find()).items;
    expect((film!.cast as { _id: string }[]).map((actor) => actor._id)).toEqual(['ann', 'bob']);
    const got = await admin.items.get('Films', 'f9', { includeReferences: [{ field: 'cast', limit: 1 }] });
    expect(got).toMatchObject({ cast: [{ _id: 'ann', name: 'Ann' }] });
    expect((await admin.items.get('Films', 'f9', { includeReferences: [{ field: 'cast' }] }))!.cast).toHaveLength(3);
  });

  it('query-referenced: referringItemIds must hold 1 to 100 ids; without either form the singular is named', async () => {
    const post = async (body: object) => {
      const response = await emulator.fetch('/wix-data/v2/items/query-referenced', {
        method: 'POST',
        headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ dataCollectionId: 'Films', referringItemFieldName: 'cast', ...body }),
      });
      const violations = (await response.json()).details?.validationError?.fieldViolations ?? [];
      return { status: response.status, fields: violations.map((violation: { field: string }) => violation.field) };
    };
    expect(await post({ referringItemIds: [] })).toEqual({ status: 400, fields: ['referringItemIds'] });
    const many = Array.from({ length: 101 }, (_, index) => `f${index}`);
    expect(await post({ referringItemIds: many })).toEqual({ status: 400, fields: ['referringItemIds'] });
    expect(await post({})).toEqual({ status: 400, fields: ['referringItemId'] });
    expect((await post({ referringItemIds: ['f1', 'f9'] })).status).toBe(200);
  });

  it('a field that is not a reference is a validation error', async () => {
    const error = await failure(emulator.admin.items.isReferenced('Films', 'title', 'f1', 'ann'));
    expect(isValidationError(error)).toBe(true);
  });
});

describe('permissions', () => {
  beforeAll(async () => {
    const { admin } = emulator;
    await admin.collections.createDataCollection({
      _id: 'AdminOnly',
      permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    await admin.collections.createDataCollection({
      _id: 'MembersOnly',
      permissions: { read: 'SITE_MEMBER', insert: 'SITE_MEMBER', update: 'SITE_MEMBER', remove: 'SITE_MEMBER' },
    });
    await admin.collections.createDataCollection({
      _id: 'Posts',
      permissions: {
        read: 'SITE_MEMBER_AUTHOR',
        insert: 'SITE_MEMBER_AUTHOR',
        update: 'SITE_MEMBER_AUTHOR',
        remove: 'SITE_MEMBER_AUTHOR',
      },
    });
    await admin.items.insert('AdminOnly', { _id: 'secret' });
  });

  it('a visitor reads the demo Movies (ANYONE) but cannot write them (ADMIN)', async () => {
    const visitor = emulator.newVisitor();
    const page = await visitor.items.query('Movies').limit(5).find({ returnTotalCount: true });
    expect(page.totalCount).toBe(300);
    const denied = await failure(visitor.items.insert('Movies', { title: 'Mine' }));
    expect(denied).toMatchObject({ status: 403, code: 'WDE0027' });
    expect(isApplicationError(denied)).toBe(true);
  });

  it('ADMIN collections refuse visitors and members, for reads too', async () => {
    const visitor = emulator.newVisitor();
    expect(await failure(visitor.items.get('AdminOnly', 'secret'))).toMatchObject({ code: 'WDE0027' });
    const { client: member } = await memberClient('m-1');
    expect(await failure(member.items.query('AdminOnly').find())).toMatchObject({ code: 'WDE0027' });
  });

  it('SITE_MEMBER collections admit members only', async () => {
    expect(await failure(emulator.newVisitor().items.insert('MembersOnly', { v: 1 }))).toMatchObject({
      code: 'WDE0027',
    });
    const { client: member, memberId } = await memberClient('m-2');
    const item = await member.items.insert('MembersOnly', { v: 1 });
    expect(item._owner).toBe(memberId);
  });

  it('SITE_MEMBER_AUTHOR: members see and change only their own items', async () => {
    const { client: alice } = await memberClient('alice');
    const { client: bob } = await memberClient('bob');
    await alice.items.insert('Posts', { _id: 'pa', text: 'by alice' });
    await bob.items.insert('Posts', { _id: 'pb', text: 'by bob' });
    expect((await alice.items.query('Posts').find()).items.map((post) => post._id)).toEqual(['pa']);
    expect(await failure(alice.items.update('Posts', { _id: 'pb', text: 'hijack' }))).toMatchObject({
      code: 'WDE0027',
    });
    expect(await failure(alice.items.remove('Posts', 'pb'))).toMatchObject({ code: 'WDE0027' });
    expect((await emulator.admin.items.query('Posts').find()).items.map((post) => post._id).sort()).toEqual([
      'pa',
      'pb',
    ]);
    expect(await failure(emulator.newVisitor().items.query('Posts').find())).toMatchObject({ code: 'WDE0027' });
  });
});
