/**
 * Issue bar: every call of spec section 7 is in the schema at its REAL path and method
 * (the ones the service answers on), and the merged schema is valid OpenAPI 3.1.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../../codegen/load.js';
import { loadSchema } from '../../../codegen/generate.js';

const schemaDir = join(import.meta.dirname, '../../../schema');

/** Spec section 7, call by call: [logical route as the spec writes it, real method and path]. */
const SPEC_ROUTES: [string, string][] = [
  // Collections
  ['POST /v2/collections', 'POST /wix-data/v2/collections'],
  ['GET /v2/collections/{dataCollectionId}', 'GET /wix-data/v2/collections/{dataCollectionId}'],
  ['GET /v2/collections', 'GET /wix-data/v2/collections'],
  ['PUT /v2/collections', 'PUT /wix-data/v2/collections'],
  ['DELETE /v2/collections/{dataCollectionId}', 'DELETE /wix-data/v2/collections/{dataCollectionId}'],
  // Items
  ['POST /v2/items', 'POST /wix-data/v2/items'],
  ['PUT /v2/items/{dataItem.id}', 'PUT /wix-data/v2/items/{dataItemId}'],
  ['POST /v2/items/save', 'POST /wix-data/v2/items/save'],
  ['GET /v2/items/{dataItemId}', 'GET /wix-data/v2/items/{dataItemId}'],
  ['DELETE /v2/items/{dataItemId}', 'DELETE /wix-data/v2/items/{dataItemId}'],
  ['POST /v2/items/truncate', 'POST /wix-data/v2/items/truncate'],
  ['POST /v2/items/query', 'POST /wix-data/v2/items/query'],
  ['POST /v2/items/aggregate', 'POST /wix-data/v2/items/aggregate'],
  ['POST /v2/items/count', 'POST /wix-data/v2/items/count'],
  ['POST /v2/items/query-distinct-values', 'POST /wix-data/v2/items/query-distinct-values'],
  ['POST /v2/items/query-referenced', 'POST /wix-data/v2/items/query-referenced'],
  ['POST /v2/items/is-referenced', 'POST /wix-data/v2/items/is-referenced'],
  ['POST /v2/items/insert-reference', 'POST /wix-data/v2/items/insert-reference'],
  ['POST /v2/items/remove-reference', 'POST /wix-data/v2/items/remove-reference'],
  ['POST /v2/items/replace-references', 'POST /wix-data/v2/items/replace-references'],
  ['POST /v2/bulk/items/insert', 'POST /wix-data/v2/bulk/items/insert'],
  ['POST /v2/bulk/items/update', 'POST /wix-data/v2/bulk/items/update'],
  ['POST /v2/bulk/items/save', 'POST /wix-data/v2/bulk/items/save'],
  ['POST /v2/bulk/items/remove', 'POST /wix-data/v2/bulk/items/remove'],
  ['POST /v2/bulk/items/insert-references', 'POST /wix-data/v2/bulk/items/insert-references'],
  ['POST /v2/bulk/items/remove-references', 'POST /wix-data/v2/bulk/items/remove-references'],
  // Media
  ['POST /v1/files/generate-download-url', 'POST /site-media/v1/files/generate-download-url'],
  ['POST /v1/files/generate-file-download-url', 'POST /site-media/v1/files/generate-file-download-url'],
  ['GET /v1/files/get-file-by-id', 'GET /site-media/v1/files/get-file-by-id'],
  ['POST /v1/files/get-files', 'POST /site-media/v1/files/get-files'],
  ['PATCH /v1/files/update-file-descriptor', 'PATCH /site-media/v1/files/update-file-descriptor'],
  ['POST /v1/files/generate-upload-url', 'POST /site-media/v1/files/generate-upload-url'],
  ['POST /v1/files/generate-resumable-upload-url', 'POST /site-media/v1/files/generate-resumable-upload-url'],
  ['POST /v1/files/import', 'POST /site-media/v1/files/import'],
  ['POST /v1/bulk/files/import', 'POST /site-media/v1/bulk/files/import'],
  ['POST /v1/bulk/files/import-v2', 'POST /site-media/v1/bulk/files/import-v2'],
  ['GET /v1/files', 'GET /site-media/v1/files'],
  ['POST /v1/files/search', 'POST /site-media/v1/files/search'],
  ['POST /v1/files/generate-video-stream-url', 'POST /site-media/v1/files/generate-video-stream-url'],
  ['POST /v1/bulk/files/delete', 'POST /site-media/v1/bulk/files/delete'],
  ['POST /v1/bulk/trash-bin/files/restore', 'POST /site-media/v1/bulk/trash-bin/files/restore'],
  ['GET /v1/trash-bin/files', 'GET /site-media/v1/trash-bin/files'],
  // Members
  ['POST /v1/members/my/slug', 'POST /members/v1/members/my/slug'],
  ['POST /v1/members/{id}/slug', 'POST /members/v1/members/{id}/slug'],
  ['POST /v1/members/join-community', 'POST /members/v1/members/join-community'],
  ['POST /v1/members/leave-community', 'POST /members/v1/members/leave-community'],
  ['GET /v1/members/my', 'GET /members/v1/members/my'],
  ['GET /v1/members/{id}', 'GET /members/v1/members/{id}'],
  ['GET /v1/members', 'GET /members/v1/members'],
  ['POST /v1/members/query', 'POST /members/v1/members/query'],
  ['POST /v1/members/{id}/mute', 'POST /members/v1/members/{id}/mute'],
  ['POST /v1/members/{id}/unmute', 'POST /members/v1/members/{id}/unmute'],
  ['POST /v1/members/{id}/approve', 'POST /members/v1/members/{id}/approve'],
  ['POST /v1/members/{id}/block', 'POST /members/v1/members/{id}/block'],
  ['POST /v1/members/{id}/disconnect', 'POST /members/v1/members/{id}/disconnect'],
  ['DELETE /v1/members/{id}', 'DELETE /members/v1/members/{id}'],
  ['DELETE /v1/members/my', 'DELETE /members/v1/members/my'],
  ['POST /v1/members/bulk/delete', 'POST /members/v1/members/bulk/delete'],
  ['POST /v1/members/bulk/delete-by-filter', 'POST /members/v1/members/bulk/delete-by-filter'],
  ['POST /v1/members/bulk/approve-by-filter', 'POST /members/v1/members/bulk/approve-by-filter'],
  ['POST /v1/members/bulk/block-by-filter', 'POST /members/v1/members/bulk/block-by-filter'],
  ['POST /v1/members', 'POST /members/v1/members'],
  ['PATCH /v1/members/{member.id}', 'PATCH /members/v1/members/{id}'],
  ['DELETE /v1/members/{id}/phones', 'DELETE /members/v1/members/{id}/phones'],
  ['DELETE /v1/members/{id}/emails', 'DELETE /members/v1/members/{id}/emails'],
  ['DELETE /v1/members/{id}/addresses', 'DELETE /members/v1/members/{id}/addresses'],
  // Authentication
  ['POST /oauth2/token', 'POST /oauth2/token'],
  ['POST /v1/redirect-session', 'POST /_api/redirects-api/v1/redirect-session'],
  ['POST /v1/register', 'POST /_api/iam/authentication/v1/register'],
  ['POST /v2/register', 'POST /_api/iam/authentication/v2/register'],
  ['POST /v1/login', 'POST /_api/iam/authentication/v1/login'],
  ['POST /v2/login', 'POST /_api/iam/authentication/v2/login'],
  ['POST /v2/change-password', 'POST /_api/iam/authentication/v2/change-password'],
  ['POST /v1/sso/login-with-token-params', 'POST /_api/iam/authentication/v1/sso/login-with-token-params'],
  ['POST /v1/state/proceed', 'POST /_api/iam/authentication/v1/state/proceed'],
  ['POST /v2/sign-on', 'POST /_api/iam/authentication/v2/sign-on'],
  ['GET /v1/logout', 'GET /_api/iam/authentication/v1/logout'],
  ['POST /v1/send-email', 'POST /_api/iam/recovery/v1/send-email'],
  ['POST /v1/activation-email', 'POST /_api/iam/recovery/v1/activation-email'],
  ['POST /v1/recover', 'POST /_api/iam/recovery/v1/recover'],
  ['POST /v1/Start', 'POST /_api/iam/verification/v1/start'],
  ['POST /v1/auth/verify', 'POST /_api/iam/verification/v1/auth/verify'],
  ['POST /v1/auth/resend', 'POST /_api/iam/verification/v1/auth/resend'],
];

describe('schema', async () => {
  const doc = await loadSchema(schemaDir);
  const routes = new Set(listOperations(doc).map((e) => `${e.method} ${e.path}`));

  it('is valid OpenAPI 3.1 and passes the x-sitekit rules (loadSchema throws otherwise)', () => {
    expect(doc.openapi).toBe('3.1.0');
  });

  it('covers all 83 calls of spec section 7', () => expect(SPEC_ROUTES).toHaveLength(83));

  it.each(SPEC_ROUTES)('%s is served at %s', (_logical, real) => {
    expect(routes.has(real), `${real} is missing from schema/`).toBe(true);
  });

  it('also has the real forms the service serves beyond the official routes', () => {
    for (const r of [
      'POST /wix-data/v2/items/update',
      'POST /wix-data/v2/items/remove',
      'POST /wix-data/v2/items/patch',
      'GET /wix-data/v2/items/query',
    ])
      expect(routes.has(r), r).toBe(true);
  });

  it('names every exposed operation after the official SDK', () => {
    const ids = new Set(listOperations(doc).map((e) => e.op.operationId));
    const official = [
      'createDataCollection',
      'getDataCollection',
      'listDataCollections',
      'updateDataCollection',
      'deleteDataCollection',
      'insert',
      'update',
      'save',
      'get',
      'remove',
      'truncate',
      'count',
      'isReferenced',
      'replaceReferences',
      'generateFileUploadUrl',
      'generateFileResumableUploadUrl',
      'importFile',
      'bulkImportFiles',
      'bulkImportFile',
      'generateFilesDownloadUrl',
      'generateFileDownloadUrl',
      'getFileDescriptor',
      'getFileDescriptors',
      'updateFileDescriptor',
      'listFiles',
      'searchFiles',
      'generateVideoStreamingUrl',
      'bulkDeleteFiles',
      'bulkRestoreFilesFromTrashBin',
      'listDeletedFiles',
      'createMember',
      'getMember',
      'getCurrentMember',
      'listMembers',
      'updateMember',
      'deleteMember',
      'deleteMyMember',
      'updateCurrentMemberSlug',
      'updateMemberSlug',
      'joinCommunity',
      'leaveCommunity',
      'approveMember',
      'blockMember',
      'muteMember',
      'unmuteMember',
      'disconnectMember',
      'bulkDeleteMembers',
      'bulkDeleteMembersByFilter',
      'bulkApproveMembers',
      'bulkBlockMembers',
      'deleteMemberPhones',
      'deleteMemberEmails',
      'deleteMemberAddresses',
    ];
    expect(official.filter((id) => !ids.has(id))).toEqual([]);
  });
});
