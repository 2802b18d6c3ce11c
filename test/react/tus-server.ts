/**
 * A local media host for the upload tests, on a `node:http` port, while the emulator serves no
 * media: visitor tokens, upload URLs, simple uploads (one PUT) and resumable ones (a real TUS
 * server, then the finalising PUT). Every request is logged; answers can be held back to test
 * what happens while an upload is in flight.
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

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json', 'x-wix-request-id': randomUUID() });
  response.end(JSON.stringify(body));
};

/** Starts the media host; `close()` stops it. */
export async function startUploadServer() {
  const log: LoggedRequest[] = [];
  /** Bytes of the simple uploads, by path. */
  const uploads = new Map<string, Buffer>();
  /** Answers held back: path prefix → the promise the answer waits for. */
  const holds = new Map<string, Promise<void>>();
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
  const descriptor = (id: string, url: URL, size: number) => ({ file: { id, displayName: url.searchParams.get('filename'), mimeType: url.searchParams.get('mime'), sizeInBytes: String(size), operationStatus: 'READY' } });

  const server = createServer((request, response) => {
    // A client that goes away mid-request (an aborted upload) is what some tests are about.
    handle(request, response).catch((error: unknown) => {
      if (!request.destroyed) throw error;
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    const entry: LoggedRequest = { method: request.method ?? 'GET', path: url.pathname, aborted: false };
    response.on('close', () => (entry.aborted = !response.writableFinished));
    log.push(entry);
    for (const [prefix, held] of holds) if (url.pathname.startsWith(prefix)) await held;
    const route = `${request.method} ${url.pathname}`;
    const tusToken = url.pathname.slice('/tus/'.length);
    if (request.method === 'PUT' && finishedTus.has(tusToken)) return json(response, 200, descriptor(tusToken, url, finishedTus.get(tusToken)!));
    // The TUS protocol's own requests go, unread, to the TUS server.
    if (url.pathname.startsWith('/tus')) return tus.handle(request, response);
    const body = await readBody(request);
    if (route === 'POST /oauth2/token') return json(response, 200, { access_token: `access-${randomUUID()}`, refresh_token: `refresh-${randomUUID()}`, expires_in: 3600 });
    if (route === 'POST /site-media/v1/files/generate-upload-url') {
      const { mimeType } = JSON.parse(body.toString()) as { mimeType: string };
      return json(response, 200, { uploadUrl: `${url.origin}/upload/${randomUUID()}?mime=${encodeURIComponent(mimeType)}` });
    }
    if (route === 'POST /site-media/v1/files/generate-resumable-upload-url') {
      return json(response, 200, { uploadUrl: `${url.origin}/tus`, uploadToken: `token-${randomUUID()}`, uploadProtocol: 'TUS' });
    }
    if (request.method === 'PUT' && url.pathname.startsWith('/upload/')) {
      uploads.set(url.pathname, body);
      return json(response, 200, descriptor(url.pathname.slice('/upload/'.length), url, body.length));
    }
    json(response, 404, { message: `No route ${route}` });
  }
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
    /** A visitor client of this host. */
    client: () => createClient({ auth: OAuthStrategy({ clientId: 'react-tests' }), baseUrl: origin, retry: false }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        rmSync(tusDirectory, { recursive: true, force: true });
      }),
  };
}

export type UploadServer = Awaited<ReturnType<typeof startUploadServer>>;
