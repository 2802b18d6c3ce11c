/**
 * The `authorization_code` grant (issue 35, tokens and sessions): every refusal of a code exchange
 * (empty or malformed fields, unknown, expired, replayed codes, another redirect URI, another PKCE
 * verifier, a member who may no longer sign in), and that a refused exchange spends nothing. Raw
 * HTTP against the emulator: the official client's requests, not what our SDK happens to send.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type TestEmulator } from '../../../../helpers/emulator.js';
import { authorizeSilently } from '../../../../helpers/hosted-authorize.js';
import { callJson, violatedFields, type Answer } from '../../../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());
afterEach(() => send('POST', '/_emulator/clock', { reset: true }));

const send = (method: string, path: string, body?: unknown, authorization?: string) =>
  callJson(emulator, method, path, { body, authorization });
const token = (body: Record<string, unknown>) =>
  send('POST', '/oauth2/token', { clientId: emulator.info.clientId, ...body });
const myMember = (accessToken: string) => send('GET', '/members/v1/members/my', undefined, accessToken);

/** The refusal's application error code, or the first violated field of a 400. */
const refusal = (answer: Answer) => ({
  status: answer.status,
  code: answer.body.details?.applicationError?.code,
  fields: violatedFields(answer),
});

let emails = 0;
/** A registered, signed-in member: its id and a session token. */
async function member(): Promise<{ memberId: string; sessionToken: string }> {
  const email = `codes-${++emails}-${Date.now()}@example.test`;
  const registered = await send('POST', '/_api/iam/authentication/v2/register', {
    loginId: { email },
    password: 'a password',
  });
  expect(registered.body.state).toBe('SUCCESS');
  return { memberId: registered.body.identity.id, sessionToken: registered.body.sessionToken };
}

/** A code issued through the hosted flow (redirect session, `prompt=none`), with its verifier. */
async function issueCode(options: { redirectUri?: string } = {}): Promise<{
  memberId: string;
  code: string;
  codeVerifier: string;
}> {
  const { memberId, sessionToken } = await member();
  const { location, code, codeVerifier } = await authorizeSilently(emulator, { sessionToken, ...options });
  if (options.redirectUri) expect(location.origin + location.pathname).toBe(options.redirectUri);
  expect(code).toBeTruthy();
  return { memberId, code: code!, codeVerifier };
}

const exchange = (fields: Record<string, unknown>) => token({ grantType: 'authorization_code', ...fields });

describe('the authorization_code grant refuses', () => {
  it('an empty code or verifier, naming the field', async () => {
    const { code, codeVerifier } = await issueCode();
    expect(refusal(await exchange({ codeVerifier }))).toMatchObject({
      status: 400,
      fields: expect.arrayContaining(['code']),
    });
    expect(refusal(await exchange({ code: '', codeVerifier }))).toMatchObject({
      status: 400,
      fields: expect.arrayContaining(['code']),
    });
    expect(refusal(await exchange({ code }))).toMatchObject({
      status: 400,
      fields: expect.arrayContaining(['codeVerifier']),
    });
    expect(refusal(await exchange({ code, code_verifier: '' }))).toMatchObject({
      status: 400,
      fields: expect.arrayContaining(['codeVerifier']),
    });
    // None of those spent the code.
    expect((await exchange({ code, codeVerifier })).status).toBe(200);
  });

  it('a verifier outside RFC 7636 (length 43 to 128, unreserved characters)', async () => {
    const { code, codeVerifier } = await issueCode();
    // A character outside the set anywhere, first or last, even after 43 good ones.
    for (const verifier of [
      'a'.repeat(42),
      'a'.repeat(129),
      `${'a'.repeat(42)}+`,
      `${'a'.repeat(42)} `,
      `+${'a'.repeat(43)}`,
      `${'a'.repeat(43)}+`,
    ]) {
      const refused = await exchange({ code, codeVerifier: verifier });
      expect(refusal(refused), verifier).toMatchObject({
        status: 400,
        fields: expect.arrayContaining(['codeVerifier']),
      });
    }
    // The bounds themselves and every unreserved character are well-formed: refused for PKCE, not format.
    for (const verifier of ['a'.repeat(43), 'a'.repeat(128), `AZaz09-._~${'b'.repeat(33)}`])
      expect(refusal(await exchange({ code, codeVerifier: verifier })), verifier).toMatchObject({
        status: 400,
        code: 'INVALID_GRANT',
      });
    expect((await exchange({ code, codeVerifier })).status).toBe(200);
  });

  it('an unknown code, and a code of another purpose', async () => {
    const { sessionToken } = await member();
    const codeVerifier = randomBytes(32).toString('base64url');
    for (const code of ['authorization-code.nothing-issued', sessionToken]) {
      const refused = await exchange({ code, codeVerifier });
      expect(refusal(refused)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
      expect(refused.body.message).toMatch(/Unknown authorization code/);
    }
  });

  it('a code past its five minutes on the emulator clock, not one just inside them', async () => {
    const inside = await issueCode();
    const expired = await issueCode();
    await send('POST', '/_emulator/clock', { advanceSeconds: 5 * 60 - 5 });
    expect((await exchange({ code: inside.code, codeVerifier: inside.codeVerifier })).status).toBe(200);
    await send('POST', '/_emulator/clock', { advanceSeconds: 10 });
    const refused = await exchange({ code: expired.code, codeVerifier: expired.codeVerifier });
    expect(refusal(refused)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
    expect(refused.body.message).toMatch(/expired/);
  });

  it('a code at the very millisecond its five minutes end, not one a millisecond before', async () => {
    // Only Date is faked, and the emulator's clock reads it: time stands still between two calls.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const issuedAt = Date.now();
      const before = await issueCode();
      const at = await issueCode();
      vi.setSystemTime(issuedAt + 5 * 60 * 1000 - 1);
      expect((await exchange({ code: before.code, codeVerifier: before.codeVerifier })).status).toBe(200);
      vi.setSystemTime(issuedAt + 5 * 60 * 1000);
      const refused = await exchange({ code: at.code, codeVerifier: at.codeVerifier });
      expect(refused.body.message).toMatch(/expired/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("no code issued while the emulator's clock is ahead of real time, which counts its five minutes from then", async () => {
    await send('POST', '/_emulator/clock', { advanceSeconds: 24 * 3600 });
    const { code, codeVerifier } = await issueCode();
    await send('POST', '/_emulator/clock', { advanceSeconds: 5 * 60 - 5 });
    expect((await exchange({ code, codeVerifier })).status).toBe(200);
  });

  it('a PKCE verifier other than the one of the challenge, and spends nothing doing so', async () => {
    const { code, codeVerifier } = await issueCode();
    const refused = await exchange({ code, codeVerifier: randomBytes(32).toString('base64url') });
    expect(refusal(refused)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
    expect(refused.body.message).toMatch(/PKCE/);
    const accepted = await exchange({ code, codeVerifier });
    expect(accepted.status).toBe(200);
    expect((await myMember(accepted.body.access_token)).status).toBe(200);
  });

  it('another redirect URI than the authorization request named, or one when it named none', async () => {
    const redirectUri = 'http://localhost:5173/callback';
    const named = await issueCode({ redirectUri });
    for (const other of [undefined, '', 'http://localhost:5173/other', 'http://localhost:5174/callback']) {
      const refused = await exchange({ code: named.code, codeVerifier: named.codeVerifier, redirectUri: other });
      expect(refusal(refused), String(other)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
      expect(refused.body.message, String(other)).toMatch(/redirect URI differs/);
    }
    expect(
      (await exchange({ code: named.code, codeVerifier: named.codeVerifier, redirect_uri: redirectUri })).status,
    ).toBe(200);

    const unnamed = await issueCode();
    const refused = await exchange({ code: unnamed.code, codeVerifier: unnamed.codeVerifier, redirectUri });
    expect(refusal(refused)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
    // An empty redirect URI is none.
    expect((await exchange({ code: unnamed.code, codeVerifier: unnamed.codeVerifier, redirectUri: '' })).status).toBe(
      200,
    );
  });

  it('another client', async () => {
    const { code, codeVerifier } = await issueCode();
    const refused = await exchange({ code, codeVerifier, clientId: 'another-client' });
    expect(refusal(refused)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
    expect((await exchange({ code, codeVerifier })).status).toBe(200);
  });

  it('the code of a member blocked since it was issued', async () => {
    const { memberId, code, codeVerifier } = await issueCode();
    const blocked = await send('POST', `/members/v1/members/${memberId}/block`, {}, emulator.info.apiKey);
    expect(blocked.status).toBe(200);
    expect(refusal(await exchange({ code, codeVerifier }))).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
  });
});

describe('an exchanged code', () => {
  it('answers tokens of that member, and the visitor id of the visitor who signed in', async () => {
    const visitor = await token({ grantType: 'anonymous' });
    const visitorId = JSON.parse(
      Buffer.from(visitor.body.access_token.split('.')[1], 'base64url').toString(),
    ).visitorId;
    const { memberId, code, codeVerifier } = await issueCode();
    const answer = await send(
      'POST',
      '/oauth2/token',
      { clientId: emulator.info.clientId, grantType: 'authorization_code', code, codeVerifier },
      `Bearer ${visitor.body.access_token}`,
    );
    expect(answer.status).toBe(200);
    const claims = JSON.parse(Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ role: 'member', memberId, visitorId, clientId: emulator.info.clientId });
    expect((await myMember(answer.body.access_token)).body.member.id).toBe(memberId);
  });

  it('works once: a replay is refused and ends the sessions of that code only', async () => {
    const first = await issueCode();
    const other = await issueCode();
    const tokens = await exchange({ code: first.code, codeVerifier: first.codeVerifier });
    const otherTokens = await exchange({ code: other.code, codeVerifier: other.codeVerifier });
    const replay = await exchange({ code: first.code, codeVerifier: first.codeVerifier });
    expect(refusal(replay)).toMatchObject({ status: 400, code: 'INVALID_GRANT' });
    expect(replay.body.message).toMatch(/already used/);
    expect((await myMember(tokens.body.access_token)).status).toBe(401);
    expect((await token({ grantType: 'refresh_token', refreshToken: tokens.body.refresh_token })).status).toBe(400);
    expect((await myMember(otherTokens.body.access_token)).status).toBe(200);
    expect((await token({ grantType: 'refresh_token', refreshToken: otherTokens.body.refresh_token })).status).toBe(
      200,
    );
  });
});
