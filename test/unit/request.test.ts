/** Typed request builders: the exact paths, query strings and bodies the service expects, one call per service. */
import { describe, expect, it } from 'vitest';
import * as build from '../../generated/builders.js';
import { RequestBuildError } from '../../src/request.js';
import { serializeQuery } from '../../src/http/query.js';

const wire = (b: { method: string; path: string; query?: Record<string, unknown>; body?: unknown }) => {
  const qs = serializeQuery(b.query);
  return { line: `${b.method} ${b.path}${qs ? `?${qs}` : ''}`, body: b.body };
};

describe('builders', () => {
  it('collections: GET with a path parameter and a query', () => {
    expect(wire(build.getDataCollection({ dataCollectionId: 'Movies', consistentRead: true }))).toEqual({
      line: 'GET /wix-data/v2/collections/Movies?consistentRead=true',
      body: undefined,
    });
    expect(wire(build.listDataCollections({ paging: { limit: 10, offset: 0 } })).line).toBe(
      'GET /wix-data/v2/collections?paging.limit=10&paging.offset=0',
    );
  });

  it('items: insert body, get with dataCollectionId in the query', () => {
    const body = { dataCollectionId: 'Movies', dataItem: { id: 'a', data: { _id: 'a', title: 'Jaws' } } };
    expect(wire(build.insert(body))).toEqual({ line: 'POST /wix-data/v2/items', body });
    expect(wire(build.get({ dataCollectionId: 'Movies', dataItemId: 'a b' })).line).toBe(
      'GET /wix-data/v2/items/a%20b?dataCollectionId=Movies',
    );
    expect(wire(build.remove({ dataCollectionId: 'Movies', dataItemId: 'a' }))).toEqual({
      line: 'POST /wix-data/v2/items/remove',
      body: { dataCollectionId: 'Movies', dataItemId: 'a' },
    });
  });

  it('items: the PUT form reads its path parameter from dataItem.id', () => {
    expect(wire(build.updateDataItem({ dataCollectionId: 'Movies', dataItem: { id: 'x1', data: {} } })).line).toBe(
      'PUT /wix-data/v2/items/x1',
    );
  });

  it('media: repeated array keys and dotted sort', () => {
    const b = build.listFiles({ mediaTypes: ['IMAGE', 'VIDEO'], sort: { fieldName: 'displayName', order: 'ASC' } });
    expect(wire(b).line).toBe(
      'GET /site-media/v1/files?mediaTypes=IMAGE&mediaTypes=VIDEO&sort.fieldName=displayName&sort.order=ASC',
    );
    expect(wire(build.getFileDescriptor({ fileId: 'f1' })).line).toBe(
      'GET /site-media/v1/files/get-file-by-id?fileId=f1',
    );
  });

  it('members: PATCH reads {id} from member.id and keeps it in the body; list sends .r for sorting', () => {
    const body = { member: { id: 'm1', profile: { nickname: 'Al' } } };
    expect(wire(build.updateMember(body))).toEqual({ line: 'PATCH /members/v1/members/m1', body });
    expect(wire(build.updateMemberSlug({ id: 'm1', slug: 'al' }))).toEqual({
      line: 'POST /members/v1/members/m1/slug',
      body: { id: 'm1', slug: 'al' },
    });
    const list = { fieldsets: ['FULL' as const], sorting: [{ fieldName: 'createdDate', order: 'DESC' as const }] };
    const r = Buffer.from(JSON.stringify(list)).toString('base64url');
    expect(wire(build.listMembers(list)).line).toBe(`GET /members/v1/members?.r=${r}`);
    expect(wire(build.getMember({ id: 'm1', fieldsets: ['FULL'] })).line).toBe(
      'GET /members/v1/members/m1?fieldsets=FULL',
    );
  });

  it('auth: token grants and the redirect session', () => {
    expect(wire(build.token({ clientId: 'c', grantType: 'anonymous' }))).toEqual({
      line: 'POST /oauth2/token',
      body: { clientId: 'c', grantType: 'anonymous' },
    });
    const logout = { logout: { clientId: 'c' }, callbacks: { postFlowUrl: 'https://site/' } };
    expect(wire(build.createRedirectSession(logout))).toEqual({
      line: 'POST /_api/redirects-api/v1/redirect-session',
      body: logout,
    });
    expect(wire(build.verify({ code: '123456', stateToken: 's' })).line).toBe(
      'POST /_api/iam/verification/v1/auth/verify',
    );
    expect(wire(build.logout({ postLogoutRedirectUri: 'https://site/', clientId: 'c' })).line).toBe(
      'GET /_api/iam/authentication/v1/logout?postLogoutRedirectUri=https%3A%2F%2Fsite%2F&clientId=c',
    );
  });

  it('throws a clear error instead of producing /undefined', () => {
    expect(() => build.getDataCollection({} as never)).toThrow(RequestBuildError);
    expect(() => build.getDataCollection({} as never)).toThrow(
      'getDataCollection: missing path parameter "dataCollectionId"',
    );
    expect(() => build.updateMember({ member: {} })).toThrow('updateMember: missing path parameter "member.id"');
    expect(() => build.deleteMember({ id: '' })).toThrow(RequestBuildError);
    expect(() => build.getMember({ id: { toString: () => 'x' } } as never)).toThrow(RequestBuildError);
  });

  it('refuses `.` and `..` as path parameters: URL parsing would send the call to another endpoint', () => {
    expect(() => build.getDataCollection({ dataCollectionId: '..' })).toThrow(
      'getDataCollection: path parameter "dataCollectionId" cannot be ".."',
    );
    expect(() => build.deleteMember({ id: '.' })).toThrow(RequestBuildError);
    expect(wire(build.getDataCollection({ dataCollectionId: '...' })).line).toBe('GET /wix-data/v2/collections/...');
  });

  it('never mutates its input', () => {
    const input = Object.freeze({ id: 'm1', fieldsets: Object.freeze(['FULL'] as const) });
    expect(() => build.getMember(input as never)).not.toThrow();
  });
});
