/**
 * Security probes (issue 18, finding 5): a caller filters, sorts and searches members only on the
 * fields of the field set it may read. Visitors and members read other members' PUBLIC set (id,
 * contactId, profile), so a condition on a login email, a contact name or a status is a 400 for
 * them: before, `$startsWith` on `loginEmail` recovered an email one letter at a time. Elevated
 * callers read every field and may use them all. Member writes are bounded like item writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../../../helpers/emulator.js';
import { type Answer, callJson, type Violation } from '../../../../helpers/json-calls.js';
import { newEmail, sessionTokenOf } from '../../../../helpers/sign-in.js';

let emulator: TestEmulator;
let visitorToken: string;
let member: { token: string; id: string; email: string };
beforeAll(async () => {
  emulator = await startEmulator();
  const visitor = emulator.newVisitor();
  await visitor.members.queryMembers().find();
  visitorToken = visitor.auth.getTokens().accessToken.value;
  const client = emulator.newVisitor();
  const email = newEmail('prober');
  const outcome = await client.auth.register({ email, password: 'member password', profile: { nickname: 'Prober' } });
  await client.auth.getMemberTokensForDirectLogin(sessionTokenOf(outcome), { redirectUri: 'http://localhost:3000/cb' });
  const me = (await client.members.getCurrentMember()).member!;
  member = { token: client.auth.getTokens().accessToken.value, id: me._id!, email };
});
afterAll(() => emulator?.close());

const send = (path: string, authorization: string, body?: unknown, method = 'POST') =>
  callJson(emulator, method, path, { body, authorization });

const violationsOf = (answer: Answer): string[] | undefined =>
  answer.body.details?.validationError?.fieldViolations.map(
    (violation: Violation) => `${violation.field}:${violation.violatedRule}`,
  );

/** Member queries that name a field outside the PUBLIC set, and the field each 400 must name. */
const HIDDEN_FIELD_QUERIES: [string, unknown, string][] = [
  [
    'a $startsWith on the login email',
    { query: { filter: { loginEmail: { $startsWith: 'a' } } } },
    'query.filter.loginEmail',
  ],
  [
    'the login email inside $or',
    { query: { filter: { $or: [{ 'profile.nickname': 'x' }, { loginEmail: 'ada@example.com' }] } } },
    'query.filter.$or.1.loginEmail',
  ],
  [
    'the login email inside $not',
    { query: { filter: { $not: [{ loginEmail: { $contains: '@' } }] } } },
    'query.filter.$not.loginEmail',
  ],
  ['a contact name', { query: { filter: { 'contact.firstName': 'Ada' } } }, 'query.filter.contact.firstName'],
  ['the status', { query: { filter: { status: 'PENDING' } } }, 'query.filter.status'],
  ['the privacy status', { query: { filter: { privacyStatus: { $ne: 'PUBLIC' } } } }, 'query.filter.privacyStatus'],
  ['a sort by login email', { query: { sort: [{ fieldName: 'loginEmail' }] } }, 'query.sort.0.fieldName'],
  [
    'a sort by last login',
    { query: { sort: [{ fieldName: 'profile.nickname' }, { fieldName: 'lastLoginDate', order: 'DESC' }] } },
    'query.sort.1.fieldName',
  ],
  ['a search over login emails', { search: { expression: 'ada', fields: ['loginEmail'] } }, 'search.fields.0'],
  [
    'a search over contact last names',
    { search: { expression: 'love', fields: ['profile.nickname', 'contact.lastName'] } },
    'search.fields.1',
  ],
];

describe('hidden member fields', () => {
  it.each(HIDDEN_FIELD_QUERIES)('a visitor: %s is a 400 naming the field', async (_name, body, field) => {
    const answer = await send('/members/v1/members/query', visitorToken, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(violationsOf(answer)).toEqual([`${field}:FIELD_NOT_ALLOWED`]);
  });

  it.each(HIDDEN_FIELD_QUERIES)(
    'a member: %s is a 400 too (its own member does not widen it)',
    async (_name, body, field) => {
      const answer = await send('/members/v1/members/query', member.token, body);
      expect(answer.status).toBe(400);
      expect(violationsOf(answer)).toEqual([`${field}:FIELD_NOT_ALLOWED`]);
    },
  );

  it('a member may not probe its own hidden fields through a query either', async () => {
    const answer = await send('/members/v1/members/query', member.token, {
      query: { filter: { loginEmail: member.email } },
    });
    expect(answer.status).toBe(400);
  });

  it('listing members sorted by a hidden field is a 400 for a visitor', async () => {
    const request = Buffer.from(JSON.stringify({ sorting: [{ fieldName: 'loginEmail' }] })).toString('base64url');
    const answer = await send(`/members/v1/members?.r=${request}`, visitorToken, undefined, 'GET');
    expect(answer.status).toBe(400);
    expect(violationsOf(answer)).toEqual(['sorting.0.fieldName:FIELD_NOT_ALLOWED']);
  });

  it('PUBLIC fields stay usable: profile fields, id; searches over the nickname', async () => {
    const byNickname = await send('/members/v1/members/query', visitorToken, {
      query: { filter: { 'profile.nickname': { $startsWith: 'Ada' } }, sort: [{ fieldName: 'profile.slug' }] },
    });
    expect(byNickname.status).toBe(200);
    expect((byNickname.body.members as { profile: { nickname: string } }[])[0]!.profile.nickname).toBe('Ada Lovelace');
    const search = await send('/members/v1/members/query', member.token, {
      search: { expression: 'prober', fields: ['profile.nickname'] },
      query: { filter: { id: member.id } },
    });
    expect((search.body.members as { id: string }[]).map((found) => found.id)).toEqual([member.id]);
  });

  it('an elevated caller reads every field, so it filters, sorts and searches on them all', async () => {
    const answer = await send('/members/v1/members/query', emulator.info.apiKey, {
      fieldsets: ['FULL'],
      query: { filter: { loginEmail: { $startsWith: 'ada@' } }, sort: [{ fieldName: 'loginEmail' }] },
      search: { expression: 'lovelace', fields: ['contact.lastName'] },
    });
    expect(answer.status).toBe(200);
    expect((answer.body.members as { loginEmail: string }[]).map((found) => found.loginEmail)).toEqual([
      'ada@example.com',
    ]);
  });
});

describe('member writes', () => {
  const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

  it("a member's 1,000-level contact is a 400, and member lists still answer", async () => {
    const response = await emulator.fetch(`/members/v1/members/${member.id}`, {
      method: 'PATCH',
      headers: { authorization: member.token, 'content-type': 'application/json' },
      body: `{"member":{"id":"${member.id}","contact":{"customFields":{"deep":{"name":"deep","value":${deep(1000)}}}}}}`,
    });
    expect(response.status).toBe(400);
    expect(violationsOf({ status: 400, body: await response.json() })).toEqual([
      'member.contact.customFields:VALIDATION',
    ]);
    const list = await send('/members/v1/members/query', visitorToken, { query: { filter: {} } });
    expect(list.status).toBe(200);
  });

  it('a member already stored deeper than SQLite reads (an older store, an import) never makes lists fail', async () => {
    // Written straight into the store, as an older emulator (or a version 1 import) could have kept it:
    // a version 2 import refuses it at the door.
    const { data } = emulator.context.store.get<{ data: string }>('SELECT data FROM members WHERE id = ?', [
      member.id,
    ])!;
    emulator.context.store.run('UPDATE members SET data = ? WHERE id = ?', [
      data.replace(/}$/, `,"extra":${deep(1500)}}`),
      member.id,
    ]);
    const visitorList = await send('/members/v1/members/query', visitorToken, {
      query: { filter: { 'profile.nickname': { $startsWith: 'A' } }, sort: [{ fieldName: 'profile.nickname' }] },
    });
    expect(visitorList.status, JSON.stringify(visitorList.body)).toBe(200);
    const adminList = await send('/members/v1/members/query', emulator.info.apiKey, {
      query: { filter: { loginEmail: { $ne: 'x' } } },
    });
    expect(adminList.status, JSON.stringify(adminList.body)).toBe(200);
  });

  it('a contact key naming a prototype part is a 400', async () => {
    const answer = await send(
      `/members/v1/members/${member.id}`,
      member.token,
      { member: { id: member.id, contact: { constructor: { name: 'x' } } } },
      'PATCH',
    );
    expect(answer.status).toBe(400);
    expect(violationsOf(answer)).toEqual(['member.contact.constructor:FORMAT']);
  });
});
