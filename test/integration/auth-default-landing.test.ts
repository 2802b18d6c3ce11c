/**
 * A redirect session without `redirectUri` (what the silent flows send by default): the emulator
 * answers on a landing page of its own (`query`, `fragment`), or posts to the embedding page's
 * origin (`web_message`) when that origin is allowed; the code exchange then matches "no redirect URI".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePKCE } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { newEmail, sessionTokenOf } from '../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** A fresh member signed in by the SDK's direct login: its session token. */
async function sessionToken(): Promise<string> {
  return sessionTokenOf(
    await emulator.newVisitor().auth.register({ email: newEmail('landing'), password: 'no redirect here' }),
  );
}

/** A redirect session for a session token, without a redirect URI: the answer, and the PKCE verifier of its challenge. */
async function redirectSession(
  responseMode: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<{ response: Response; codeVerifier: string }> {
  const { codeVerifier, codeChallenge } = await generatePKCE();
  const authRequest = {
    clientId: emulator.info.clientId,
    codeChallenge,
    codeChallengeMethod: 'S256',
    responseMode,
    responseType: 'code',
    scope: 'offline_access',
    state: 'the-state',
    sessionToken: token,
  };
  const body = JSON.stringify({ auth: { authRequest, prompt: 'none' } });
  const response = await emulator.fetch('/_api/redirects-api/v1/redirect-session', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { response, codeVerifier };
}

describe('redirect sessions without a redirect URI', () => {
  it('getMemberTokensForDirectLogin with no redirectUri, in Node, gets member tokens', async () => {
    const client = emulator.newVisitor();
    const email = newEmail('direct');
    const outcome = await client.auth.register({ email, password: 'no redirect uri' });
    const tokens = await client.auth.getMemberTokensForDirectLogin(sessionTokenOf(outcome));
    expect(tokens.refreshToken.role).toBe('member');
    expect(client.auth.loggedIn()).toBe(true);
    expect((await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member?.loginEmail).toBe(email);
  });

  it('query mode redirects to the emulator landing page, which shows "signed in"', async () => {
    const { response: created } = await redirectSession('query', await sessionToken());
    expect(created.status).toBe(200);
    const { redirectSession: session } = (await created.json()) as { redirectSession: { fullUrl: string } };
    const page = await fetch(session.fullUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const landing = new URL(page.headers.get('location')!);
    expect(landing.origin).toBe(emulator.url);
    expect(landing.searchParams.get('code')).toBeTruthy();
    expect(landing.searchParams.get('state')).toBe('the-state');
    const shown = await fetch(landing);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Signed in');
  });

  it('fragment mode lands on the same page, with the code in the fragment', async () => {
    const { response: created } = await redirectSession('fragment', await sessionToken());
    const { redirectSession: session } = (await created.json()) as { redirectSession: { fullUrl: string } };
    const landing = new URL((await fetch(session.fullUrl, { redirect: 'manual' })).headers.get('location')!);
    expect(`${landing.origin}${landing.pathname}`).toBe(`${emulator.url}/_pages/signed-in`);
    expect(new URLSearchParams(landing.hash.slice(1)).get('code')).toBeTruthy();
  });

  it('web_message posts to the embedding page origin when it is allowed, and refuses another', async () => {
    const { response: allowed } = await redirectSession('web_message', await sessionToken(), {
      origin: 'http://localhost:5173',
    });
    expect(allowed.status).toBe(200);
    const { redirectSession: session } = (await allowed.json()) as { redirectSession: { fullUrl: string } };
    const page = await (await fetch(session.fullUrl)).text();
    expect(page).toContain('postMessage(');
    expect(page).toContain('"http://localhost:5173"');

    const { response: referred } = await redirectSession('web_message', await sessionToken(), {
      referer: 'http://127.0.0.1:8080/some/page?x=1',
    });
    expect(referred.status).toBe(200);

    const { response: foreign } = await redirectSession('web_message', await sessionToken(), {
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ details: { applicationError: { code: 'INVALID_REDIRECT_URI' } } });
    const { response: nowhere } = await redirectSession('web_message', await sessionToken());
    expect(nowhere.status).toBe(400);
  });

  it('a code issued without a redirect URI is refused with one, and accepted without', async () => {
    const { response: created, codeVerifier } = await redirectSession('query', await sessionToken());
    const { redirectSession: session } = (await created.json()) as { redirectSession: { fullUrl: string } };
    const code = new URL(
      (await fetch(session.fullUrl, { redirect: 'manual' })).headers.get('location')!,
    ).searchParams.get('code')!;
    const exchange = (extra: Record<string, string>) =>
      emulator.fetch('/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          clientId: emulator.info.clientId,
          grantType: 'authorization_code',
          code,
          codeVerifier,
          ...extra,
        }),
      });
    expect((await exchange({ redirectUri: 'http://localhost:5999/callback' })).status).toBe(400);
    const accepted = await exchange({});
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
    });
  });
});
