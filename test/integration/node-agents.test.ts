/**
 * The node:http handler's keep-alive agents against a real local server: a connection left idle
 * is closed by the client a little before the server's announced `Keep-Alive: timeout=`, never
 * while a request is using it, and a busy connection is reused between calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Socket as NetSocket } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { nodeHttpHandler } from '../../src/http/node-handler.js';

/** Milliseconds the server answers after, per path. */
const delays: Record<string, number> = { '/slow': 2500 };
let server: Server;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'),
      delays[request.url!] ?? 0,
    );
  });
  // Announces `Keep-Alive: timeout=3`: the client keeps an idle connection 2 s (Node's 1 s margin).
  server.keepAliveTimeout = 3000;
  server.on('connection', (socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const handler = nodeHttpHandler();
const get = async (path: string) => {
  const response = await handler({ url: url + path, method: 'GET', headers: {} });
  return response.text();
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('reuses an idle connection, closes it from the client side after the hinted idle limit, and never while a request uses it', async () => {
  await get('/fast');
  await sleep(200);
  await get('/fast');
  expect(sockets).toHaveLength(1);
  const [first] = sockets;

  // Left idle, it is closed by the client at 2 s, before the server's own 3 s: the server's end of
  // it closes having read the client's end (the server's own time-out would close it unread).
  const idleSince = performance.now();
  if (!first!.destroyed) await new Promise((resolve) => first!.once('close', resolve));
  const idleMs = performance.now() - idleSince;
  expect(first!.readableEnded).toBe(true);
  expect(idleMs).toBeGreaterThan(1500);
  expect(idleMs).toBeLessThan(3000);
  await get('/fast');
  expect(sockets).toHaveLength(2);

  // A request that takes longer than the idle limit keeps its connection: the timer runs only
  // while the connection waits in the pool.
  expect(await get('/slow')).toBe('{"ok":true}');
  await get('/fast');
  expect(sockets).toHaveLength(2);
}, 15_000);

// A pooled connection's idle timer is set once and left running (Node refreshes it on traffic);
// Node's own keepSocketAlive would reset it to the agent's `timeout` (0) after every response, and
// the limit would then be set again: two timer changes per call.
it("a reused connection's idle timer is not cleared and set again on every call", async () => {
  await get('/fast');
  const before = sockets.length;
  const clientCalls: number[] = [];
  const setTimeout = NetSocket.prototype.setTimeout;
  const spy = vi.spyOn(NetSocket.prototype, 'setTimeout').mockImplementation(function (
    this: NetSocket,
    ...args: Parameters<NetSocket['setTimeout']>
  ) {
    // Server-side sockets carry their server; only the client's connections count here.
    if (!(this as NetSocket & { server?: unknown }).server) clientCalls.push(args[0]);
    return setTimeout.apply(this, args);
  });
  try {
    for (let call = 0; call < 4; call++) await get('/fast');
    // The last response's end reaches the agent on a next tick: every one has run by the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    spy.mockRestore();
  }
  expect(sockets).toHaveLength(before);
  expect(clientCalls).toEqual([]);
});
