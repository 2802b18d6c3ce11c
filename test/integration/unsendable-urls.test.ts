/**
 * A URL a handler cannot send to (a redirect's `Location` that is not a URL, or any URL with a
 * scheme other than http/https), through createClient on each handler, against a real local
 * server: the call fails with a `NetworkError`, as `fetch` reports it, never with a bare `TypeError`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/client.js';
import { NetworkError } from '../../src/errors/index.js';

/** Which handler `defaultHandler()` gives the clients made in a test. */
const selected = vi.hoisted(() => ({ handler: 'fetch' as 'fetch' | 'node' }));
vi.mock('../../src/http/default-handler.js', async () => {
  const { fetchHandler } = await import('../../src/http/fetch-handler.js');
  const { nodeHttpHandler } = await import('../../src/http/node-handler.js');
  return { defaultHandler: () => (selected.handler === 'node' ? nodeHttpHandler() : fetchHandler()) };
});

/** Where each path redirects to. */
const LOCATIONS: Record<string, string> = {
  '/not-a-url': 'http://[bad',
  '/ftp': 'ftp://example.com/file',
  // Back to this server, with credentials: fetch refuses to follow it; node:http would send them as Basic auth.
  '/credentials': '/with-credentials',
  '/user-only': '/with-user',
};
/** The Authorization headers the server was sent. */
const authorizations: string[] = [];
let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.headers.authorization) authorizations.push(request.headers.authorization);
    const target = LOCATIONS[request.url!] ?? '/';
    const location =
      target == '/with-credentials'
        ? baseUrl.replace('://', '://user:secret@') + target
        : target == '/with-user'
          ? baseUrl.replace('://', '://user@') + target
          : target;
    response.writeHead(302, { location }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** The error a `fetchWithAuth` of `path` rejects with. */
const failureOf = (path: string) =>
  createClient({ baseUrl, retry: false })
    .fetchWithAuth(path)
    .then(
      () => undefined,
      (error: unknown) => error,
    );

describe.each(['fetch', 'node'] as const)('%s handler, a URL that cannot be sent to', (handler) => {
  beforeEach(() => {
    selected.handler = handler;
  });

  it.each(Object.keys(LOCATIONS))('a redirect to %s: the call rejects with a NetworkError', async (path) => {
    expect(await failureOf(path)).toBeInstanceOf(NetworkError);
  });

  it('a redirect to a URL with credentials (user:pass@) is not followed: nothing is sent as Basic auth', async () => {
    authorizations.length = 0;
    const error = await failureOf('/credentials');
    expect(error).toBeInstanceOf(NetworkError);
    expect(String((error as Error).message)).not.toContain('secret');
    expect(authorizations).toEqual([]);
  });

  it('a URL that is not http(s), given directly: the call rejects with a NetworkError', async () => {
    expect(await failureOf('ftp://example.com/file')).toBeInstanceOf(NetworkError);
  });
});
