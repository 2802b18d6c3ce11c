/**
 * Issue bar: every generated operation is reachable through createClient under its official name
 * and argument order, and puts exactly the service's method, path, query, body and headers on the wire.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { namespaceOperations } from '../../generated/namespaces.js';
import { operations } from '../../generated/operations.js';
import { ApiKeyStrategy } from '../../src/auth/api-key.js';
import { createClient, type Client } from '../../src/client.js';
import { BASE, captureAll } from '../helpers/capture.js';
import { testClient } from '../helpers/clients.js';

type Row = [
  ns: 'collections' | 'items' | 'media' | 'members',
  op: string,
  call: (c: Client) => Promise<unknown>,
  line: string,
  body?: unknown,
];

const r = (s: string) => Buffer.from(s).toString('base64url');
const epoch = new Date(0);

const TABLE: Row[] = [
  // collections
  [
    'collections',
    'createDataCollection',
    (c) =>
      c.collections.createDataCollection({
        _id: 'Movies',
        displayName: 'Movies',
        fields: [{ key: 'n', type: 'NUMBER', numberRange: { min: 0, max: Infinity } }],
      }),
    'POST /wix-data/v2/collections',
    {
      collection: {
        id: 'Movies',
        displayName: 'Movies',
        fields: [{ key: 'n', type: 'NUMBER', numberRange: { min: 0, max: 'Infinity' } }],
      },
    },
  ],
  [
    'collections',
    'getDataCollection',
    (c) => c.collections.getDataCollection('Movies', { consistentRead: true }),
    'GET /wix-data/v2/collections/Movies?consistentRead=true',
  ],
  [
    'collections',
    'listDataCollections',
    (c) => c.collections.listDataCollections({ paging: { limit: 10, offset: 0 } }),
    'GET /wix-data/v2/collections?paging.limit=10&paging.offset=0',
  ],
  [
    'collections',
    'updateDataCollection',
    (c) => c.collections.updateDataCollection({ _id: 'Movies', displayName: 'Films' }),
    'PUT /wix-data/v2/collections',
    { collection: { id: 'Movies', displayName: 'Films' } },
  ],
  [
    'collections',
    'deleteDataCollection',
    (c) => c.collections.deleteDataCollection('Movies'),
    'DELETE /wix-data/v2/collections/Movies',
  ],
  // items
  [
    'items',
    'insert',
    (c) => c.items.insert('Movies', { _id: 'a', title: 'Jaws', when: epoch }),
    'POST /wix-data/v2/items',
    {
      dataCollectionId: 'Movies',
      dataItem: { id: 'a', data: { _id: 'a', title: 'Jaws', when: { $date: '1970-01-01T00:00:00.000Z' } } },
    },
  ],
  [
    'items',
    'update',
    (c) => c.items.update('Movies', { _id: 'a', title: 'J' }),
    'POST /wix-data/v2/items/update',
    { dataCollectionId: 'Movies', dataItem: { id: 'a', data: { _id: 'a', title: 'J' } } },
  ],
  [
    'items',
    'save',
    (c) => c.items.save('Movies', { title: 'J' }),
    'POST /wix-data/v2/items/save',
    { dataCollectionId: 'Movies', dataItem: { data: { title: 'J' } } },
  ],
  ['items', 'get', (c) => c.items.get('Movies', 'a'), 'GET /wix-data/v2/items/a?dataCollectionId=Movies'],
  [
    'items',
    'remove',
    (c) => c.items.remove('Movies', 'a'),
    'POST /wix-data/v2/items/remove',
    { dataCollectionId: 'Movies', dataItemId: 'a' },
  ],
  [
    'items',
    'truncate',
    (c) => c.items.truncate('Movies'),
    'POST /wix-data/v2/items/truncate',
    { dataCollectionId: 'Movies' },
  ],
  [
    'items',
    'count',
    (c) => c.items.count('Movies', { filter: { released: { $gt: epoch } } }),
    'POST /wix-data/v2/items/count',
    { dataCollectionId: 'Movies', filter: { released: { $gt: { $date: '1970-01-01T00:00:00.000Z' } } } },
  ],
  [
    'items',
    'isReferenced',
    (c) => c.items.isReferenced('Movies', 'actors', 'a', 'b'),
    'POST /wix-data/v2/items/is-referenced',
    { dataCollectionId: 'Movies', referringItemFieldName: 'actors', referringItemId: 'a', referencedItemId: 'b' },
  ],
  [
    'items',
    'replaceReferences',
    (c) => c.items.replaceReferences('Movies', 'actors', 'a', ['b', 'c']),
    'POST /wix-data/v2/items/replace-references',
    {
      dataCollectionId: 'Movies',
      referringItemFieldName: 'actors',
      referringItemId: 'a',
      newReferencedItemIds: ['b', 'c'],
    },
  ],
  // media
  [
    'media',
    'generateFileUploadUrl',
    (c) => c.media.generateFileUploadUrl('image/png', { fileName: 'a.png', private: false }),
    'POST /site-media/v1/files/generate-upload-url',
    { mimeType: 'image/png', fileName: 'a.png', private: false },
  ],
  [
    'media',
    'generateFileResumableUploadUrl',
    (c) => c.media.generateFileResumableUploadUrl('video/mp4', { uploadProtocol: 'TUS' }),
    'POST /site-media/v1/files/generate-resumable-upload-url',
    { mimeType: 'video/mp4', uploadProtocol: 'TUS' },
  ],
  [
    'media',
    'importFile',
    (c) => c.media.importFile('https://x.test/y.png', { displayName: 'y' }),
    'POST /site-media/v1/files/import',
    { url: 'https://x.test/y.png', displayName: 'y' },
  ],
  [
    'media',
    'bulkImportFiles',
    (c) => c.media.bulkImportFiles([{ url: 'https://x.test/1.png' }]),
    'POST /site-media/v1/bulk/files/import',
    { importFileRequests: [{ url: 'https://x.test/1.png' }] },
  ],
  [
    'media',
    'bulkImportFile',
    (c) => c.media.bulkImportFile([{ url: 'https://x.test/1.png' }], { returnEntity: true }),
    'POST /site-media/v1/bulk/files/import-v2',
    { importFileRequests: [{ url: 'https://x.test/1.png' }], returnEntity: true },
  ],
  [
    'media',
    'generateFilesDownloadUrl',
    (c) => c.media.generateFilesDownloadUrl(['f1']),
    'POST /site-media/v1/files/generate-download-url',
    { fileIds: ['f1'] },
  ],
  [
    'media',
    'generateFileDownloadUrl',
    (c) => c.media.generateFileDownloadUrl('f1', { expirationInMinutes: 5 }),
    'POST /site-media/v1/files/generate-file-download-url',
    { fileId: 'f1', expirationInMinutes: 5 },
  ],
  [
    'media',
    'getFileDescriptor',
    (c) => c.media.getFileDescriptor('f1'),
    'GET /site-media/v1/files/get-file-by-id?fileId=f1',
  ],
  [
    'media',
    'getFileDescriptors',
    (c) => c.media.getFileDescriptors(['f1', 'f2']),
    'POST /site-media/v1/files/get-files',
    { fileIds: ['f1', 'f2'] },
  ],
  [
    'media',
    'updateFileDescriptor',
    (c) =>
      c.media.updateFileDescriptor(
        { _id: 'f1', displayName: 'n', labels: ['a'] },
        { fieldMask: ['displayName', 'labels'] },
      ),
    'PATCH /site-media/v1/files/update-file-descriptor',
    { file: { id: 'f1', displayName: 'n', labels: ['a'] }, fieldMask: 'displayName,labels' },
  ],
  [
    'media',
    'listFiles',
    (c) => c.media.listFiles({ mediaTypes: ['IMAGE', 'VIDEO'], paging: { limit: 5 } }),
    'GET /site-media/v1/files?mediaTypes=IMAGE&mediaTypes=VIDEO&paging.limit=5',
  ],
  [
    'media',
    'searchFiles',
    (c) => c.media.searchFiles({ search: 'cat', rootFolder: 'MEDIA_ROOT' }),
    'POST /site-media/v1/files/search',
    { search: 'cat', rootFolder: 'MEDIA_ROOT' },
  ],
  [
    'media',
    'generateVideoStreamingUrl',
    (c) => c.media.generateVideoStreamingUrl('v1', { format: 'HLS' }),
    'POST /site-media/v1/files/generate-video-stream-url',
    { fileId: 'v1', format: 'HLS' },
  ],
  [
    'media',
    'bulkDeleteFiles',
    (c) => c.media.bulkDeleteFiles(['f1'], { permanent: true }),
    'POST /site-media/v1/bulk/files/delete',
    { fileIds: ['f1'], permanent: true },
  ],
  [
    'media',
    'bulkRestoreFilesFromTrashBin',
    (c) => c.media.bulkRestoreFilesFromTrashBin(['f1']),
    'POST /site-media/v1/bulk/trash-bin/files/restore',
    { fileIds: ['f1'] },
  ],
  [
    'media',
    'listDeletedFiles',
    (c) => c.media.listDeletedFiles({ paging: { limit: 5 } }),
    'GET /site-media/v1/trash-bin/files?paging.limit=5',
  ],
  // members
  [
    'members',
    'createMember',
    (c) => c.members.createMember({ member: { loginEmail: 'a@b.test', profile: { nickname: 'A' } } }),
    'POST /members/v1/members',
    { member: { loginEmail: 'a@b.test', profile: { nickname: 'A' } } },
  ],
  [
    'members',
    'getMember',
    (c) => c.members.getMember('m1', { fieldsets: ['FULL'] }),
    'GET /members/v1/members/m1?fieldsets=FULL',
  ],
  [
    'members',
    'getCurrentMember',
    (c) => c.members.getCurrentMember({ fieldsets: ['FULL'] }),
    'GET /members/v1/members/my?fieldsets=FULL',
  ],
  [
    'members',
    'listMembers',
    (c) => c.members.listMembers({ paging: { limit: 10 }, sorting: [{ fieldName: 'createdDate', order: 'DESC' }] }),
    `GET /members/v1/members?.r=${r(JSON.stringify({ paging: { limit: 10 }, sorting: [{ fieldName: 'createdDate', order: 'DESC' }] }))}`,
  ],
  [
    'members',
    'updateMember',
    (c) => c.members.updateMember('m1', { _id: 'ignored', profile: { nickname: 'B' } }),
    'PATCH /members/v1/members/m1',
    { member: { id: 'm1', profile: { nickname: 'B' } } },
  ],
  ['members', 'deleteMember', (c) => c.members.deleteMember('m1'), 'DELETE /members/v1/members/m1'],
  [
    'members',
    'deleteMyMember',
    (c) => c.members.deleteMyMember({ contentAssigneeId: 'm2' }),
    'DELETE /members/v1/members/my?contentAssigneeId=m2',
  ],
  [
    'members',
    'updateCurrentMemberSlug',
    (c) => c.members.updateCurrentMemberSlug('al'),
    'POST /members/v1/members/my/slug',
    { slug: 'al' },
  ],
  [
    'members',
    'updateMemberSlug',
    (c) => c.members.updateMemberSlug('m1', 'al'),
    'POST /members/v1/members/m1/slug',
    { id: 'm1', slug: 'al' },
  ],
  ['members', 'joinCommunity', (c) => c.members.joinCommunity(), 'POST /members/v1/members/join-community', {}],
  ['members', 'leaveCommunity', (c) => c.members.leaveCommunity(), 'POST /members/v1/members/leave-community', {}],
  [
    'members',
    'approveMember',
    (c) => c.members.approveMember('m1'),
    'POST /members/v1/members/m1/approve',
    { id: 'm1' },
  ],
  ['members', 'blockMember', (c) => c.members.blockMember('m1'), 'POST /members/v1/members/m1/block', { id: 'm1' }],
  ['members', 'muteMember', (c) => c.members.muteMember('m1'), 'POST /members/v1/members/m1/mute', { id: 'm1' }],
  ['members', 'unmuteMember', (c) => c.members.unmuteMember('m1'), 'POST /members/v1/members/m1/unmute', { id: 'm1' }],
  [
    'members',
    'disconnectMember',
    (c) => c.members.disconnectMember('m1'),
    'POST /members/v1/members/m1/disconnect',
    { id: 'm1' },
  ],
  [
    'members',
    'bulkDeleteMembers',
    (c) => c.members.bulkDeleteMembers(['m1', 'm2']),
    'POST /members/v1/members/bulk/delete',
    { memberIds: ['m1', 'm2'] },
  ],
  [
    'members',
    'bulkDeleteMembersByFilter',
    (c) => c.members.bulkDeleteMembersByFilter({ status: 'BLOCKED' }, { contentAssigneeId: 'm3' }),
    'POST /members/v1/members/bulk/delete-by-filter',
    { filter: { status: 'BLOCKED' }, contentAssigneeId: 'm3' },
  ],
  [
    'members',
    'bulkApproveMembers',
    (c) => c.members.bulkApproveMembers({ status: 'PENDING' }),
    'POST /members/v1/members/bulk/approve-by-filter',
    { filter: { status: 'PENDING' } },
  ],
  [
    'members',
    'bulkBlockMembers',
    (c) => c.members.bulkBlockMembers({ status: 'PENDING' }),
    'POST /members/v1/members/bulk/block-by-filter',
    { filter: { status: 'PENDING' } },
  ],
  ['members', 'deleteMemberPhones', (c) => c.members.deleteMemberPhones('m1'), 'DELETE /members/v1/members/m1/phones'],
  ['members', 'deleteMemberEmails', (c) => c.members.deleteMemberEmails('m1'), 'DELETE /members/v1/members/m1/emails'],
  [
    'members',
    'deleteMemberAddresses',
    (c) => c.members.deleteMemberAddresses('m1'),
    'DELETE /members/v1/members/m1/addresses',
  ],
];

describe('every generated operation through createClient', () => {
  let client: Client;
  beforeEach(() => {
    nock.disableNetConnect();
    client = createClient({
      auth: ApiKeyStrategy({ apiKey: 'key-1', siteId: 'site-1' }),
      baseUrl: BASE,
      retry: false,
      headers: { 'x-app': 'test' },
    });
  });
  afterEach(() => nock.cleanAll());

  it('the table covers every generated method', () => {
    const covered = TABLE.map(([ns, op]) => `${ns}.${op}`).sort();
    const all = Object.entries(namespaceOperations)
      .flatMap(([ns, ops]) => [...ops.operations.map((op) => op.id), ...ops.elevated].map((id) => `${ns}.${id}`))
      .sort();
    expect(covered).toEqual(all);
  });

  it.each(TABLE)('%s.%s', async (_ns, id, call, line, body) => {
    const op = operations[id as keyof typeof operations];
    // The answer has the field the method returns: a 2xx without it is an "unexpected response".
    const log = captureAll(() => [200, op.unwrap ? { [op.unwrap]: {} } : {}]);
    await call(client);
    expect(log).toHaveLength(1);
    const req = log[0]!;
    expect(`${req.method} ${req.url}`).toBe(line);
    expect(req.body).toEqual(body);
    expect(req.headers.authorization).toBe('key-1');
    expect(req.headers['wix-site-id']).toBe('site-1');
    expect(req.headers['x-app']).toBe('test');
    expect(req.headers['x-wix-bi-gateway']).toBe(
      `environment=js-sdk,package-name=sitekit-sdk,method-fqn=${op.methodFqn}${op.entity ? `,entity=${op.entity}` : ''}`,
    );
    expect(req.headers['content-type']).toBe(body === undefined ? undefined : 'application/json');
  });
});

describe('return shapes', () => {
  afterEach(() => nock.cleanAll());
  it('getFileDescriptors resolves {files} as the official SDK does, each file in public form', async () => {
    captureAll(() => [200, { files: [{ id: 'f1', createdDate: '2024-01-01T00:00:00.000Z' }] }]);
    const c = testClient();
    expect(await c.media.getFileDescriptors(['f1'])).toEqual({
      files: [{ _id: 'f1', _createdDate: new Date('2024-01-01T00:00:00.000Z') }],
    });
  });
});
