/**
 * Security (issue 18) and fidelity (issue 19 item 1), token sessions: refresh tokens are reusable
 * as on the platform; a session ends as a whole (refresh token refused, access tokens 401) on
 * logout, block, delete, password change (the member's other sessions, finding 12) and when the
 * authorization code it came from is replayed (finding 11). Raw HTTP: the official client's
 * requests, not what our SDK happens to send.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { authorizeSilently } from '../../helpers/hosted-authorize.js';
import { callJson } from '../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

interface Tokens {
  access_token: string;
  refresh_token: string;
}

const send = (method: string, path: string, body?: unknown, authorization?: string) =>
  callJson(emulator, method, path, { body, authorization });

const token = (body: Record<string, unknown>) =>
  send('POST', '/oauth2/token', { clientId: emulator.info.clientId, ...body });
const refresh = (refreshToken: string) => token({ grantType: 'refresh_token', refreshToken });
/** A call only a signed-in member can make. */
const myMember = (accessToken: string) => send('GET', '/members/v1/members/my', undefined, accessToken);

let emails = 0;
/** Registers a member (email and password); answers its id and a session token. */
async function register(password = 'first password'): Promise<{ memberId: string; email: string; password: string }> {
  const email = `tokens-${++emails}-${Date.now()}@example.test`;
  const registered = await send('POST', '/_api/iam/authentication/v2/register', { loginId: { email }, password });
  expect(registered.body.state).toBe('SUCCESS');
  return { memberId: registered.body.identity.id, email, password };
}

/** Signs in through the hosted flow (login, redirect session, code, exchange); answers the tokens and the code. */
async function signIn(
  email: string,
  password: string,
): Promise<{ tokens: Tokens; exchange: () => ReturnType<typeof token> }> {
  const login = await send('POST', '/_api/iam/authentication/v2/login', { loginId: { email }, password });
  expect(login.body.state).toBe('SUCCESS');
  const { code, codeVerifier } = await authorizeSilently(emulator, { sessionToken: login.body.sessionToken });
  const exchange = () => token({ grantType: 'authorization_code', code, codeVerifier });
  const first = await exchange();
  expect(first.status).toBe(200);
  return { tokens: first.body as Tokens, exchange };
}

describe('refresh tokens (issue 19 item 1)', () => {
  it('are reusable: the official client sends its first refresh token at every renewal', async () => {
    const visitor = await token({ grantType: 'anonymous' });
    for (let renewal = 0; renewal < 3; renewal++) {
      const renewed = await refresh(visitor.body.refresh_token);
      expect(renewed.status, `visitor renewal ${renewal}`).toBe(200);
      expect(renewed.body.access_token).not.toBe(visitor.body.access_token);
    }
    const member = await register();
    const { tokens } = await signIn(member.email, member.password);
    let newest = tokens.refresh_token;
    for (let renewal = 0; renewal < 3; renewal++) {
      const renewed = await refresh(tokens.refresh_token);
      expect(renewed.status, `member renewal ${renewal}`).toBe(200);
      expect((await myMember(renewed.body.access_token)).status).toBe(200);
      // A client that keeps the newest one (ours) works too.
      const fromNewest = await refresh(newest);
      expect(fromNewest.status).toBe(200);
      newest = fromNewest.body.refresh_token;
    }
  });
});

describe('sessions end as a whole', () => {
  it('a replayed authorization code revokes the tokens issued for it (finding 11)', async () => {
    const member = await register();
    const { tokens, exchange } = await signIn(member.email, member.password);
    const renewed = await refresh(tokens.refresh_token);
    expect((await myMember(renewed.body.access_token)).status).toBe(200);
    const replay = await exchange();
    expect(replay.status).toBe(400);
    expect(replay.body.details.applicationError.code).toBe('INVALID_GRANT');
    expect((await refresh(tokens.refresh_token)).status).toBe(400);
    expect((await myMember(tokens.access_token)).status).toBe(401);
    expect((await myMember(renewed.body.access_token)).status).toBe(401);
    // The member's other sessions are not the stolen code's.
    const other = await signIn(member.email, member.password);
    expect((await myMember(other.tokens.access_token)).status).toBe(200);
  });

  it("a password change ends the member's other sessions, not the one that changed it (finding 12)", async () => {
    const member = await register();
    const here = await signIn(member.email, member.password);
    const elsewhere = await signIn(member.email, member.password);
    const changed = await send(
      'POST',
      '/_api/iam/authentication/v2/change-password',
      { newPassword: 'second password' },
      here.tokens.access_token,
    );
    expect(changed.status).toBe(200);
    expect((await refresh(elsewhere.tokens.refresh_token)).status).toBe(400);
    expect((await myMember(elsewhere.tokens.access_token)).status).toBe(401);
    expect((await myMember(here.tokens.access_token)).status).toBe(200);
    expect((await refresh(here.tokens.refresh_token)).status).toBe(200);
  });

  it('logout ends the session (the logout route and the logout redirect session)', async () => {
    const member = await register();
    const first = await signIn(member.email, member.password);
    const second = await signIn(member.email, member.password);
    expect((await send('GET', '/_api/iam/authentication/v1/logout', undefined, first.tokens.access_token)).status).toBe(
      200,
    );
    expect((await refresh(first.tokens.refresh_token)).status).toBe(400);
    expect((await myMember(first.tokens.access_token)).status).toBe(401);
    expect((await myMember(second.tokens.access_token)).status).toBe(200);

    const logout = await send(
      'POST',
      '/_api/redirects-api/v1/redirect-session',
      { logout: { clientId: emulator.info.clientId } },
      second.tokens.access_token,
    );
    expect(logout.status).toBe(200);
    expect((await refresh(second.tokens.refresh_token)).status).toBe(400);
    expect((await myMember(second.tokens.access_token)).status).toBe(401);
  });

  it('blocking or deleting a member ends its sessions at once', async () => {
    for (const end of ['block', 'delete'] as const) {
      const member = await register();
      const { tokens } = await signIn(member.email, member.password);
      const ended =
        end == 'block'
          ? await send('POST', `/members/v1/members/${member.memberId}/block`, {}, emulator.info.apiKey)
          : await send('DELETE', `/members/v1/members/${member.memberId}`, undefined, emulator.info.apiKey);
      expect(ended.status, end).toBe(200);
      expect((await refresh(tokens.refresh_token)).status, end).toBe(400);
      expect((await myMember(tokens.access_token)).status, end).toBe(401);
    }
  });
});

describe('sessions after an import or a seed (issue 31, item 2)', () => {
  /** `POST /_emulator/import` of a file. */
  const importFile = (file: unknown) => send('POST', '/_emulator/import', file);
  /** `GET /_emulator/export`: the state's entities. */
  const exportState = async () =>
    (await send('GET', '/_emulator/export')).body as { members: { id: string; status: string }[] };

  it('a member re-declared BLOCKED by an import is signed out: its tokens 401, its refresh refused', async () => {
    const member = await register();
    const { tokens } = await signIn(member.email, member.password);
    expect((await myMember(tokens.access_token)).status).toBe(200);
    const imported = await importFile({ members: [{ id: member.memberId, email: member.email, status: 'BLOCKED' }] });
    expect(imported.status).toBe(200);
    expect((await myMember(tokens.access_token)).status).toBe(401);
    const refused = await refresh(tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body.details.applicationError.code).toBe('INVALID_GRANT');
  });

  it('a member re-declared with a new password is signed out; the new password signs in', async () => {
    const member = await register();
    const { tokens } = await signIn(member.email, member.password);
    await importFile({ members: [{ email: member.email, password: 'a new password' }] });
    expect((await myMember(tokens.access_token)).status).toBe(401);
    expect((await refresh(tokens.refresh_token)).status).toBe(400);
    const again = await signIn(member.email, 'a new password');
    expect((await myMember(again.tokens.access_token)).status).toBe(200);
  });

  it('a member blocked in an imported state is refused: its refresh and its access token', async () => {
    const member = await register();
    const { tokens } = await signIn(member.email, member.password);
    const exported = await exportState();
    exported.members.find((candidate) => candidate.id == member.memberId)!.status = 'BLOCKED';
    expect((await importFile(exported)).status).toBe(200);
    expect((await refresh(tokens.refresh_token)).status).toBe(400);
    expect((await myMember(tokens.access_token)).status).toBe(401);
  });

  it("a member's token whose session the state no longer holds is refused; a visitor's lives on", async () => {
    const member = await register();
    const { tokens } = await signIn(member.email, member.password);
    const visitor = await token({ grantType: 'anonymous' });
    // The same state: the member is there, approved, with the same password; an export holds no sessions.
    expect((await importFile(await exportState())).status).toBe(200);
    expect((await myMember(tokens.access_token)).status).toBe(401);
    const query = { dataCollectionId: 'Movies' };
    expect((await send('POST', '/wix-data/v2/items/query', query, visitor.body.access_token)).status).toBe(200);
  });
});

describe('the emulated identity provider (finding 9)', () => {
  const GOOGLE = '0e6a50f5-b523-4e29-990d-f37fa2ffdd69';
  /** An unsigned (`alg: none`) id_token, as anyone can make one. */
  const idToken = (claims: Record<string, unknown>) =>
    [{ alg: 'none', typ: 'JWT' }, claims, {}]
      .map((part, index) => (index == 2 ? '' : Buffer.from(JSON.stringify(part)).toString('base64url')))
      .join('.');
  const providerLogin = (claims: Record<string, unknown>) =>
    send('POST', '/_api/iam/authentication/v1/sso/login-with-token-params', {
      idpConnectionId: GOOGLE,
      tokenParams: { id_token: idToken(claims) },
    });

  it('never signs in a member it did not create (a password member, named by email)', async () => {
    const member = await register();
    const takeover = await providerLogin({ sub: 'attacker', email: member.email });
    expect(takeover.status).toBe(403);
    expect(takeover.body.details.applicationError.code).toBe('IDP_ACCOUNT_NOT_LINKED');
    expect(takeover.body.sessionToken).toBeUndefined();
  });

  it('signs in the members it created, again and again, by their provider user id only', async () => {
    const email = `idp-${Date.now()}@example.test`;
    const first = await providerLogin({ sub: 'google-user-1', email });
    expect(first.status).toBe(200);
    expect(first.body.state).toBe('SUCCESS');
    expect((await providerLogin({ sub: 'google-user-1', email })).body.state).toBe('SUCCESS');
    expect((await providerLogin({ sub: 'google-user-2', email })).status).toBe(403);
  });
});

describe("sessions in an older version's export (version 1 tables, imported as they are)", () => {
  const fixture = () =>
    JSON.parse(readFileSync(join(import.meta.dirname, '../fixtures/state-version-1.json'), 'utf8')) as {
      tables: Record<string, Record<string, unknown>[]>;
    };
  const stored = (secret: string) => createHash('sha256').update(secret).digest('base64url');
  /** The fixture with its first member's status set, and these rows of sessions and secrets. */
  function state(status: string, rows: { refresh_tokens?: object[]; auth_secrets?: object[] }) {
    const file = fixture();
    const member = file.tables.members![0]!;
    member.data = JSON.stringify({ ...JSON.parse(member.data as string), status });
    Object.assign(file.tables, rows);
    return { file, memberId: member.id as string };
  }
  /** A refresh-token row of an emulator before sessions: no session id (the token's hash names it). */
  const refreshRow = (refreshToken: string, memberId: string, extra: object = {}) => ({
    token_hash: stored(refreshToken),
    kind: 'member',
    visitor_id: randomUUID(),
    member_id: memberId,
    client_id: emulator.info.clientId,
    created_at: new Date().toISOString(),
    used_at: null,
    ...extra,
  });
  const importFile = async (file: object) => expect((await send('POST', '/_emulator/import', file)).status).toBe(200);

  it("renews a session without a session id as the one its refresh token's hash names, while its member may sign in", async () => {
    const refreshToken = `member.${randomUUID()}`;
    const approved = state('APPROVED', { refresh_tokens: [] });
    approved.file.tables.refresh_tokens = [refreshRow(refreshToken, approved.memberId)];
    await importFile(approved.file);
    const renewed = await refresh(refreshToken);
    expect(renewed.status).toBe(200);
    expect(renewed.body.refresh_token).toBe(refreshToken);
    const member = await myMember(renewed.body.access_token);
    expect(member.status).toBe(200);
    expect(member.body.member.id).toBe(approved.memberId);
    expect((await refresh(refreshToken)).status).toBe(200);

    // The same session in a state where its member is blocked: its refresh and its access token are refused.
    const blocked = state('BLOCKED', {});
    blocked.file.tables.refresh_tokens = [
      refreshRow(refreshToken, blocked.memberId, { session_id: stored(refreshToken) }),
    ];
    await importFile(blocked.file);
    const refused = await refresh(refreshToken);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/member cannot sign in: the member is BLOCKED/);
    const ended = await myMember(renewed.body.access_token);
    expect(ended.status).toBe(401);
    expect(ended.body.message).toMatch(/member cannot use it: the member is BLOCKED/);
  });

  it('signs no browser in with the cookie of a member who may not sign in, or who is not there', async () => {
    const cookie = (secret: string) => `sitekit_emulator_session=${secret}`;
    const secretRow = (secret: string, memberId: string) => ({
      secret_hash: stored(secret),
      purpose: 'browser-session',
      member_id: memberId,
      data: '{}',
      created_at: new Date().toISOString(),
      expires_at: new Date(Date.now() + 3600_000).toISOString(),
      used_at: null,
    });
    const [approvedSecret, blockedSecret, goneSecret] = ['a', 'b', 'c'].map(
      (name) => `browser-session.${name}${randomUUID()}`,
    );
    for (const [status, secret, signedIn] of [
      ['APPROVED', approvedSecret!, true],
      ['BLOCKED', blockedSecret!, false],
    ] as const) {
      const { file, memberId } = state(status, {});
      file.tables.auth_secrets = [secretRow(secret, memberId), secretRow(goneSecret!, randomUUID())];
      await importFile(file);
      const { code, error } = await authorizeSilently(emulator, { cookie: cookie(secret) });
      expect({ code: Boolean(code), error }, status).toEqual(
        signedIn ? { code: true, error: null } : { code: false, error: 'login_required' },
      );
      const gone = await authorizeSilently(emulator, { cookie: cookie(goneSecret!) });
      expect(gone.error).toBe('login_required');
    }
  });
});
