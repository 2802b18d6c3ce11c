/**
 * The emulator's own sign-in cookie (issue 35, tokens and sessions): how it is set, which cookie
 * headers a silent sign-in (`prompt=none`) reads it from, what it refuses (an unknown, undecodable
 * or ended session, a blocked member) and that the logout route ends it. Raw HTTP, no browser.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../../../helpers/emulator.js';
import { authorizeSilently } from '../../../../helpers/hosted-authorize.js';
import { callJson } from '../../../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());
afterEach(() => send('POST', '/_emulator/clock', { reset: true }));

const COOKIE = 'sitekit_emulator_session';
const send = (method: string, path: string, body?: unknown, authorization?: string) =>
  callJson(emulator, method, path, { body, authorization });

let emails = 0;
/**
 * A new member, signed in on a "browser" by the control API: its id, the cookie's value and its
 * `set-cookie`. `site`: the path of another site than the default one (`/_sites/<id>`).
 */
async function signedInBrowser(site = ''): Promise<{ memberId: string; session: string; setCookie: string }> {
  const email = `browser-${++emails}-${Date.now()}@example.test`;
  const registered = await send('POST', `${site}/_api/iam/authentication/v2/register`, {
    loginId: { email },
    password: 'a password',
  });
  const memberId = registered.body.identity.id as string;
  const response = await emulator.fetch(`${site}/_emulator/sign-in-as`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ memberId, browserSession: true }),
  });
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie')!;
  const session = decodeURIComponent(setCookie.match(new RegExp(`^${COOKIE}=([^;]*)`))![1]!);
  return { memberId, session, setCookie };
}

/** A silent sign-in (`prompt=none`, no session token) with this cookie header: the code, or the error. */
async function silentSignIn(cookie?: string): Promise<{ code: string | null; error: string | null }> {
  const { code, error } = await authorizeSilently(emulator, cookie === undefined ? {} : { cookie });
  return { code, error };
}

const signedIn = { code: expect.any(String), error: null };
const notSignedIn = { code: null, error: 'login_required' };

describe("the emulator's sign-in cookie", () => {
  it('is HttpOnly, Lax, for the whole origin, and lasts a week', async () => {
    const { setCookie } = await signedInBrowser();
    expect(setCookie).toMatch(new RegExp(`^${COOKIE}=[^;]+; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800$`));
  });

  it('signs a silent sign-in in, wherever it stands among other cookies and however it is spaced', async () => {
    const { session } = await signedInBrowser();
    for (const cookie of [
      `${COOKIE}=${session}`,
      `theme=dark; ${COOKIE}=${session}`,
      `flag; ${COOKIE}=${session}; other=1`,
      // A part without '=' is no cookie, not even one whose name it starts with.
      `${COOKIE}_; ${COOKIE}=${session}`,
      `  ${COOKIE} =  ${encodeURIComponent(session).replace('.', '%2E')}  ;other=%E0%A4%A`,
    ])
      expect(await silentSignIn(cookie), cookie).toEqual(signedIn);
  });

  it('does not sign in without it, with an unknown or undecodable value, or under another name', async () => {
    const { session } = await signedInBrowser();
    for (const cookie of [
      undefined,
      '',
      `${COOKIE}=browser-session.unknown`,
      `${COOKIE}=%E0%A4%A`,
      `x${COOKIE}=${session}`,
      // Cookie names are case-sensitive (RFC 6265).
      `${COOKIE.toUpperCase()}=${session}`,
      `${COOKIE}`,
    ])
      expect(await silentSignIn(cookie), String(cookie)).toEqual(notSignedIn);
  });

  it("lasts a week on the emulator's clock, as its Max-Age says", async () => {
    const { session } = await signedInBrowser();
    const week = 7 * 24 * 3600;
    await send('POST', '/_emulator/clock', { advanceSeconds: week - 60 });
    expect(await silentSignIn(`${COOKIE}=${session}`)).toEqual(signedIn);
    await send('POST', '/_emulator/clock', { advanceSeconds: 120 });
    expect(await silentSignIn(`${COOKIE}=${session}`)).toEqual(notSignedIn);
  });

  it('of two cookies with its name, reads the first (the browser sends the most specific path first)', async () => {
    const { session } = await signedInBrowser();
    expect(await silentSignIn(`${COOKIE}=${session}; ${COOKIE}=browser-session.unknown`)).toEqual(signedIn);
    expect(await silentSignIn(`${COOKIE}=browser-session.unknown; ${COOKIE}=${session}`)).toEqual(notSignedIn);
  });

  it('no longer signs in a member blocked since', async () => {
    const { memberId, session } = await signedInBrowser();
    expect(await silentSignIn(`${COOKIE}=${session}`)).toEqual(signedIn);
    const blocked = await send('POST', `/members/v1/members/${memberId}/block`, {}, emulator.info.apiKey);
    expect(blocked.status).toBe(200);
    expect(await silentSignIn(`${COOKIE}=${session}`)).toEqual(notSignedIn);
  });

  it('is ended and cleared by the logout route; another browser stays signed in', async () => {
    const { session } = await signedInBrowser();
    const other = await signedInBrowser();
    const logout = await emulator.fetch('/_api/iam/authentication/v1/logout', {
      headers: { cookie: `${COOKIE}=${session}` },
    });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toBe(`${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    expect(await silentSignIn(`${COOKIE}=${session}`)).toEqual(notSignedIn);
    expect(await silentSignIn(`${COOKIE}=${other.session}`)).toEqual(signedIn);
  });

  it("of another site has that site's path, and that site's logout clears it there", async () => {
    const site = `/_sites/${(await emulator.createSite({ from: 'empty' })).info.siteId}`;
    const { session, setCookie } = await signedInBrowser(site);
    expect(setCookie).toMatch(new RegExp(`^${COOKIE}=[^;]+; Path=${site}; HttpOnly; SameSite=Lax; Max-Age=604800$`));
    const logout = await emulator.fetch(`${site}/_api/iam/authentication/v1/logout`, {
      headers: { cookie: `${COOKIE}=${session}` },
    });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toBe(`${COOKIE}=; Path=${site}; HttpOnly; SameSite=Lax; Max-Age=0`);
  });
});
