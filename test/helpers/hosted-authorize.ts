/**
 * The hosted flow's silent authorization (`prompt=none`) in raw HTTP, as the official client makes
 * it: a PKCE pair, a redirect session for the emulator's OAuth client, then the hosted page, whose
 * redirect carries the code (or the error). Shared by the token, code and cookie tests.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestEmulator } from './emulator.js';
import { callJson } from './json-calls.js';

/** What the authorization sends besides the emulator's client and a fresh PKCE pair. */
export interface AuthorizeOptions {
  /** A sign-in's session token; none: the hosted page relies on its cookie. */
  sessionToken?: string;
  /** Where the page redirects; none: the client's default. */
  redirectUri?: string;
  /** The `cookie` header of the hosted page's request. */
  cookie?: string;
}

/** Where the hosted page sent the browser (its `location`), with the verifier of the code it may carry. */
export interface Authorization {
  location: URL;
  code: string | null;
  error: string | null;
  codeVerifier: string;
}

/** Opens a redirect session with `prompt=none` and follows it to the hosted page's redirect. */
export async function authorizeSilently(
  emulator: TestEmulator,
  options: AuthorizeOptions = {},
): Promise<Authorization> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
  const session = await callJson(emulator, 'POST', '/_api/redirects-api/v1/redirect-session', {
    body: {
      auth: {
        authRequest: {
          clientId: emulator.info.clientId,
          codeChallenge,
          codeChallengeMethod: 'S256',
          responseMode: 'query',
          responseType: 'code',
          scope: 'offline_access',
          state: 'state',
          ...(options.sessionToken === undefined ? {} : { sessionToken: options.sessionToken }),
          ...(options.redirectUri === undefined ? {} : { redirectUri: options.redirectUri }),
        },
        prompt: 'none',
      },
    },
  });
  expect(session.status).toBe(200);
  const page = await fetch(session.body.redirectSession.fullUrl, {
    redirect: 'manual',
    ...(options.cookie === undefined ? {} : { headers: { cookie: options.cookie } }),
  });
  expect(page.status).toBe(302);
  const location = new URL(page.headers.get('location')!);
  return {
    location,
    code: location.searchParams.get('code'),
    error: location.searchParams.get('error'),
    codeVerifier,
  };
}
