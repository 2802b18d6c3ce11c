/**
 * Redirect sessions (`POST /_api/redirects-api/v1/redirect-session`): an authorization request or
 * a logout, kept so that its hosted page (the session's `fullUrl`) can be opened, reloaded and
 * posted to. Checked when created: the client, the redirect URI, PKCE S256.
 */
import { sitePath } from '../../../sites/site-path.js';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { components } from '../../../../generated/wire.js';
import { applicationError, invalidField } from '../../../errors.js';
import type { EmulatorContext } from '../../../service.js';
import type { Migration } from '../../../store/store.js';
import { isLoopbackOrigin } from '../../../http/request-guards.js';
import { isAllowedRedirect, LANDING_PAGE, requireAllowedRedirect } from './redirect-uris.js';

/** How the hosted page hands the code back. */
export type ResponseMode = 'fragment' | 'query' | 'web_message';

/** A sign-in (authorization) request. */
export interface AuthorizationSession {
  kind: 'auth';
  id: string;
  clientId: string;
  /**
   * Where the code goes. Absent when the request named none (the silent flows): the emulator's
   * landing page (`query`, `fragment`), or `messageOrigin` (`web_message`).
   */
  redirectUri?: string;
  /** `web_message` without a redirect URI: the (allowed) origin of the page that asked, the only one the code is posted to. */
  messageOrigin?: string;
  codeChallenge: string;
  responseMode: ResponseMode;
  state: string;
  prompt: 'login' | 'none' | 'consent' | 'select_account';
  sessionToken?: string;
  /** Identity-provider connection id: the page signs in through that (emulated) provider. */
  idp?: string;
  /**
   * A `login` session (the `login` intent): where the browser goes once signed in (the
   * `callbacks.postFlowUrl`, else the emulator's landing page). It gets no code: its code
   * challenge and state are empty.
   */
  afterLogin?: string;
  /** Set once the page answered the client with a code: the page is spent (Back shows that, not a form). */
  completed?: boolean;
  /** What the page shows next: a submission is answered with a redirect to the page (post-redirect-get). */
  page?: HostedPageState;
}

/**
 * What a hosted page shows after a submission: which view, the problem of the last submission
 * (shown once), what was typed, and the state token of a pending verification.
 */
export interface HostedPageState {
  view: 'sign-in' | 'register' | 'verify' | 'provider' | 'approval' | 'blocked';
  error?: string;
  code?: string;
  email?: string;
  nickname?: string;
  stateToken?: string;
}

/** A logout request. */
export interface LogoutSession {
  kind: 'logout';
  id: string;
  clientId: string;
  postFlowUrl?: string;
}

/** Either kind of redirect session. */
export type RedirectSession = AuthorizationSession | LogoutSession;

/** How long a redirect session's page can be used. */
const SESSION_SECONDS = 60 * 60;

export const redirectSessionMigrations: Migration[] = [
  {
    id: 'sign-in-001-redirect-sessions',
    sql: 'CREATE TABLE redirect_sessions (id TEXT PRIMARY KEY, session TEXT NOT NULL, expires_at TEXT NOT NULL)',
  },
];

/** The identity providers the platform names, by connection id (wire.md). */
export const IDENTITY_PROVIDERS: Record<string, string> = {
  '0e6a50f5-b523-4e29-990d-f37fa2ffdd69': 'Google',
  '3ecad13f-52c3-483d-911f-31dbcf2a6d23': 'Facebook',
};

/** A known client of the site, or the platform's refusal. */
export function requireKnownClient(context: EmulatorContext, clientId: unknown, field: string): string {
  if (typeof clientId != 'string' || !clientId) throw invalidField(field, 'must not be empty', 'REQUIRED_FIELD');
  if (clientId != context.site.clientId)
    throw applicationError(400, 'INVALID_CLIENT', `Unknown OAuth client ${clientId}`, { field });
  return clientId;
}

/** The body of `POST /_api/redirects-api/v1/redirect-session` (validated against the schema before the call). */
export type RedirectSessionRequest = components['schemas']['RedirectSessionRequest'];
type AuthRequest = components['schemas']['RedirectSessionAuthRequest'];

const RESPONSE_MODES: readonly string[] = ['fragment', 'query', 'web_message'] satisfies ResponseMode[];

/** The origin of the page that sent `request` (its `Origin`, else its `Referer`), if it names one. */
function requestingOrigin(request: FastifyRequest | undefined): string | undefined {
  for (const header of [request?.headers.origin, request?.headers.referer]) {
    if (typeof header == 'string' && URL.canParse(header)) {
      const { origin } = new URL(header);
      if (origin != 'null') return origin;
    }
  }
  return undefined;
}

/**
 * Where a `web_message` answer without a redirect URI goes: the embedding page's origin, when the
 * client allows it (else the platform's refusal: the code would go to a page nobody vouched for).
 */
function allowedMessageOrigin(context: EmulatorContext, request: FastifyRequest | undefined, field: string): string {
  const origin = requestingOrigin(request);
  if (origin && isAllowedRedirect(context, origin)) return origin;
  throw applicationError(
    400,
    'INVALID_REDIRECT_URI',
    `${field}: web_message without a redirect URI posts to the requesting page's origin, and ${origin ?? 'the request names none (no Origin or Referer)'} is not an allowed origin of the OAuth client (allowed: localhost origins, the emulator, allowedRedirectOrigins)`,
    { field },
  );
}

/**
 * The origin of the hosted pages for a request: the loopback name the request came to
 * (`localhost` or `127.0.0.1`, on the emulator's port), else the emulator's own URL. A page opened
 * at `http://localhost:4700` then frames and opens the pages on its own origin: the session cookie
 * they set is first-party, and the silent sign-in after a reload finds it (at `127.0.0.1` it
 * would be a cross-site frame's cookie, which the browser neither stores nor sends).
 */
function pagesOrigin(context: EmulatorContext, request: FastifyRequest | undefined): string {
  const own = new URL(context.url());
  const host = request?.headers.host;
  if (typeof host == 'string' && isLoopbackOrigin(`${own.protocol}//${host}`)) {
    const asked = new URL(`${own.protocol}//${host}`);
    if (asked.port == own.port) return asked.origin;
  }
  return own.origin;
}

/**
 * Checks a redirect-session request and keeps it; answers `{redirectSession}`. `request` is the
 * HTTP request that carried it: its `Origin` / `Referer` is where a `web_message` answer without a
 * redirect URI is posted.
 */
export function createRedirectSession(
  context: EmulatorContext,
  input: RedirectSessionRequest,
  request?: FastifyRequest,
): { redirectSession: { id: string; fullUrl: string; shortUrl: string; urlDetails: { endpoint: string } } } {
  const id = randomUUID();
  let session: RedirectSession;
  if (input.auth) {
    const authRequest: Partial<AuthRequest> = input.auth.authRequest ?? {};
    const at = 'auth.authRequest';
    const responseMode = authRequest.responseMode ?? 'fragment';
    if (!RESPONSE_MODES.includes(responseMode))
      throw invalidField(`${at}.responseMode`, 'must be fragment, query or web_message', 'INVALID_ENUM_VALUE');
    if (authRequest.codeChallengeMethod != 'S256')
      throw invalidField(`${at}.codeChallengeMethod`, 'must be S256', 'INVALID_ENUM_VALUE');
    if (typeof authRequest.codeChallenge != 'string' || !/^[A-Za-z0-9_-]{43}$/.test(authRequest.codeChallenge)) {
      throw invalidField(
        `${at}.codeChallenge`,
        'must be the base64url SHA-256 of the code verifier (43 characters)',
        'FORMAT',
      );
    }
    if (typeof authRequest.state != 'string' || !authRequest.state)
      throw invalidField(`${at}.state`, 'must not be empty', 'REQUIRED_FIELD');
    if (typeof authRequest.idp == 'string' && authRequest.idp && !IDENTITY_PROVIDERS[authRequest.idp]) {
      throw applicationError(400, 'INVALID_IDP_CONNECTION', `Unknown identity-provider connection ${authRequest.idp}`);
    }
    const clientId = requireKnownClient(context, authRequest.clientId, `${at}.clientId`);
    // Liberal in what it accepts: no redirect URI (or an empty one) means the default answer.
    const redirectUri = authRequest.redirectUri
      ? requireAllowedRedirect(context, authRequest.redirectUri, `${at}.redirectUri`)
      : undefined;
    const messageOrigin =
      !redirectUri && responseMode == 'web_message'
        ? allowedMessageOrigin(context, request, `${at}.redirectUri`)
        : undefined;
    session = {
      kind: 'auth',
      id,
      clientId,
      ...(redirectUri ? { redirectUri } : {}),
      ...(messageOrigin ? { messageOrigin } : {}),
      codeChallenge: authRequest.codeChallenge,
      responseMode,
      state: authRequest.state,
      prompt: input.auth.prompt ?? 'login',
      ...(authRequest.sessionToken ? { sessionToken: authRequest.sessionToken } : {}),
      ...(authRequest.idp ? { idp: authRequest.idp } : {}),
    };
  } else if (input.login) {
    // The site's own sign-in: the browser signs in on the hosted page and returns to the post-flow URL.
    const postFlowUrl = input.callbacks?.postFlowUrl;
    session = {
      kind: 'auth',
      id,
      clientId: context.site.clientId,
      codeChallenge: '',
      responseMode: 'query',
      state: '',
      prompt: 'login',
      afterLogin: postFlowUrl
        ? requireAllowedRedirect(context, postFlowUrl, 'callbacks.postFlowUrl')
        : `${context.url()}${LANDING_PAGE}`,
    };
  } else if (input.logout) {
    const postFlowUrl = input.callbacks?.postFlowUrl;
    session = {
      kind: 'logout',
      id,
      clientId: requireKnownClient(context, input.logout.clientId, 'logout.clientId'),
      ...(postFlowUrl ? { postFlowUrl: requireAllowedRedirect(context, postFlowUrl, 'callbacks.postFlowUrl') } : {}),
    };
  } else {
    throw applicationError(
      501,
      'UNIMPLEMENTED',
      'The emulator serves the auth, login and logout redirect sessions only (checkout and other intents have no hosted pages here)',
    );
  }
  context.store.run('INSERT INTO redirect_sessions (id, session, expires_at) VALUES (?, ?, ?)', [
    id,
    JSON.stringify(session),
    new Date(context.clock.now() + SESSION_SECONDS * 1000).toISOString(),
  ]);
  const endpoint = `${pagesOrigin(context, request)}${sitePath(context)}/_pages/${session.kind == 'auth' ? 'auth' : 'logout'}/${id}`;
  // The page's URL is short already: it is the short URL too (the official type promises one).
  return { redirectSession: { id, fullUrl: endpoint, shortUrl: endpoint, urlDetails: { endpoint } } };
}

/** A live redirect session, or undefined (unknown or expired). */
export function findRedirectSession(context: EmulatorContext, id: string): RedirectSession | undefined {
  const row = context.store.get<{ session: string; expires_at: string }>(
    'SELECT session, expires_at FROM redirect_sessions WHERE id = ?',
    [id],
  );
  if (!row || Date.parse(row.expires_at) <= context.clock.now()) return undefined;
  return JSON.parse(row.session) as RedirectSession;
}

/** Stores a changed redirect session (its page state, its completion); its expiry stays. */
export function saveRedirectSession(context: EmulatorContext, session: RedirectSession): void {
  context.store.run('UPDATE redirect_sessions SET session = ? WHERE id = ?', [JSON.stringify(session), session.id]);
}
