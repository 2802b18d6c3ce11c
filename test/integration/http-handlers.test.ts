/**
 * Both HTTP handlers (fetch; node:http with keep-alive) against a real local server, for what a
 * mock cannot do: a connection reset in the middle of a body, connection reuse, compressed bodies,
 * redirects across origins, streamed uploads. The same cases run on both, and the client-level
 * ones run through createClient with each handler as its default (as each build has it).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyStrategy } from '../../src/auth/api-key.js';
import { createClient } from '../../src/client.js';
import { NetworkError } from '../../src/errors/index.js';
import { AbortScope } from '../../src/http/abort.js';
import { fetchHandler } from '../../src/http/fetch-handler.js';
import type { HttpHandler } from '../../src/http/handler.js';
import { nodeHttpHandler } from '../../src/http/node-handler.js';

/** Which handler `defaultHandler()` gives the clients made in a test. */
const selected = vi.hoisted(() => ({ handler: 'fetch' as 'fetch' | 'node' }));
vi.mock('../../src/http/default-handler.js', async () => {
  const { fetchHandler: viaFetch } = await import('../../src/http/fetch-handler.js');
  const { nodeHttpHandler: viaNode } = await import('../../src/http/node-handler.js');
  return { defaultHandler: () => (selected.handler === 'node' ? viaNode() : viaFetch()) };
});

type Route = (request: IncomingMessage, response: ServerResponse, body: Buffer) => void;

/** A local server whose routes are set per test; counts hits per path and connections. */
function startServer(): Promise<{
  server: Server;
  url: string;
  routes: Map<string, Route>;
  hits: Map<string, number>;
  connections: () => number;
}> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  let connections = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url!.split('?')[0]!;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const route = routes.get(path);
      if (route) route(request, response, Buffer.concat(chunks));
      else response.writeHead(404).end();
    });
  });
  server.on('connection', () => connections++);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        routes,
        hits,
        connections: () => connections,
      }),
    ),
  );
}

let main: Awaited<ReturnType<typeof startServer>>;
let other: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  [main, other] = await Promise.all([startServer(), startServer()]);
});
afterAll(() => {
  main.server.closeAllConnections();
  other.server.closeAllConnections();
  main.server.close();
  other.server.close();
});
beforeEach(() => {
  main.hits.clear();
  other.hits.clear();
});

const json =
  (value: unknown): Route =>
  (_request, response) =>
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(value));
/** Sends the headers and the first bytes of a body, then resets the connection. */
const resetMidBody: Route = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
  response.write('{"collection": {"id": "M", "displayName": "', () =>
    setTimeout(() => response.socket?.resetAndDestroy(), 20),
  );
};
/** Echoes what arrived: method, content type, body and the credentials header. */
const echo: Route = (request, response, body) =>
  json({
    method: request.method,
    contentType: request.headers['content-type'] ?? null,
    body: body.toString(),
    authorization: request.headers.authorization ?? null,
  })(request, response, body);

const handlers: [string, 'fetch' | 'node', () => HttpHandler][] = [
  ['fetch', 'fetch', () => fetchHandler()],
  ['node:http', 'node', () => nodeHttpHandler()],
];

describe.each(handlers)('%s handler', (_name, kind, make) => {
  beforeEach(() => {
    selected.handler = kind;
  });

  it('reads a JSON answer and its headers', async () => {
    main.routes.set('/json', (_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json', 'x-wix-request-id': 'r-1' }).end('{"a":1}'),
    );
    const response = await make()({ url: `${main.url}/json`, method: 'GET', headers: {} });
    expect([response.status, response.header('x-wix-request-id'), await response.text()]).toEqual([
      200,
      'r-1',
      '{"a":1}',
    ]);
  });

  it('decodes a gzip body, as fetch does', async () => {
    main.routes.set('/gzip', (_request, response) =>
      response
        .writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' })
        .end(gzipSync('{"zipped":true}')),
    );
    const response = await make()({ url: `${main.url}/gzip`, method: 'GET', headers: {} });
    expect(await response.text()).toBe('{"zipped":true}');
  });

  it('reads a large body whole, multi-byte characters across chunk boundaries included', async () => {
    const large = JSON.stringify({ text: 'é€😀'.repeat(400_000) });
    main.routes.set('/large', (_request, response) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(large),
    );
    const response = await make()({ url: `${main.url}/large`, method: 'GET', headers: {} });
    expect(await response.text()).toBe(large);
  });

  /** Answers with `parts` as separate writes, each sent before the next is written. */
  const inWrites =
    (parts: readonly Buffer[]): Route =>
    (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const writeFrom = (index: number): void => {
        if (index === parts.length) return void response.end();
        response.write(parts[index], () => setTimeout(() => writeFrom(index + 1), 15));
      };
      writeFrom(0);
    };
  const bytes = (text: string) => Buffer.from(text, 'utf8');
  const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

  it.each([
    [
      'a byte-order mark at the start is dropped, as Response.text() drops it',
      [Buffer.concat([BYTE_ORDER_MARK, bytes('{"bom":true}')])],
      '{"bom":true}',
    ],
    [
      'a byte-order mark split across two writes is dropped too',
      [BYTE_ORDER_MARK.subarray(0, 1), Buffer.concat([BYTE_ORDER_MARK.subarray(1), bytes('{"bom":"split"}')])],
      '{"bom":"split"}',
    ],
    [
      'a byte-order mark later in the body stays',
      [Buffer.concat([BYTE_ORDER_MARK, bytes('"a\uFEFFb"')])],
      '"a\uFEFFb"',
    ],
    ['a body that is only a byte-order mark is empty', [BYTE_ORDER_MARK], ''],
    // 'é' is 2 bytes, '€' 3, '😀' 4: each cut inside, at a write boundary.
    [
      'multi-byte characters split across writes decode whole',
      [
        bytes('{"t":"a'),
        bytes('é').subarray(0, 1),
        Buffer.concat([bytes('é').subarray(1), bytes('€').subarray(0, 2)]),
        Buffer.concat([bytes('€').subarray(2), bytes('😀').subarray(0, 3)]),
        Buffer.concat([bytes('😀').subarray(3), bytes('z"}')]),
      ],
      '{"t":"aé€😀z"}',
    ],
    [
      'bytes that are not UTF-8 become U+FFFD, as fetch decodes them',
      [bytes('"a'), Buffer.from([0xff, 0xc3]), bytes('b"')],
      '"a\uFFFD\uFFFDb"',
    ],
  ])('%s', async (_name, parts, expected) => {
    // The expectation is what the platform's own decoder (what Response.text() uses) gives.
    expect(new TextDecoder().decode(Buffer.concat(parts))).toBe(expected);
    main.routes.set('/parts', inWrites(parts));
    const response = await make()({ url: `${main.url}/parts`, method: 'GET', headers: {} });
    expect(await response.text()).toBe(expected);
  });

  it('a reset in the middle of the body rejects the read with a NetworkError', async () => {
    main.routes.set('/reset', resetMidBody);
    const response = await make()({ url: `${main.url}/reset`, method: 'GET', headers: {} });
    await expect(response.text()).rejects.toBeInstanceOf(NetworkError);
  });

  it('an abort while the body is read stops it with the abort reason', async () => {
    main.routes.set('/slow-body', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"partial":');
    });
    const abort = new AbortScope();
    const response = await make()({ url: `${main.url}/slow-body`, method: 'GET', headers: {}, abort });
    const reading = response.text();
    const reason = new Error('stop');
    abort.abort(reason);
    await expect(reading).rejects.toBe(reason);
  });

  it('follows a redirect, and drops the credentials when it leads to another origin', async () => {
    main.routes.set('/echo', echo);
    other.routes.set('/echo', echo);
    main.routes.set('/here', (_request, response) => response.writeHead(302, { location: '/echo' }).end());
    main.routes.set('/elsewhere', (_request, response) =>
      response.writeHead(307, { location: `${other.url}/echo` }).end(),
    );
    const same = await make()({ url: `${main.url}/here`, method: 'GET', headers: { authorization: 'key' } });
    expect(JSON.parse(await same.text()).authorization).toBe('key');
    const cross = await make()({ url: `${main.url}/elsewhere`, method: 'GET', headers: { authorization: 'key' } });
    expect(JSON.parse(await cross.text()).authorization).toBeNull();
    const manual = await make()({ url: `${main.url}/here`, method: 'GET', headers: {}, redirect: 'manual' });
    // (fetch in a browser gives an opaque redirect; Node's fetch and the node handler, the 302.)
    expect(manual.status).toBe(302);
    manual.discard();
  });

  it('follows 20 redirects, as fetch does, and fails on the 21st with a NetworkError', async () => {
    // /hops?left=<n> redirects to left=<n - 1>; left=0 answers.
    main.routes.set('/hops', (request, response) => {
      const left = Number(new URL(request.url!, main.url).searchParams.get('left'));
      if (left > 0) response.writeHead(302, { location: `/hops?left=${left - 1}` }).end();
      else response.writeHead(200).end('arrived');
    });
    const follow = (redirects: number) =>
      make()({ url: `${main.url}/hops?left=${redirects}`, method: 'GET', headers: {} });
    expect(await (await follow(20)).text()).toBe('arrived');
    expect(main.hits.get('/hops')).toBe(21);
    await expect(follow(21)).rejects.toBeInstanceOf(NetworkError);
  });

  it('sends a streamed body and a FormData body as fetch encodes them', async () => {
    main.routes.set('/echo', echo);
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('part one, '));
        controller.enqueue(encoder.encode('part two'));
        controller.close();
      },
    });
    const streamed = JSON.parse(
      await (
        await make()({
          url: `${main.url}/echo`,
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: stream,
        })
      ).text(),
    );
    expect([streamed.method, streamed.contentType, streamed.body]).toEqual([
      'POST',
      'text/plain',
      'part one, part two',
    ]);
    const form = new FormData();
    form.set('field', 'value');
    const sent = JSON.parse(
      await (await make()({ url: `${main.url}/echo`, method: 'POST', headers: {}, body: form })).text(),
    );
    expect(sent.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.body).toContain('name="field"');
  });

  it('a refused connection is a NetworkError', async () => {
    const closed = await startServer();
    const url = closed.url;
    // Resolves once the server no longer listens.
    await new Promise((resolve) => closed.server.close(resolve));
    await expect(make()({ url: `${url}/x`, method: 'GET', headers: {} })).rejects.toBeInstanceOf(NetworkError);
  });

  describe('through createClient', () => {
    const client = () =>
      createClient({ auth: ApiKeyStrategy({ apiKey: 'key' }), baseUrl: main.url, retry: { random: () => 0 } });

    it('a GET reset mid-body is retried; an insert reset mid-body fails with a NetworkError, sent once', async () => {
      let first = true;
      main.routes.set('/wix-data/v2/collections/M', (request, response, body) => {
        if (first) return ((first = false), resetMidBody(request, response, body));
        json({ collection: { id: 'M' } })(request, response, body);
      });
      expect(await client().collections.getDataCollection('M')).toEqual({ _id: 'M' });
      expect(main.hits.get('/wix-data/v2/collections/M')).toBe(2);
      main.routes.set('/wix-data/v2/items', resetMidBody);
      const e = await client()
        .items.insert('M', { title: 'x' })
        .catch((x) => x);
      expect(e).toBeInstanceOf(NetworkError);
      expect(main.hits.get('/wix-data/v2/items')).toBe(1);
    });

    it('fetchWithAuth resolves with a standard Response and streams an upload body', async () => {
      main.routes.set('/echo', echo);
      const response = await client().fetchWithAuth('/echo', {
        method: 'PUT',
        body: new Blob(['blob body'], { type: 'text/plain' }),
      });
      expect(response).toBeInstanceOf(Response);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toEqual({
        method: 'PUT',
        contentType: 'text/plain',
        body: 'blob body',
        authorization: 'key',
      });
    });

    it('reuses connections between calls', async () => {
      main.routes.set('/wix-data/v2/collections/M', json({ collection: { id: 'M' } }));
      const c = client();
      await c.collections.getDataCollection('M');
      const before = main.connections();
      for (let i = 0; i < 10; i++) await c.collections.getDataCollection('M');
      expect(main.connections() - before).toBe(0);
    });
  });
});
