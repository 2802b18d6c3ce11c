/**
 * The hosted sign-in pages driven by HTTP, as a browser would: the redirect flow with PKCE and
 * state (fragment and query), the code exchange and its refusals (wrong verifier, other redirect
 * URI, a code used twice, a foreign redirect URI), `prompt=none` from the emulator's session
 * cookie, `web_message`, registration with the emailed code on the page, an identity provider,
 * and the logout page.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generatePKCE, type OAuthData } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { newEmail, readOutbox, sessionTokenOf, setConfig } from '../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());
afterEach(() => setConfig(emulator, { emailVerificationRequired: false }));

const APP = 'http://127.0.0.1:5173/callback';

async function member(password = 'page password'): Promise<{ email: string; password: string }> {
  const email = newEmail('page');
  expect((await emulator.newVisitor().auth.register({ email, password })).loginState).toBe('SUCCESS');
  return { email, password };
}

/** Posts the hosted page's form as a browser does. */
const postForm = (url: string, fields: Record<string, string>, cookie?: string) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
  });

/** The session cookie a response sets (name=value). */
const sessionCookie = (response: Response) => response.headers.get('set-cookie')?.split(';')[0];

/** Signs in on the hosted page; returns the redirect's URL and the session cookie. */
async function signInOnPage(
  authUrl: string,
  credentials: { email: string; password: string },
): Promise<{ location: URL; cookie: string }> {
  const page = await fetch(authUrl);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const html = await page.text();
  expect(html).toContain('<form method="post"');
  expect(html).toContain('name="password"');
  const response = await postForm(authUrl, { action: 'login', ...credentials });
  expect(response.status).toBe(302);
  return { location: new URL(response.headers.get('location')!), cookie: sessionCookie(response)! };
}

/** A silent authorization (`prompt=none`, answered in the query) by the browser holding `cookie`. */
async function silentAuthorization(client: ReturnType<TestEmulator['newVisitor']>, cookie: string): Promise<Response> {
  const { authUrl } = await client.auth.getAuthUrl(await client.auth.generateOAuthData(APP), {
    prompt: 'none',
    responseMode: 'query',
  });
  return fetch(authUrl, { redirect: 'manual', headers: { cookie } });
}

/** A raw code exchange, as any OAuth client sends it. */
const exchange = (body: Record<string, unknown>) =>
  emulator.fetch('/oauth2/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'authorization_code', ...body }),
  });

describe('the redirect flow', () => {
  it('hosted page → code and state in the fragment → member tokens; a code works once', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const data = await client.auth.generateOAuthData(APP, 'http://127.0.0.1:5173/');
    const { authUrl } = await client.auth.getAuthUrl(data);
    expect(authUrl.startsWith(`${emulator.url}/_pages/auth/`)).toBe(true);

    const { location, cookie } = await signInOnPage(authUrl, credentials);
    expect(location.origin + location.pathname).toBe(APP);
    expect(cookie).toMatch(/^sitekit_emulator_session=/);
    const { code, state } = client.auth.parseFromUrl(location.href);
    expect(state).toBe(data.state);

    const tokens = await client.auth.getMemberTokens(code, state, data);
    expect(tokens.refreshToken.role).toBe('member');
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(credentials.email);

    const twice = await exchange({ redirectUri: APP, code, codeVerifier: data.codeVerifier });
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({ details: { applicationError: { code: 'INVALID_GRANT' } } });
  });

  it('refuses a wrong verifier and another redirect URI without spending the code', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const data = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data, { responseMode: 'query' });
    const { location } = await signInOnPage(authUrl, credentials);
    expect(location.hash).toBe('');
    const code = location.searchParams.get('code')!;
    expect(location.searchParams.get('state')).toBe(data.state);

    const wrongVerifier = await exchange({ redirectUri: APP, code, codeVerifier: (await generatePKCE()).codeVerifier });
    expect(wrongVerifier.status).toBe(400);
    expect(JSON.stringify(await wrongVerifier.json())).toContain('PKCE');
    const otherRedirect = await exchange({
      redirectUri: 'http://127.0.0.1:5173/elsewhere',
      code,
      codeVerifier: data.codeVerifier,
    });
    expect(otherRedirect.status).toBe(400);
    const otherClient = await emulator.fetch('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        clientId: 'someone-else',
        grantType: 'authorization_code',
        redirectUri: APP,
        code,
        codeVerifier: data.codeVerifier,
      }),
    });
    expect(otherClient.status).toBe(400);

    // Still unspent: the right exchange works.
    const tokens = await client.auth.getMemberTokens(code, data.state, data);
    expect(tokens.refreshToken.role).toBe('member');
  });

  it('refuses a foreign redirect URI and an unknown client when the session is created', async () => {
    const client = emulator.newVisitor();
    await expect(
      client.auth.getAuthUrl(await client.auth.generateOAuthData('https://evil.example/callback')),
    ).rejects.toMatchObject({ status: 400, code: 'INVALID_REDIRECT_URI' });
    const stranger = emulator.newVisitor();
    const response = await emulator.fetch('/_api/redirects-api/v1/redirect-session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        auth: {
          authRequest: {
            ...(await stranger.auth.generateOAuthData(APP)),
            clientId: 'not-a-client',
            codeChallengeMethod: 'S256',
            responseMode: 'fragment',
            responseType: 'code',
            scope: 'offline_access',
            codeChallenge: (await generatePKCE()).codeChallenge,
          },
        },
      }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: 'INVALID_CLIENT' } } });
  });

  it('shows a wrong password on the page (post-redirect-get), with its code, and signs nobody in', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const { authUrl } = await client.auth.getAuthUrl(await client.auth.generateOAuthData(APP));
    const response = await postForm(authUrl, { action: 'login', email: credentials.email, password: 'not it' });
    // A redirect to the page, so Back and reload never ask to resubmit the form.
    expect(response.status).toBe(303);
    expect(new URL(response.headers.get('location')!, authUrl).href).toBe(authUrl);
    expect(response.headers.get('set-cookie')).toBeNull();
    const html = await (await fetch(authUrl)).text();
    expect(html).toContain('role="alert"');
    expect(html).toContain('-19976');
    expect(html).toContain(`value="${credentials.email}"`);
    // The problem is shown once: a reload shows the form without it.
    expect(await (await fetch(authUrl)).text()).not.toContain('role="alert"');
  });

  it('a spent page says the sign-in is complete, links back to the app, and takes no second sign-in', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const { authUrl } = await client.auth.getAuthUrl(await client.auth.generateOAuthData(APP));
    await signInOnPage(authUrl, credentials);
    const again = await fetch(authUrl);
    expect(again.status).toBe(200);
    const html = await again.text();
    expect(html).toContain('This sign-in is complete');
    expect(html).not.toContain('<form');
    expect(html).toContain('href="http://127.0.0.1:5173/"');
    const resubmitted = await postForm(authUrl, { action: 'login', ...credentials });
    expect(resubmitted.status).toBe(303);
    expect(resubmitted.headers.get('set-cookie')).toBeNull();
  });

  it('links back to the app and to "forgot password" from the sign-in form', async () => {
    const client = emulator.newVisitor();
    const { authUrl } = await client.auth.getAuthUrl(await client.auth.generateOAuthData(APP));
    const html = await (await fetch(authUrl)).text();
    expect(html).toMatch(/<a href="http:\/\/127\.0\.0\.1:5173\/">Back to the app<\/a>/);
    expect(html).toMatch(/<a href="\/site\/recover"[^>]*>Forgot your password\?<\/a>/);
    expect(await (await fetch(`${authUrl}?view=register`)).text()).toContain('Back to the app');
  });
});

describe('prompt=none', () => {
  it('answers at once from the session cookie, else with error=login_required', async () => {
    const credentials = await member();
    const first = emulator.newVisitor();
    const { cookie } = await signInOnPage(
      (await first.auth.getAuthUrl(await first.auth.generateOAuthData(APP))).authUrl,
      credentials,
    );

    const client = emulator.newVisitor();
    const data: OAuthData = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data, { prompt: 'none', responseMode: 'query' });
    const withCookie = await fetch(authUrl, { redirect: 'manual', headers: { cookie } });
    expect(withCookie.status).toBe(302);
    const answer = client.auth.parseFromUrl(withCookie.headers.get('location')!, 'query');
    await client.auth.getMemberTokens(answer.code, answer.state, data);
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(credentials.email);

    const withoutCookie = await fetch((await client.auth.getAuthUrl(data, { prompt: 'none' })).authUrl, {
      redirect: 'manual',
    });
    expect(withoutCookie.status).toBe(302);
    expect(client.auth.parseFromUrl(withoutCookie.headers.get('location')!)).toMatchObject({
      code: null,
      error: 'login_required',
      state: data.state,
    });
  });

  it('web_message: the page posts code and state to the redirect URI origin only', async () => {
    const credentials = await member();
    const outcome = await emulator.newVisitor().auth.login(credentials);
    const client = emulator.newVisitor();
    const data = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data, {
      prompt: 'none',
      responseMode: 'web_message',
      sessionToken: sessionTokenOf(outcome),
    });
    const response = await fetch(authUrl);
    expect(response.status).toBe(200);
    expect(sessionCookie(response)).toMatch(/^sitekit_emulator_session=/);
    const html = await response.text();
    const posted = html.match(/postMessage\((\{.*?\}),("[^"]*")\)/);
    expect(posted).not.toBeNull();
    const message = JSON.parse(posted![1]!) as { code: string; state: string };
    expect(JSON.parse(posted![2]!)).toBe('http://127.0.0.1:5173');
    expect(message.state).toBe(data.state);
    await client.auth.getMemberTokens(message.code, message.state, data);
    expect(client.auth.loggedIn()).toBe(true);
  });

  it('the logout route ends the cookie session and returns to an allowed URI only', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const { cookie } = await signInOnPage(
      (await client.auth.getAuthUrl(await client.auth.generateOAuthData(APP))).authUrl,
      credentials,
    );
    const foreign = await emulator.fetch(
      '/_api/iam/authentication/v1/logout?postLogoutRedirectUri=https%3A%2F%2Fevil.example%2F',
      { redirect: 'manual', headers: { cookie } },
    );
    expect(foreign.status).toBe(400);
    const logout = await emulator.fetch(
      `/_api/iam/authentication/v1/logout?postLogoutRedirectUri=${encodeURIComponent('http://127.0.0.1:5173/')}&clientId=${emulator.info.clientId}`,
      { redirect: 'manual', headers: { cookie } },
    );
    expect(logout.status).toBe(302);
    expect(logout.headers.get('location')).toBe('http://127.0.0.1:5173/');
    const silent = await silentAuthorization(client, cookie);
    expect(new URL(silent.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });

  it('a HEAD of a prompt=none page spends nothing', async () => {
    const credentials = await member();
    const outcome = await emulator.newVisitor().auth.login(credentials);
    const client = emulator.newVisitor();
    const data = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data, {
      prompt: 'none',
      responseMode: 'query',
      sessionToken: sessionTokenOf(outcome),
    });
    expect((await fetch(authUrl, { method: 'HEAD' })).status).toBe(200);
    const answer = await fetch(authUrl, { redirect: 'manual' });
    expect(client.auth.parseFromUrl(answer.headers.get('location')!, 'query').code).toBeTruthy();
  });

  it('a login redirect session signs the browser in and returns it to the post-flow URL, with no code', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const { redirectSession } = await client.auth.createRedirectSession({
      login: {},
      callbacks: { postFlowUrl: 'http://127.0.0.1:5173/welcome' },
    });
    const { location, cookie } = await signInOnPage(redirectSession!.fullUrl!, credentials);
    expect(location.href).toBe('http://127.0.0.1:5173/welcome');
    // Signed in: a silent authorization with the page's cookie gets a code at once.
    const silent = await silentAuthorization(client, cookie);
    expect(client.auth.parseFromUrl(silent.headers.get('location')!, 'query').code).toBeTruthy();
    // The page is spent, and a post-flow URL the client does not allow is refused.
    expect(await (await fetch(redirectSession!.fullUrl!)).text()).toContain('You are signed in');
    await expect(
      client.auth.createRedirectSession({ login: {}, callbacks: { postFlowUrl: 'https://evil.example/' } }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it('the logout page ends the cookie session', async () => {
    const credentials = await member();
    const client = emulator.newVisitor();
    const { cookie } = await signInOnPage(
      (await client.auth.getAuthUrl(await client.auth.generateOAuthData(APP))).authUrl,
      credentials,
    );
    const { logoutUrl } = await client.auth.logout('http://127.0.0.1:5173/');
    const logout = await fetch(logoutUrl, { redirect: 'manual', headers: { cookie } });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('set-cookie')).toContain('Max-Age=0');
    const silent = await silentAuthorization(client, cookie);
    expect(new URL(silent.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });
});

describe('registration and providers on the page', () => {
  it('registers on the page, verifies the emailed code there, and returns with a code', async () => {
    await setConfig(emulator, { emailVerificationRequired: true });
    const client = emulator.newVisitor();
    const data = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data);
    expect(await (await fetch(`${authUrl}?view=register`)).text()).toContain('Create account');
    const email = newEmail('onpage');
    const registered = await postForm(authUrl, {
      action: 'register',
      email,
      password: 'typed on the page',
      nickname: 'Pager',
    });
    expect(registered.status).toBe(303);
    const stateToken = (await (await fetch(authUrl)).text()).match(/name="stateToken" value="([^"]+)"/)![1]!;
    const [mail] = await readOutbox(emulator, email);
    const verified = await postForm(authUrl, { action: 'verify', stateToken, code: mail!.code! });
    expect(verified.status).toBe(302);
    const answer = client.auth.parseFromUrl(verified.headers.get('location')!);
    await client.auth.getMemberTokens(answer.code, answer.state, data);
    expect((await client.members.getCurrentMember()).member?.profile?.nickname).toBe('Pager');
  });

  it('signs in through an emulated identity provider (idp: google)', async () => {
    const client = emulator.newVisitor();
    const data = await client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(data, { idp: 'google' });
    expect(await (await fetch(authUrl)).text()).toContain('Continue with Google');
    const email = newEmail('google');
    const response = await postForm(authUrl, { action: 'provider', email });
    expect(response.status).toBe(302);
    const answer = client.auth.parseFromUrl(response.headers.get('location')!);
    await client.auth.getMemberTokens(answer.code, answer.state, data);
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member).toMatchObject({
      loginEmail: email,
      loginEmailVerified: true,
    });
  });

  it('an unknown or expired page is a 404 page', async () => {
    const response = await emulator.fetch('/_pages/auth/00000000-0000-0000-0000-000000000000');
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('expired');
  });
});
