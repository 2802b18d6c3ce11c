/**
 * Access tokens and refresh tokens as the emulator issues and checks them (issue 35, tokens and
 * sessions): the claims and lifetime of a token, expiry on the emulator's clock, tokens that are
 * not ours, and the refusals of a refresh. Raw HTTP and the site's public key, not our SDK.
 */
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { callJson } from '../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());
afterEach(async () => {
  await send('POST', '/_emulator/clock', { reset: true });
  await setLifetime(14400);
});

const send = (method: string, path: string, body?: unknown, authorization?: string) =>
  callJson(emulator, method, path, { body, authorization });
const setLifetime = (seconds: number) =>
  emulator.fetch('/_emulator/config', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config: { tokenLifetimeSeconds: seconds } }),
  });
const token = (body: Record<string, unknown>) =>
  send('POST', '/oauth2/token', { clientId: emulator.info.clientId, ...body });
const myMember = (accessToken: string) => send('GET', '/members/v1/members/my', undefined, accessToken);

let emails = 0;
/** A new member's tokens (control API sign-in). */
async function memberTokens(): Promise<{ memberId: string; accessToken: string; refreshToken: string }> {
  const email = `access-${++emails}-${Date.now()}@example.test`;
  const registered = await send('POST', '/_api/iam/authentication/v2/register', {
    loginId: { email },
    password: 'a password',
  });
  const memberId = registered.body.identity.id as string;
  const signedIn = await send('POST', '/_emulator/sign-in-as', { memberId });
  expect(signedIn.status).toBe(200);
  return { memberId, accessToken: signedIn.body.accessToken.value, refreshToken: signedIn.body.refreshToken.value };
}

describe('an access token', () => {
  it("is signed with the site's key and names the caller, its session and the configured lifetime", async () => {
    await setLifetime(900);
    const visitor = await token({ grantType: 'anonymous' });
    expect(visitor.body).toMatchObject({ expires_in: 900, token_type: 'Bearer' });
    const info = await (await emulator.fetch('/_emulator/info')).json();
    const { payload } = await jwtVerify(visitor.body.access_token, createPublicKey(info.publicKey), {
      issuer: 'sitekit-emulator',
      audience: emulator.info.siteId,
    });
    expect(payload.exp! - payload.iat!).toBe(900);
    expect(payload).toMatchObject({ role: 'visitor', clientId: emulator.info.clientId, sub: payload.visitorId });
    expect(payload.sid).toEqual(expect.any(String));
    expect(payload.memberId).toBeUndefined();

    const member = await memberTokens();
    const claims = decodeJwt(member.accessToken);
    expect(claims).toMatchObject({ role: 'member', memberId: member.memberId, sub: member.memberId });
    expect(decodeProtectedHeader(member.accessToken).alg).toBe(decodeProtectedHeader(visitor.body.access_token).alg);
    // Two tokens of one session within a second are still two tokens.
    const renewed = await token({ grantType: 'refresh_token', refreshToken: member.refreshToken });
    expect(decodeJwt(renewed.body.access_token).jti).not.toBe(claims.jti);
    expect(decodeJwt(renewed.body.access_token).sid).toBe(claims.sid);
  });

  it("expires on the emulator's clock", async () => {
    await setLifetime(600);
    const member = await memberTokens();
    await send('POST', '/_emulator/clock', { advanceSeconds: 590 });
    expect((await myMember(member.accessToken)).status).toBe(200);
    await send('POST', '/_emulator/clock', { advanceSeconds: 20 });
    const expired = await myMember(member.accessToken);
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/has expired/);
    // The refresh token outlives it.
    const renewed = await token({ grantType: 'refresh_token', refreshToken: member.refreshToken });
    expect((await myMember(renewed.body.access_token)).status).toBe(200);
  });

  it('is refused when it is not ours: garbage, a bad signature, another key', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const member = await memberTokens();
    const claims = decodeJwt(member.accessToken);
    const alg = decodeProtectedHeader(member.accessToken).alg!;
    const forged = (issuer: string, audience: string) =>
      new SignJWT({ ...claims }).setProtectedHeader({ alg }).setIssuer(issuer).setAudience(audience).sign(privateKey);
    const [header, payload] = member.accessToken.split('.');
    for (const accessToken of [
      'not-a-token',
      `${header}.${payload}.${'A'.repeat(86)}`,
      await forged('sitekit-emulator', emulator.info.siteId),
    ]) {
      const refused = await myMember(accessToken);
      expect(refused.status, accessToken).toBe(401);
      expect(refused.body.message, accessToken).toMatch(/not valid/);
    }
  });
});

describe('a refresh', () => {
  it('refuses an unknown or revoked refresh token, saying which', async () => {
    const unknown = await token({ grantType: 'refresh_token', refreshToken: 'member.nothing-issued' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/Unknown refresh token/);

    const member = await memberTokens();
    expect((await send('GET', '/_api/iam/authentication/v1/logout', undefined, member.accessToken)).status).toBe(200);
    const revoked = await token({ grantType: 'refresh_token', refreshToken: member.refreshToken });
    expect(revoked.status).toBe(400);
    expect(revoked.body.details.applicationError.code).toBe('INVALID_GRANT');
    expect(revoked.body.message).toMatch(/revoked/);
    const ended = await myMember(member.accessToken);
    expect(ended.status).toBe(401);
    expect(ended.body.message).toMatch(/session of this access token has ended/);
  });

  it('answers a token of the same member, visitor and session, and the same refresh token', async () => {
    const member = await memberTokens();
    const renewed = await token({ grantType: 'refresh_token', refreshToken: member.refreshToken });
    expect(renewed.status).toBe(200);
    expect(renewed.body.refresh_token).toBe(member.refreshToken);
    const before = decodeJwt(member.accessToken);
    expect(decodeJwt(renewed.body.access_token)).toMatchObject({
      role: 'member',
      memberId: member.memberId,
      visitorId: before.visitorId,
      clientId: before.clientId,
      sid: before.sid,
    });
  });
});
