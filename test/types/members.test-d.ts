/** Types of the members query builder: typed by the public Member. */
import { describe, expectTypeOf, it } from 'vitest';
import type { Member } from '../../generated/models.js';
import type { Client } from '../../src/client.js';
import type { PagedResult } from '../../src/data/types.js';
import type { MembersQueryBuilder, MembersQueryResult } from '../../src/members/members.js';

declare const client: Client;

describe('queryMembers', () => {
  it('checks member fields and values', () => {
    const q = client.members.queryMembers({ fieldsets: ['FULL'] });
    expectTypeOf(q.eq('status', 'APPROVED')).toEqualTypeOf<MembersQueryBuilder>();
    q.eq('_id', 'm1')
      .gt('_createdDate', new Date())
      .startsWith('profile.nickname', 'A')
      .ascending('loginEmail')
      .descending('_createdDate')
      .limit(10)
      .skip(10);
    expectTypeOf(q.find()).resolves.toEqualTypeOf<MembersQueryResult>();
    expectTypeOf(q.find()).resolves.toExtend<PagedResult<Member> & { query: MembersQueryBuilder }>();
    // @ts-expect-error not a member status
    q.eq('status', 'NOPE');
    // @ts-expect-error not a member field
    q.eq('nope', 1);
    // @ts-expect-error not a fieldset
    client.members.queryMembers({ fieldsets: ['ALL'] });
  });

  it('bulk-by-filter methods take a filter builder or object', () => {
    client.members.bulkApproveMembers(client.items.filter().eq('status', 'PENDING'));
    client.members.bulkBlockMembers({ status: 'PENDING' });
    expectTypeOf(client.members.getMember('m1')).resolves.toEqualTypeOf<Member>();
  });
});
