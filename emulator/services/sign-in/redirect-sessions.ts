/**
 * Redirect sessions (`POST /_api/redirects-api/v1/redirect-session`): an authorization request or
 * a logout, kept so that its hosted page (the session's `fullUrl`) can be opened, reloaded and
 * posted to. Checked when created: the client, the redirect URI, PKCE S256.
 */
import { randomUUID } from 'node:crypto';
import { applicationError, invalidField } from '../../errors.js';
import type { EmulatorContext } from '../../service.js';
import type { Migration } from '../../store/store.js';
import { requireAllowedRedirect } from './redirect-uris.js';

/** How the hosted page hands the code back. */
export type ResponseMode = 'fragment' | 'query' | 'web_message';

/** A sign-in (authorization) request. */
export interface AuthorizationSession {
  kind: 'auth';
  id: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  responseMode: ResponseMode;
  state: string;
  prompt: 'login' | 'none' | 'consent' | 'select_account';
  sessionToken?: string;
  /** Identity-provider connection id: the page signs in through that (emulated) provider. */
  idp?: string;
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
  if (clientId != context.site.clientId) throw applicationError(400, 'INVALID_CLIENT', `Unknown OAuth client ${clientId}`, { field });
  return clientId;
}

type Input = Record<string, any>;

/** Checks a redirect-session request and keeps it; answers `{redirectSession}`. */
export function createRedirectSession(context: EmulatorContext, input: Input): { redirectSession: { id: string; fullUrl: string; urlDetails: { endpoint: string } } } {
  const id = randomUUID();
  let session: RedirectSession;
  if (input.auth) {
    const request = input.auth.authRequest as Input;
    const at = 'auth.authRequest';
    const responseMode = request.responseMode ?? 'fragment';
    if (!['fragment', 'query', 'web_message'].includes(responseMode)) throw invalidField(`${at}.responseMode`, 'must be fragment, query or web_message', 'INVALID_ENUM_VALUE');
    if (request.codeChallengeMethod != 'S256') throw invalidField(`${at}.codeChallengeMethod`, 'must be S256', 'INVALID_ENUM_VALUE');
    if (typeof request.codeChallenge != 'string' || !/^[A-Za-z0-9_-]{43}$/.test(request.codeChallenge)) {
      throw invalidField(`${at}.codeChallenge`, 'must be the base64url SHA-256 of the code verifier (43 characters)', 'FORMAT');
    }
    if (typeof request.state != 'string' || !request.state) throw invalidField(`${at}.state`, 'must not be empty', 'REQUIRED_FIELD');
    if (typeof request.idp == 'string' && request.idp && !IDENTITY_PROVIDERS[request.idp]) {
      throw applicationError(400, 'INVALID_IDP_CONNECTION', `Unknown identity-provider connection ${request.idp}`);
    }
    session = {
      kind: 'auth',
      id,
      clientId: requireKnownClient(context, request.clientId, `${at}.clientId`),
      redirectUri: requireAllowedRedirect(context, String(request.redirectUri ?? ''), `${at}.redirectUri`),
      codeChallenge: request.codeChallenge,
      responseMode,
      state: request.state,
      prompt: input.auth.prompt ?? 'login',
      ...(request.sessionToken ? { sessionToken: request.sessionToken } : {}),
      ...(request.idp ? { idp: request.idp } : {}),
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
    throw applicationError(501, 'UNIMPLEMENTED', 'The emulator serves the auth and logout redirect sessions only (checkout and other intents have no hosted pages here)');
  }
  context.store.run('INSERT INTO redirect_sessions (id, session, expires_at) VALUES (?, ?, ?)', [id, JSON.stringify(session), new Date(Date.now() + SESSION_SECONDS * 1000).toISOString()]);
  const endpoint = `${context.url()}/_pages/${session.kind == 'auth' ? 'auth' : 'logout'}/${id}`;
  return { redirectSession: { id, fullUrl: endpoint, urlDetails: { endpoint } } };
}

/** A live redirect session, or undefined (unknown or expired). */
export function findRedirectSession(context: EmulatorContext, id: string): RedirectSession | undefined {
  const row = context.store.get<{ session: string; expires_at: string }>('SELECT session, expires_at FROM redirect_sessions WHERE id = ?', [id]);
  if (!row || Date.parse(row.expires_at) <= Date.now()) return undefined;
  return JSON.parse(row.session) as RedirectSession;
}
