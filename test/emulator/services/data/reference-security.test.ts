/**
 * Issue 18, finding 1: references must not bypass read permission. Every route that returns items
 * (query and get with `includeReferences`, query-referenced) applies the read rule and the author
 * scope of the collection the referenced items live in; a reference the caller may not read comes
 * back as a missing item's does (its id only), never the item.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client, OAuthAuth } from '../../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';

let emulator: TestEmulator;

const ADMIN_ONLY = { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } as const;
const PUBLIC_READ = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } as const;
const AUTHOR = {
  read: 'SITE_MEMBER_AUTHOR',
  insert: 'SITE_MEMBER_AUTHOR',
  update: 'SITE_MEMBER_AUTHOR',
  remove: 'SITE_MEMBER_AUTHOR',
} as const;

const reference = (key: string, to: string) => ({
  key,
  type: 'REFERENCE' as const,
  typeMetadata: { reference: { referencedCollectionId: to } },
});
const multiReference = (key: string, to: string) => ({
  key,
  type: 'MULTI_REFERENCE' as const,
  typeMetadata: { multiReference: { referencedCollectionId: to } },
});

/** A raw JSON call with the client's own credentials, answered as `{status, body}` (an error status too). */
async function call(client: Client<OAuthAuth>, path: string, body?: object) {
  try {
    const response = await client.fetchWithAuth(path, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  } catch (error) {
    return { status: (error as { status?: number }).status, body: {} as Record<string, any> };
  }
}

/** `GET /items/{id}` with the whole request in `.r`, as the official client sends a get with includeReferences. */
const getWithReferences = (client: Client<OAuthAuth>, collectionId: string, itemId: string, fields: string[]) => {
  const request = {
    dataCollectionId: collectionId,
    dataItemId: itemId,
    includeReferences: fields.map((field) => ({ field })),
  };
  const encoded = Buffer.from(JSON.stringify(request)).toString('base64url');
  return call(client, `/wix-data/v2/items/${itemId}?.r=${encoded}`);
};

let members = 0;
async function memberClient(): Promise<{ client: Client<OAuthAuth>; memberId: string }> {
  const { _id: memberId } = await emulator.admin.members.createMember({
    member: { loginEmail: `ref-security-${++members}@example.test` },
  });
  const client = emulator.newVisitor();
  client.auth.setTokens(await client.auth.getMemberTokensForExternalLogin(memberId!, emulator.info.apiKey));
  return { client, memberId: memberId! };
}

beforeAll(async () => {
  emulator = await startEmulator();
  const { admin } = emulator;
  await admin.collections.createDataCollection({ _id: 'Vault', permissions: ADMIN_ONLY });
  await admin.collections.createDataCollection({
    _id: 'Showcase',
    permissions: PUBLIC_READ,
    fields: [reference('secret', 'Vault'), multiReference('secrets', 'Vault')],
  });
  await admin.items.insert('Vault', { _id: 'v1', code: 'launch-code' });
  await admin.items.insert('Showcase', { _id: 's1', title: 'Public page', secret: 'v1' });
  await admin.items.insertReference('Showcase', 'secrets', 's1', 'v1');
  await admin.collections.createDataCollection({
    _id: 'Notes',
    permissions: AUTHOR,
    fields: [multiReference('links', 'Notes'), reference('link', 'Notes')],
  });
});
afterAll(() => emulator?.close());

describe('a visitor, through a public collection, to an ADMIN-only item', () => {
  it('reads the item directly: 403 (the premise)', async () => {
    const visitor = emulator.newVisitor();
    expect((await call(visitor, '/wix-data/v2/items/v1?dataCollectionId=Vault')).status).toBe(403);
  });

  it('query with includeReferences: the REFERENCE field stays the id', async () => {
    const [page] = (await emulator.newVisitor().items.query('Showcase').include('secret').find()).items;
    expect(page).toMatchObject({ _id: 's1', secret: 'v1' });
    expect(JSON.stringify(page)).not.toContain('launch-code');
  });

  it('query with includeReferences: the MULTI_REFERENCE field never holds the item', async () => {
    const [page] = (await emulator.newVisitor().items.query('Showcase').include('secrets').find()).items;
    expect(JSON.stringify(page)).not.toContain('launch-code');
  });

  it('get with includeReferences: the ids only', async () => {
    const { status, body } = await getWithReferences(emulator.newVisitor(), 'Showcase', 's1', ['secret', 'secrets']);
    expect(status).toBe(200);
    expect(body.dataItem.data.secret).toBe('v1');
    expect(JSON.stringify(body)).not.toContain('launch-code');
  });

  it('query-referenced: an unresolved reference with the id, never the item', async () => {
    const { status, body } = await call(emulator.newVisitor(), '/wix-data/v2/items/query-referenced', {
      dataCollectionId: 'Showcase',
      referringItemId: 's1',
      referringItemFieldName: 'secrets',
    });
    expect(status).toBe(200);
    expect(JSON.stringify(body)).not.toContain('launch-code');
    expect(body.results).toEqual([
      expect.objectContaining({ unresolvedReference: expect.objectContaining({ referencedItemId: 'v1' }) }),
    ]);
  });

  it('the owner still gets the item through the same references', async () => {
    const [page] = (await emulator.admin.items.query('Showcase').include('secret', 'secrets').find()).items;
    expect(page).toMatchObject({ secret: { _id: 'v1', code: 'launch-code' }, secrets: [{ _id: 'v1' }] });
  });
});

describe("member B, through its own SITE_MEMBER_AUTHOR item, to member A's", () => {
  let alice: Client<OAuthAuth>;
  let bob: Client<OAuthAuth>;
  beforeAll(async () => {
    ({ client: alice } = await memberClient());
    ({ client: bob } = await memberClient());
    await alice.items.insert('Notes', { _id: 'a1', text: 'alice-private' });
    await bob.items.insert('Notes', { _id: 'b1', text: 'bob-own', link: 'a1' });
    await bob.items.insertReference('Notes', 'links', 'b1', 'a1');
  });

  it("reads A's item directly: 403 (the premise)", async () => {
    expect((await call(bob, '/wix-data/v2/items/a1?dataCollectionId=Notes')).status).toBe(403);
  });

  it('query with includeReferences: neither field holds the item', async () => {
    const { items } = await bob.items.query('Notes').include('links', 'link').find();
    expect(items.map((note) => note._id)).toEqual(['b1']);
    expect(items[0]).toMatchObject({ link: 'a1' });
    expect(JSON.stringify(items)).not.toContain('alice-private');
  });

  it('get with includeReferences: the ids only', async () => {
    const { status, body } = await getWithReferences(bob, 'Notes', 'b1', ['links', 'link']);
    expect(status).toBe(200);
    expect(body.dataItem.data.link).toBe('a1');
    expect(JSON.stringify(body)).not.toContain('alice-private');
  });

  it('query-referenced: an unresolved reference, never the item', async () => {
    const { status, body } = await call(bob, '/wix-data/v2/items/query-referenced', {
      dataCollectionId: 'Notes',
      referringItemId: 'b1',
      referringItemFieldName: 'links',
    });
    expect(status).toBe(200);
    expect(JSON.stringify(body)).not.toContain('alice-private');
    expect(body.results).toEqual([
      expect.objectContaining({ unresolvedReference: expect.objectContaining({ referencedItemId: 'a1' }) }),
    ]);
  });

  it('A still resolves a reference to her own item', async () => {
    await alice.items.insert('Notes', { _id: 'a2', text: 'alice-second', link: 'a1' });
    const [note] = (await alice.items.query('Notes').eq('_id', 'a2').include('link').find()).items;
    expect(note).toMatchObject({ link: { _id: 'a1', text: 'alice-private' } });
  });
});
