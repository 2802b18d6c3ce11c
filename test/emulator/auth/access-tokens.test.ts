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

  it('lives at least a second: a lifetime of 0 is refused, naming the setting, and changes nothing', async () => {
    const refused = await setLifetime(0);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toMatch(/tokenLifetimeSeconds/);
    expect((await setLifetime(1)).status).toBe(200);
    expect((await token({ grantType: 'anonymous' })).body.expires_in).toBe(1);
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

  it("is dated on the emulator's clock, in epoch seconds: issued now there, expiring a lifetime later", async () => {
    await setLifetime(900);
    const twoDays = 2 * 24 * 3600;
    await send('POST', '/_emulator/clock', { advanceSeconds: twoDays });
    const clockSeconds = async () => Date.parse((await send('GET', '/_emulator/clock')).body.now) / 1000;
    const before = await clockSeconds();
    const { access_token } = (await token({ grantType: 'anonymous' })).body;
    const after = await clockSeconds();
    const { iat, exp } = decodeJwt(access_token);
    expect(iat).toBeGreaterThanOrEqual(Math.floor(before));
    expect(iat).toBeLessThanOrEqual(Math.ceil(after));
    expect(exp).toBe(iat! + 900);
    // Real time is two days behind: the token is not from then.
    expect(iat! - Date.now() / 1000).toBeGreaterThan(twoDays - 60);
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

  /** `claims` signed with the site's own key, as only the emulator can: what it would take its own tokens to say. */
  const signedBySite = async (claims: Record<string, unknown>) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: decodeProtectedHeader((await memberTokens()).accessToken).alg! })
      .sign(emulator.context.site.privateKey);
  const query = { dataCollectionId: 'Movies' };
  const queryItems = (accessToken: string) => send('POST', '/wix-data/v2/items/query', query, accessToken);

  it("of a member, without a session (made before sessions existed), is refused; a visitor's lives to its expiry", async () => {
    const member = await memberTokens();
    const { sid: _sid, ...claims } = decodeJwt(member.accessToken);
    const refused = await myMember(await signedBySite(claims));
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/not in the emulator's state/);
    const visitor = { ...claims, role: 'visitor', sub: claims.visitorId, memberId: undefined };
    expect((await queryItems(await signedBySite(visitor))).status).toBe(200);
  });

  it('counts only when its claims agree: a visitor naming a member is no member, a member naming none or another role is refused', async () => {
    const member = await memberTokens();
    const visitorToken = (await token({ grantType: 'anonymous' })).body.access_token;
    const visitor = decodeJwt(visitorToken);
    const namingMember = await signedBySite({ ...visitor, memberId: member.memberId });
    expect((await queryItems(namingMember)).status).toBe(200);
    expect((await myMember(namingMember)).status).not.toBe(200);
    const claims = decodeJwt(member.accessToken);
    for (const odd of [
      { ...claims, memberId: undefined },
      { ...claims, role: 'admin' },
    ]) {
      const refused = await myMember(await signedBySite(odd));
      expect(refused.status, JSON.stringify(odd)).toBe(401);
      expect(refused.body.message).toMatch(/names no known role/);
    }
  });

  it('makes an authenticated caller in the request log', async () => {
    const member = await memberTokens();
    expect((await myMember(member.accessToken)).status).toBe(200);
    const { requests } = (await send('GET', '/_emulator/requests?path=/members/v1/members/my&limit=1')).body;
    expect(requests[0].caller).toMatchObject({ kind: 'member', authenticated: true, memberId: member.memberId });
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

  it('refuses a refresh token issued to another client (an authorized_client grant names its own)', async () => {
    const member = await memberTokens();
    const issued = await send(
      'POST',
      '/oauth2/token',
      { grant_type: 'authorized_client', client_id: 'another-client', member_id: member.memberId },
      emulator.info.apiKey,
    );
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const refused = await token({ grantType: 'refresh_token', refreshToken: issued.body.refresh_token });
    expect(refused.status).toBe(400);
    expect(refused.body.details.applicationError.code).toBe('INVALID_GRANT');
    expect(refused.body.message).toMatch(/issued to another client/);
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
