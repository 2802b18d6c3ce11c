/**
 * The node:http handler hands `http.request` its header fields as an array (cheaper than the
 * object form's `setHeader` per field), so it writes `Host` itself and must frame bodies as Node
 * would. Here the request heads it writes are read off a raw socket and compared with what
 * `http.request` writes for the same fields given as an object (what the handler did before).
 */
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHttpHandler } from '../../src/http/node-handler.js';

/** One request as the server read it: its head (request line and fields) and its body bytes, unparsed. */
interface Received {
  head: string;
  body: string;
}

/**
 * A server that reads each request's head off the socket as bytes, answers every request with an
 * empty 204 and keeps the connection; `next()` resolves with the next request it reads. Bodies are
 * read by Content-Length, or to the end of a chunked body.
 */
function startRawServer(): Promise<{ server: Server; port: number; next: () => Promise<Received> }> {
  const waiting: ((received: Received) => void)[] = [];
  const arrived: Received[] = [];
  const deliver = (received: Received) => {
    const taker = waiting.shift();
    if (taker) taker(received);
    else arrived.push(received);
  };
  const server = createServer((socket) => {
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (;;) {
        const headEnd = pending.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = pending.slice(0, headEnd);
        const rest = pending.slice(headEnd + 4);
        const length = /\r\ncontent-length: *(\d+)/i.exec(head)?.[1];
        let bodyEnd: number;
        if (length !== undefined) bodyEnd = Number(length);
        else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
          const last = rest.indexOf('0\r\n\r\n');
          if (last < 0) return;
          bodyEnd = last + 5;
        } else bodyEnd = 0;
        if (rest.length < bodyEnd) return;
        deliver({ head, body: rest.slice(0, bodyEnd) });
        pending = rest.slice(bodyEnd);
        socket.write('HTTP/1.1 204 No Content\r\nConnection: keep-alive\r\n\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        next: () =>
          arrived.length > 0
            ? Promise.resolve(arrived.shift()!)
            : new Promise<Received>((taken) => waiting.push(taken)),
      }),
    ),
  );
}

let raw: Awaited<ReturnType<typeof startRawServer>>;
const agent = new Agent({ keepAlive: true });
beforeAll(async () => {
  raw = await startRawServer();
});
afterAll(() => {
  agent.destroy();
  raw.server.close();
});

/** What the node handler writes for a request, as the server read it. */
async function viaHandler(method: string, headers: Record<string, string>, body?: string): Promise<Received> {
  const received = raw.next();
  const response = await nodeHttpHandler()({ url: `http://127.0.0.1:${raw.port}/p/a?q=1`, method, headers, body });
  response.discard();
  return received;
}

/** What `http.request` writes for the same request with its fields as an object (the handler's former way). */
async function viaObjectHeaders(method: string, headers: Record<string, string>, body?: string): Promise<Received> {
  const fields: OutgoingHttpHeaders = { ...headers };
  fields['accept-encoding'] ??= 'gzip, deflate, br';
  if (body !== undefined) fields['content-length'] ??= String(Buffer.byteLength(body));
  const received = raw.next();
  await new Promise<void>((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname: '127.0.0.1', port: raw.port, path: '/p/a?q=1', method, headers: fields, agent },
      (response) => {
        response.resume();
        response.on('end', resolve);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  return received;
}

/** A chunked body's data: each chunk is its size in hex, CRLF, the bytes, CRLF; a zero size ends it. */
function unchunked(body: string): string {
  let data = '';
  for (let at = 0; ; ) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = Number.parseInt(body.slice(at, lineEnd), 16);
    if (size === 0) return data;
    data += body.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

/** A head's lines after the request line, in order. */
const fieldLines = (head: string): string[] => head.split('\r\n').slice(1);

const HEADERS = {
  authorization: 'bench-key',
  'x-wix-bi-gateway': 'environment=js-sdk,package-name=sitekit-sdk,method-fqn=wix.data.v2.DataItemService.GetDataItem',
};

describe('the node:http handler writes the request head http.request writes', () => {
  it.each(['GET', 'DELETE', 'HEAD', 'OPTIONS'])('%s without a body: byte for byte', async (method) => {
    const mine = await viaHandler(method, HEADERS);
    const node = await viaObjectHeaders(method, HEADERS);
    expect(mine.head).toBe(node.head);
    expect(mine.head).toContain(`\r\nHost: 127.0.0.1:${raw.port}`);
    expect(mine.body).toBe('');
  });

  it.each(['POST', 'PUT', 'PATCH'])('%s with a JSON body: byte for byte, body included', async (method) => {
    const json = JSON.stringify({ dataItem: { data: { title: 'Jaws ✓' } } });
    const headers = { ...HEADERS, 'content-type': 'application/json' };
    const mine = await viaHandler(method, headers, json);
    const node = await viaObjectHeaders(method, headers, json);
    expect(mine.head).toBe(node.head);
    expect(mine.body).toBe(node.body);
    expect(Buffer.from(mine.body, 'latin1').toString('utf8')).toBe(json);
  });

  it.each(['POST', 'PUT', 'PATCH'])(
    '%s without a body: the same fields, Content-Length: 0 (not a chunked empty body)',
    async (method) => {
      const mine = await viaHandler(method, HEADERS);
      const node = await viaObjectHeaders(method, HEADERS);
      expect(node.head).toContain('\r\nContent-Length: 0');
      expect(fieldLines(mine.head).sort()).toEqual(fieldLines(node.head).sort());
      expect(mine.head).not.toMatch(/transfer-encoding/i);
    },
  );

  it("a caller's own Host field is sent instead of the URL's, once", async () => {
    const headers = { ...HEADERS, host: 'site.example' };
    const mine = await viaHandler('GET', headers);
    const node = await viaObjectHeaders('GET', headers);
    expect(mine.head).toBe(node.head);
    expect(mine.head.match(/\r\nhost:/gi)).toHaveLength(1);
  });

  it('a stream body goes chunked, as before', async () => {
    const received = raw.next();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('part one, '));
        controller.enqueue(new TextEncoder().encode('part two'));
        controller.close();
      },
    });
    const response = await nodeHttpHandler()({
      url: `http://127.0.0.1:${raw.port}/upload`,
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: stream,
    });
    response.discard();
    const { head, body } = await received;
    expect(head).toMatch(/\r\nTransfer-Encoding: chunked/);
    expect(head).not.toMatch(/content-length/i);
    expect(unchunked(body)).toBe('part one, part two');
  });

  it('a Blob body: its length and type', async () => {
    const received = raw.next();
    const response = await nodeHttpHandler()({
      url: `http://127.0.0.1:${raw.port}/upload`,
      method: 'PUT',
      headers: {},
      body: new Blob(['0123456789'], { type: 'image/png' }),
    });
    response.discard();
    const { head, body } = await received;
    expect(head).toContain('\r\ncontent-length: 10');
    expect(head).toContain('\r\ncontent-type: image/png');
    expect(body).toBe('0123456789');
  });
});
