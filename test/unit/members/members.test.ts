/** members: the queryMembers builder (generic paging rules) and a representative few generated methods. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../src/client.js';
import { isElevationRequiredError, isRequestError } from '../../../src/errors/index.js';
import { BASE, useNock } from '../../helpers/capture.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();
const members = client.members;
const PATH = '/members/v1/members/query';

const wireMember = (n: number) => ({
  id: `m${n}`,
  loginEmail: `m${n}@x.test`,
  createdDate: '2024-01-01T00:00:00.000Z',
  profile: { nickname: `M${n}` },
});

function capture(path: string, reply: object = {}, method: 'post' | 'patch' = 'post') {
  const bodies: any[] = [];
  const scope = nock(BASE)
    [method](path, (b) => (bodies.push(b), true))
    .reply(200, reply);
  return { bodies, scope };
}

useNock();

describe('queryMembers', () => {
  it('always sends paging, {offset: 0, limit: 50} by default; members come back in public form', async () => {
    const { bodies } = capture(PATH, {
      members: [wireMember(1)],
      metadata: { count: 1, offset: 0, total: 1, tooManyToCount: false },
    });
    const page = await members.queryMembers().find();
    expect(bodies[0]).toEqual({ query: { paging: { offset: 0, limit: 50 } } });
    expect(page.items).toEqual([
      {
        _id: 'm1',
        loginEmail: 'm1@x.test',
        _createdDate: new Date('2024-01-01T00:00:00.000Z'),
        profile: { nickname: 'M1' },
      },
    ]);
    expect(page).toMatchObject({ length: 1, totalCount: 1, pageSize: 50, currentPage: 0, totalPages: 1 });
    expect(page.hasNext()).toBe(false);
  });

  it('each page carries the query that fetched it (`query`, as the official result), the next page too', async () => {
    capture(PATH, { members: [wireMember(1)], metadata: { count: 1, offset: 0, total: 2 } });
    capture(PATH, { members: [wireMember(2)], metadata: { count: 1, offset: 1, total: 2 } });
    const query = members.queryMembers().eq('status', 'APPROVED').limit(1);
    const page = await query.find();
    expect(page.query).toBe(query);
    expect(((await page.next()) as typeof page).query).toBe(query);
  });

  it('fieldsets, filter, sort and paging on the wire; public system field names become wire names', async () => {
    const { bodies } = capture(PATH, { members: [] });
    await members
      .queryMembers({ fieldsets: ['FULL'] })
      .eq('status', 'APPROVED')
      .startsWith('profile.nickname', 'Al')
      .ne('_id', 'm0')
      .gt('_createdDate', new Date('2024-01-01T00:00:00.000Z'))
      .hasSome('_id', ['m1', 'm2'])
      .descending('_createdDate')
      .ascending('profile.nickname')
      .limit(10)
      .skip(20)
      .find();
    expect(bodies[0]).toEqual({
      fieldsets: ['FULL'],
      query: {
        // `_id` is named twice: nothing merges.
        filter: {
          $and: [
            { status: 'APPROVED' },
            { 'profile.nickname': { $startsWith: 'Al' } },
            { id: { $ne: 'm0' } },
            { createdDate: { $gt: '2024-01-01T00:00:00.000Z' } },
            { id: { $hasSome: ['m1', 'm2'] } },
          ],
        },
        sort: [
          { fieldName: 'createdDate', order: 'DESC' },
          { fieldName: 'profile.nickname', order: 'ASC' },
        ],
        paging: { limit: 10, offset: 20 },
      },
    });
  });

  it('shares the filter builder: and/or/not with items.filter()', async () => {
    const { bodies } = capture(PATH, { members: [] });
    await members.queryMembers().eq('status', 'PENDING').or(client.items.filter().eq('_id', 'x')).find();
    expect(bodies[0].query.filter).toEqual({ $or: [{ status: 'PENDING' }, { id: 'x' }] });
  });

  it('next() moves by one page; metadata gives the totals', async () => {
    const { bodies } = capture(PATH, {
      members: [wireMember(1), wireMember(2)],
      metadata: { count: 2, offset: 0, total: 5 },
    });
    const page = await members.queryMembers().limit(2).find();
    expect(page).toMatchObject({ totalCount: 5, totalPages: 3, currentPage: 0 });
    const second = capture(PATH, {
      members: [wireMember(3), wireMember(4)],
      metadata: { count: 2, offset: 2, total: 5 },
    });
    const next = await page.next();
    expect(bodies[0].query.paging).toEqual({ limit: 2, offset: 0 });
    expect(second.bodies[0]).toEqual({ query: { paging: { limit: 2, offset: 2 } } });
    expect(next.currentPage).toBe(1);
    expect(next.items.map((m) => m._id)).toEqual(['m3', 'm4']);
  });

  it('too many to count, and iteration over every page', async () => {
    capture(PATH, { members: [wireMember(1)], metadata: { count: 1, offset: 0, tooManyToCount: true } });
    const page = await members.queryMembers().limit(1).find();
    expect(page.totalCount).toBeUndefined();
    expect(page.totalPages).toBeUndefined();
    expect(page.hasNext()).toBe(true);
    nock(BASE)
      .post(PATH)
      .reply(200, { members: [wireMember(1)], metadata: { total: 2 } })
      .post(PATH)
      .reply(200, { members: [wireMember(2)], metadata: { total: 2 } });
    const ids: unknown[] = [];
    for await (const m of members.queryMembers().limit(1).all()) ids.push(m._id);
    expect(ids).toEqual(['m1', 'm2']);
  });

  it('is immutable', async () => {
    const base = members.queryMembers().eq('status', 'APPROVED');
    base.limit(1).eq('loginEmail', 'x');
    const { bodies } = capture(PATH, { members: [] });
    await base.find();
    expect(bodies[0]).toEqual({ query: { filter: { status: 'APPROVED' }, paging: { offset: 0, limit: 50 } } });
  });

  it('refuses bad input before any request', () => {
    const { scope } = capture(PATH, { members: [] });
    const q = members.queryMembers() as any;
    expect(() => q.limit(0)).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST', field: 'limit' }));
    expect(() => q.skip(-1)).toThrow(expect.objectContaining({ field: 'skip' }));
    expect(() => q.exists('status')).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(() => q.hasAll('x', [])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    expect(scope.isDone()).toBe(false);
  });
});

describe('generated member methods', () => {
  it('getMember: GET with fieldsets, public member back', async () => {
    nock(BASE)
      .get('/members/v1/members/m1')
      .query({ fieldsets: 'FULL' })
      .reply(200, { member: { ...wireMember(1), lastLoginDate: '2024-02-01T00:00:00.000Z' } });
    const member = await members.getMember('m1', { fieldsets: ['FULL'] });
    expect(member._id).toBe('m1');
    expect(member.lastLoginDate).toEqual(new Date('2024-02-01T00:00:00.000Z'));
  });

  it('updateMember: PATCH /members/v1/members/{id} with {member: {id, ...changes}}', async () => {
    const { bodies } = capture('/members/v1/members/m1', { member: wireMember(1) }, 'patch');
    const member = await members.updateMember('m1', { _id: 'ignored', profile: { nickname: 'New' } });
    expect(bodies[0]).toEqual({ member: { id: 'm1', profile: { nickname: 'New' } } });
    expect(member._id).toBe('m1');
  });

  it('listMembers: sorting travels as .r=', async () => {
    let query: Record<string, string> = {};
    nock(BASE)
      .get('/members/v1/members')
      .query((q) => ((query = q as Record<string, string>), true))
      .reply(200, { members: [wireMember(1)], metadata: { count: 1 } });
    const list = await members.listMembers({
      paging: { limit: 10, offset: 0 },
      sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
    });
    expect(JSON.parse(Buffer.from(query['.r']!, 'base64url').toString())).toEqual({
      paging: { limit: 10, offset: 0 },
      sorting: [{ fieldName: 'createdDate', order: 'DESC' }],
    });
    expect(list.members[0]!._id).toBe('m1');
  });

  it('approveMember with a non-elevated client: ElevationRequiredError, no request', async () => {
    const visitor = createClient({ baseUrl: BASE, retry: false });
    const { scope } = capture('/members/v1/members/m1/approve', { member: wireMember(1) });
    const error = await visitor.members.approveMember('m1').catch((e: unknown) => e);
    expect(isElevationRequiredError(error)).toBe(true);
    expect(scope.isDone()).toBe(false);
  });

  it('approveMember with an elevated client', async () => {
    const { bodies } = capture('/members/v1/members/m1/approve', { member: { ...wireMember(1), status: 'APPROVED' } });
    expect((await members.approveMember('m1')).member?.status).toBe('APPROVED');
    expect(bodies[0]).toEqual({ id: 'm1' });
  });

  it('bulk-by-filter methods take a filter builder', async () => {
    const approve = capture('/members/v1/members/bulk/approve-by-filter', { jobId: 'j1' });
    const remove = capture('/members/v1/members/bulk/delete-by-filter', { jobId: 'j2' });
    expect(await members.bulkApproveMembers(client.items.filter().eq('status', 'PENDING'))).toEqual({ jobId: 'j1' });
    await members.bulkDeleteMembersByFilter({ _id: { $in: ['a'] } }, { contentAssigneeId: 'm9' });
    expect(approve.bodies[0]).toEqual({ filter: { status: 'PENDING' } });
    expect(remove.bodies[0]).toEqual({ filter: { id: { $in: ['a'] } }, contentAssigneeId: 'm9' });
  });

  it('a missing filter is refused before any request', async () => {
    const { scope } = capture('/members/v1/members/bulk/block-by-filter', {});
    expect(isRequestError(await members.bulkBlockMembers(undefined as never).catch((e: unknown) => e))).toBe(true);
    expect(scope.isDone()).toBe(false);
  });
});
