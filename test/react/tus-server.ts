/**
 * A local TUS host for the one upload test the emulator cannot serve: holding a TUS chunk back
 * while the component unmounts. Visitor tokens, the resumable upload URL, and a real TUS server
 * (@tus/server) whose answers can be held; every request is logged, with whether the client went
 * away before its answer.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { createClient, OAuthStrategy } from '../../src/index.js';

export interface LoggedRequest {
  method: string;
  path: string;
  /** Whether the client went away before the answer was sent. */
  aborted: boolean;
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** Starts the TUS host; `close()` stops it. */
export async function startTusServer() {
  const log: LoggedRequest[] = [];
  /** Answers held back: path prefix → the promise the answer waits for. */
  const holds = new Map<string, Promise<void>>();
  const directory = mkdtempSync(join(tmpdir(), 'sitekit-react-tus-'));
  const tus = new TusServer({ path: '/tus', datastore: new FileStore({ directory }) });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    const entry: LoggedRequest = { method: request.method ?? 'GET', path: url.pathname, aborted: false };
    response.on('close', () => (entry.aborted = !response.writableFinished));
    log.push(entry);
    for (const [prefix, held] of holds) if (url.pathname.startsWith(prefix)) await held;
    // The TUS protocol's own requests go, unread, to the TUS server.
    if (url.pathname.startsWith('/tus')) return tus.handle(request, response);
    const route = `${request.method} ${url.pathname}`;
    if (route === 'POST /oauth2/token')
      return json(response, 200, {
        access_token: `access-${randomUUID()}`,
        refresh_token: `refresh-${randomUUID()}`,
        expires_in: 3600,
      });
    if (route === 'POST /site-media/v1/files/generate-resumable-upload-url')
      return json(response, 200, {
        uploadUrl: `${url.origin}/tus`,
        uploadToken: `token-${randomUUID()}`,
        uploadProtocol: 'TUS',
      });
    json(response, 404, { message: `No route ${route}` });
  }
  const server = createServer((request, response) => {
    // A client that goes away mid-request (an aborted upload) is what the test is about.
    handle(request, response).catch((error: unknown) => {
      if (!request.destroyed) throw error;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** The logged requests with `method`. */
    requests: (method: string) => log.filter((request) => request.method === method),
    /** Holds back the answers to paths starting with `prefix` until the returned function is called. */
    hold(prefix: string) {
      let release = () => {};
      holds.set(prefix, new Promise((resolve) => (release = resolve)));
      return () => {
        holds.delete(prefix);
        release();
      };
    },
    /** A visitor client of this host. */
    client: () => createClient({ auth: OAuthStrategy({ clientId: 'react-tests' }), baseUrl: origin, retry: false }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        rmSync(directory, { recursive: true, force: true });
      }),
  };
}

export type TusTestServer = Awaited<ReturnType<typeof startTusServer>>;
