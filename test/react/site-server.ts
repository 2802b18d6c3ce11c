/**
 * A small real site for the React tests, on a local `node:http` port: visitor and member tokens
 * (PKCE checked), direct login and registration with email verification, redirect sessions, the
 * current member, items (paging only), simple uploads and resumable (TUS) ones. Every request is logged; answers can be
 * held back to test what happens while a request is pending.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { OAuthStrategy, createClient, type FrameHost, type OAuthAuth, type Tokens } from '../../src/index.js';

export const PASSWORD = 'correct horse';
export const VERIFICATION_CODE = '424242';

interface Member {
  id: string;
  loginEmail: string;
  profile: { nickname: string };
}

interface PendingSession {
  state: string;
  codeChallenge: string;
  redirectUri?: string;
  sessionToken?: string;
}

export interface LoggedRequest {
  method: string;
  path: string;
  body: any;
  /** Whether the client went away before the answer was sent. */
  aborted: boolean;
}

const base64url = (bytes: Buffer) => bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json', 'x-wix-request-id': randomUUID() });
  response.end(JSON.stringify(body));
};

/** Starts the site; `close()` stops it. */
export async function startSite() {
  const members = new Map<string, Member>([['ada@example.com', { id: 'member-ada', loginEmail: 'ada@example.com', profile: { nickname: 'Ada' } }]]);
  /** Access token → member email (visitors are absent). */
  const accessTokens = new Map<string, string>();
  /** Refresh token → member email, or '' for visitors. */
  const refreshTokens = new Map<string, string>();
  /** Session token of a successful login → email. */
  const sessions = new Map<string, string>();
  /** Authorization code → the session it came from, for the PKCE check. */
  const codes = new Map<string, PendingSession & { email: string }>();
  const redirectSessions = new Map<string, PendingSession>();
  /** Registrations waiting for the emailed code: state token → email. */
  const verifications = new Map<string, string>();
  const uploads = new Map<string, Buffer>();
  // Resumable uploads: a real TUS server; its finished uploads by upload token, for the final PUT.
  const tusDirectory = mkdtempSync(join(tmpdir(), 'sitekit-react-tus-'));
  const finishedTus = new Map<string, number>();
  const tus = new TusServer({
    path: '/tus',
    datastore: new FileStore({ directory: tusDirectory }),
    async onUploadFinish(_request, upload) {
      finishedTus.set(String(upload.metadata?.token), upload.size ?? 0);
      return {};
    },
  });
  const log: LoggedRequest[] = [];
  const collections = new Map<string, { id: string; dataCollectionId: string; data: Record<string, unknown> }[]>();
  const collection = (id: string) => collections.get(id) ?? (collections.set(id, []), collections.get(id)!);
  /** Answers held back: path prefix → the promise the answer waits for. */
  const holds = new Map<string, Promise<void>>();

  const issue = (email: string) => {
    const access = `access-${randomUUID()}`;
    const refresh = `refresh-${randomUUID()}`;
    if (email) accessTokens.set(access, email);
    refreshTokens.set(refresh, email);
    return { access_token: access, refresh_token: refresh, expires_in: 3600 };
  };
  const newSession = (email: string) => {
    const sessionToken = `session-${randomUUID()}`;
    sessions.set(sessionToken, email);
    return { state: 'SUCCESS', sessionToken };
  };
  const applicationError = (response: ServerResponse, status: number, code: string, message: string) =>
    json(response, status, { message, details: { applicationError: { code, description: message } } });

  const routes: Record<string, (body: any, request: IncomingMessage, response: ServerResponse, url: URL) => unknown> = {
    'POST /oauth2/token'(body, _request, response) {
      if (body.grantType === 'anonymous') return json(response, 200, issue(''));
      if (body.grantType === 'refresh_token') {
        const email = refreshTokens.get(body.refreshToken);
        return email === undefined ? applicationError(response, 400, 'invalid_grant', 'Unknown refresh token') : json(response, 200, issue(email));
      }
      if (body.grantType === 'authorization_code') {
        const session = codes.get(body.code);
        codes.delete(body.code);
        const challenge = body.codeVerifier && base64url(createHash('sha256').update(body.codeVerifier).digest());
        if (!session || challenge !== session.codeChallenge) return applicationError(response, 400, 'invalid_grant', 'Invalid code or code verifier');
        return json(response, 200, issue(session.email));
      }
      return applicationError(response, 400, 'unsupported_grant_type', 'Unsupported grant');
    },
    'POST /_api/redirects-api/v1/redirect-session'(body, _request, response, url) {
      const id = randomUUID();
      if (body.auth) redirectSessions.set(id, body.auth.authRequest);
      json(response, 200, { redirectSession: { id, fullUrl: `${url.origin}/${body.auth ? 'authorize' : 'logout'}?session=${id}` } });
    },
    'POST /_api/iam/authentication/v2/login'(body, _request, response) {
      const email = body.loginId?.email;
      if (!members.has(email) || body.password !== PASSWORD) return applicationError(response, 400, '-19976', 'Wrong email or password');
      json(response, 200, newSession(email));
    },
    'POST /_api/iam/authentication/v2/register'(body, _request, response) {
      const email = body.loginId?.email;
      if (members.has(email)) return applicationError(response, 400, '-19995', 'Email already exists');
      members.set(email, { id: `member-${randomUUID()}`, loginEmail: email, profile: { nickname: email.split('@')[0] } });
      const stateToken = `verify-${randomUUID()}`;
      verifications.set(stateToken, email);
      json(response, 200, { state: 'REQUIRE_EMAIL_VERIFICATION', stateToken });
    },
    'POST /_api/iam/verification/v1/auth/verify'(body, _request, response) {
      const email = verifications.get(body.stateToken);
      if (!email || body.code !== VERIFICATION_CODE) return applicationError(response, 400, '-19980', 'Wrong verification code');
      verifications.delete(body.stateToken);
      json(response, 200, newSession(email));
    },
    'GET /members/v1/members/my'(_body, request, response) {
      const email = accessTokens.get(String(request.headers.authorization));
      if (!email) return applicationError(response, 403, 'FORBIDDEN', 'Not a member');
      json(response, 200, { member: members.get(email) });
    },
    'POST /wix-data/v2/items'(body, _request, response) {
      const item = { id: randomUUID(), dataCollectionId: body.dataCollectionId, data: { ...body.dataItem?.data } };
      collection(body.dataCollectionId).push(item);
      json(response, 200, { dataItem: item });
    },
    'POST /wix-data/v2/items/query'(body, _request, response) {
      // Paging only (the React tests are about keys, cancellation and refetching, not filters).
      const all = collection(body.dataCollectionId);
      const offset = body.query?.paging?.offset ?? 0;
      const limit = body.query?.paging?.limit ?? 50;
      const dataItems = all.slice(offset, offset + limit);
      json(response, 200, { dataItems, pagingMetadata: { count: dataItems.length, offset, total: all.length } });
    },
    'POST /site-media/v1/files/generate-resumable-upload-url'(_body, _request, response, url) {
      json(response, 200, { uploadUrl: `${url.origin}/tus`, uploadToken: `token-${randomUUID()}`, uploadProtocol: 'TUS' });
    },
    'POST /site-media/v1/files/generate-upload-url'(body, _request, response, url) {
      const id = randomUUID();
      json(response, 200, { uploadUrl: `${url.origin}/upload/${id}?mime=${encodeURIComponent(body.mimeType)}` });
    },
  };

  /** The hosted sign-in page: with a session token (direct login) it answers the code at once. */
  const authorize = (url: URL) => {
    const session = redirectSessions.get(url.searchParams.get('session') ?? '');
    const email = session?.sessionToken ? sessions.get(session.sessionToken) : 'ada@example.com';
    if (!session || !email) return { error: 'login_required' };
    const code = `code-${randomUUID()}`;
    codes.set(code, { ...session, email });
    return { code, state: session.state };
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    const tusToken = url.pathname.slice('/tus/'.length);
    if (url.pathname.startsWith('/tus') && !(request.method === 'PUT' && finishedTus.has(tusToken))) {
      // The TUS protocol's own requests go, unread, to the TUS server.
      const entry: LoggedRequest = { method: request.method ?? 'GET', path: url.pathname, body: undefined, aborted: false };
      response.on('close', () => (entry.aborted = !response.writableFinished));
      log.push(entry);
      for (const [prefix, held] of holds) if (url.pathname.startsWith(prefix)) await held;
      return tus.handle(request, response);
    }
    const raw = await readBody(request);
    const isJson = String(request.headers['content-type']).startsWith('application/json');
    const body = isJson && raw.length ? JSON.parse(raw.toString()) : undefined;
    const entry: LoggedRequest = { method: request.method ?? 'GET', path: url.pathname, body, aborted: false };
    response.on('close', () => (entry.aborted = !response.writableFinished));
    log.push(entry);
    for (const [prefix, held] of holds) if (url.pathname.startsWith(prefix)) await held;
    if (url.pathname.startsWith('/upload/') && request.method === 'PUT') {
      uploads.set(url.pathname, raw);
      const id = url.pathname.slice('/upload/'.length);
      return json(response, 200, { file: { id, displayName: url.searchParams.get('filename'), mimeType: url.searchParams.get('mime'), sizeInBytes: String(raw.length), operationStatus: 'READY' } });
    }
    if (request.method === 'PUT' && finishedTus.has(tusToken)) {
      return json(response, 200, { file: { id: tusToken, displayName: url.searchParams.get('filename'), sizeInBytes: String(finishedTus.get(tusToken)), operationStatus: 'READY' } });
    }
    if (url.pathname === '/authorize') return json(response, 200, authorize(url));
    const route = routes[`${request.method} ${url.pathname}`];
    if (!route) return json(response, 404, { message: `No route ${request.method} ${url.pathname}` });
    await route(entry.body, request, response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    log,
    uploads,
    /** Holds back the answers to paths starting with `prefix` until the returned function is called. */
    hold(prefix: string) {
      let release = () => {};
      holds.set(prefix, new Promise((resolve) => (release = resolve)));
      return () => {
        holds.delete(prefix);
        release();
      };
    },
    /** Stores items in a collection directly (as another user would). */
    seed(collectionId: string, ...items: Record<string, unknown>[]) {
      for (const data of items) collection(collectionId).push({ id: randomUUID(), dataCollectionId: collectionId, data });
    },
    /** The hosted page of a redirect session, as the browser would reach it: `{code, state}` or `{error}`. */
    authorize: (authUrl: string) => authorize(new URL(authUrl)),
    /**
     * A frame host for the silent flow: instead of a hidden iframe whose page posts the code, it
     * asks the hosted page for it and posts it the same way (from the site's origin).
     */
    frameHost(): FrameHost {
      const listeners = new Set<(event: { origin: string; data: unknown }) => void>();
      return {
        createFrame(frameUrl) {
          void fetch(frameUrl)
            .then((r) => r.json())
            .then((data) => listeners.forEach((listener) => listener({ origin: new URL(frameUrl).origin, data })));
          return { remove() {} };
        },
        addMessageListener(listener) {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      };
    },
    /** A client of this site (fresh strategy, memory storage), and its strategy. */
    client(tokens?: Tokens) {
      const auth: OAuthAuth = OAuthStrategy({ clientId: 'react-tests', tokens, frameHost: this.frameHost() });
      return createClient({ auth, baseUrl: origin, retry: false });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        rmSync(tusDirectory, { recursive: true, force: true });
      }),
  };
}

export type Site = Awaited<ReturnType<typeof startSite>>;
