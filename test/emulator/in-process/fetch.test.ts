/**
 * `inProcessFetch` and `interceptGlobalFetch` over a small Fastify app (sockets forbidden): what a
 * WHATWG fetch must do that the emulator's routes do not all show — several `set-cookie`s, stream
 * bodies, redirects in each mode, bodiless statuses, aborts, the platform hosts mapped onto the
 * same paths, other URLs left to the global fetch — and the interceptor's restore order.
 */
import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inProcessFetch, servedBy } from '../../../emulator/in-process/fetch.js';
import { interceptGlobalFetch } from '../../../emulator/in-process/intercept.js';
import { forbidSockets } from '../../helpers/no-sockets.js';

forbidSockets();

const ORIGIN = 'http://unit-emulator.localhost';
let app: FastifyInstance;
let emulatorFetch: typeof fetch;
/** Lets the `/slow` route answer. */
let releaseSlow = () => {};

beforeAll(async () => {
  app = Fastify({ bodyLimit: 16 * 1024 * 1024 });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.all('/echo', async (request) => ({
    method: request.method,
    url: request.url,
    host: request.headers.host,
    length: request.headers['content-length'],
    md5: request.body
      ? createHash('md5')
          .update(request.body as Buffer)
          .digest('hex')
      : null,
  }));
  app.all('/headers', async (request) => request.headers);
  app.get('/cookies', async (_request, reply) => {
    reply.header('set-cookie', ['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    return { ok: true };
  });
  app.get('/empty', async (_request, reply) => reply.code(204).send());
  app.all('/see-other', async (_request, reply) => reply.redirect('/echo', 303));
  app.all('/temporary', async (_request, reply) => reply.redirect('/echo', 307));
  app.get('/loop', async (_request, reply) => reply.redirect('/loop', 302));
  app.get('/away', async (_request, reply) => reply.redirect('https://elsewhere.example/landing', 302));
  app.get('/slow', () => new Promise((resolve) => (releaseSlow = () => resolve({ late: true }))));
  emulatorFetch = inProcessFetch(app, ORIGIN, servedBy(ORIGIN));
});
afterAll(() => app.close());
afterEach(() => vi.unstubAllGlobals());

/** A stand-in for the network: records what reaches the global fetch. */
function stubNetwork(): string[] {
  const reached: string[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
    reached.push(input instanceof Request ? input.url : String(input));
    return new Response('from the network');
  });
  return reached;
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('emulator.fetch', () => {
  it('answers JSON, text and bytes, with status and headers; several set-cookie headers stay apart', async () => {
    const response = await emulatorFetch(`${ORIGIN}/cookies`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.url).toBe(`${ORIGIN}/cookies`);
    expect(await (await emulatorFetch(new URL(`${ORIGIN}/echo`))).text()).toContain('"method":"GET"');
    expect((await (await emulatorFetch(`${ORIGIN}/echo`)).arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('sends a ReadableStream body (duplex: half) and a Request with a body, whole and with their length', async () => {
    const bytes = Uint8Array.from({ length: 3 * 1024 * 1024 + 17 }, (_, index) => (index * 7) & 255);
    const chunks = [bytes.subarray(0, 1000), bytes.subarray(1000, 2_000_000), bytes.subarray(2_000_000)];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    const streamed = await emulatorFetch(`${ORIGIN}/echo`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(await streamed.json()).toMatchObject({ method: 'PUT', length: String(bytes.length), md5: md5(bytes) });
    const request = new Request(`${ORIGIN}/echo?q=1`, { method: 'POST', body: 'hello' });
    expect(await (await emulatorFetch(request)).json()).toMatchObject({
      url: '/echo?q=1',
      md5: md5(Buffer.from('hello')),
    });
  });

  it('reads a call as fetch does: method case, header forms, a string body typed as text, a GET with a body refused', async () => {
    const echo = async (init: RequestInit) => (await emulatorFetch(`${ORIGIN}/echo`, init)).json();
    expect(await echo({ method: 'post', body: 'hi' })).toMatchObject({
      method: 'POST',
      length: '2',
      md5: md5(Buffer.from('hi')),
    });
    const headersOf = async (headers: HeadersInit) =>
      (await (await emulatorFetch(`${ORIGIN}/headers`, { headers })).json()) as Record<string, string>;
    expect(await headersOf({ 'X-One': '1' })).toMatchObject({ 'x-one': '1' });
    expect(
      await headersOf([
        ['x-two', 'a'],
        ['x-two', 'b'],
      ]),
    ).toMatchObject({ 'x-two': 'a, b' });
    expect(await headersOf(new Headers({ 'x-three': '3' }))).toMatchObject({ 'x-three': '3' });
    const text = await (await emulatorFetch(`${ORIGIN}/headers`, { method: 'POST', body: 'x' })).json();
    expect(text['content-type']).toBe('text/plain;charset=UTF-8');
    await expect(emulatorFetch(`${ORIGIN}/echo`, { method: 'GET', body: 'x' })).rejects.toThrow(TypeError);
    await expect(emulatorFetch('/echo')).rejects.toThrow(TypeError);
  });

  it('maps the platform hosts onto the same paths, with its own Host; http to them is not served', async () => {
    const reached = stubNetwork();
    const answer = await (await emulatorFetch('https://www.wixapis.com/echo?x=1')).json();
    expect(answer).toMatchObject({ url: '/echo?x=1', host: 'unit-emulator.localhost' });
    expect(await (await emulatorFetch('https://edge.wixapis.com/echo')).json()).toMatchObject({ url: '/echo' });
    expect(await (await emulatorFetch('http://www.wixapis.com/echo')).text()).toBe('from the network');
    expect(await (await emulatorFetch('https://example.com/x')).text()).toBe('from the network');
    expect(reached).toEqual(['http://www.wixapis.com/echo', 'https://example.com/x']);
  });

  it('redirects: manual hands back the 3xx, follow follows (303 turns into GET, 307 keeps the body), error rejects', async () => {
    const manual = await emulatorFetch(`${ORIGIN}/see-other`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location')]).toEqual([303, '/echo']);

    const seeOther = await emulatorFetch(`${ORIGIN}/see-other`, { method: 'POST', body: 'x' });
    expect(await seeOther.json()).toMatchObject({ method: 'GET', md5: null });
    expect([seeOther.redirected, seeOther.url]).toEqual([true, `${ORIGIN}/echo`]);

    const temporary = await emulatorFetch(`${ORIGIN}/temporary`, { method: 'POST', body: 'kept' });
    expect(await temporary.json()).toMatchObject({ method: 'POST', md5: md5(Buffer.from('kept')) });

    await expect(emulatorFetch(`${ORIGIN}/see-other`, { redirect: 'error' })).rejects.toThrow(TypeError);
    await expect(emulatorFetch(`${ORIGIN}/loop`)).rejects.toMatchObject({
      message: 'fetch failed',
      cause: { message: 'redirect count exceeded' },
    });
    const reached = stubNetwork();
    expect(await (await emulatorFetch(`${ORIGIN}/away`)).text()).toBe('from the network');
    expect(reached).toEqual(['https://elsewhere.example/landing']);
  });

  it('the answer is a Response: read once (text, json, bytes, blob or its stream), cloned before, bodyUsed after', async () => {
    const response = await emulatorFetch(`${ORIGIN}/cookies`);
    expect(response).toBeInstanceOf(Response);
    const copy = response.clone();
    expect([response.bodyUsed, response.ok]).toEqual([false, true]);
    expect(response.body).toBeInstanceOf(ReadableStream);
    expect(response.bodyUsed).toBe(false);
    expect(await response.text()).toBe('{"ok":true}');
    expect(response.bodyUsed).toBe(true);
    await expect(response.json()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    expect((await copy.blob()).type).toMatch(/application\/json/);
    const streamed = await emulatorFetch(`${ORIGIN}/cookies`);
    const reader = streamed.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(Buffer.concat(chunks).toString()).toBe('{"ok":true}');
    await expect(streamed.arrayBuffer()).rejects.toThrow(TypeError);
    expect(new Uint8Array(await (await emulatorFetch(`${ORIGIN}/cookies`)).arrayBuffer())).toEqual(
      new TextEncoder().encode('{"ok":true}'),
    );
  });

  it('a 204 has a null body; HEAD has none either', async () => {
    const empty = await emulatorFetch(`${ORIGIN}/empty`);
    expect([empty.status, empty.body, await empty.text()]).toEqual([204, null, '']);
    const head = await emulatorFetch(`${ORIGIN}/echo`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('answers on a later turn of the event loop, as a socket does: a loop of calls lets immediates and timers run', async () => {
    // Answered in microtasks only, a loop of calls starved the event loop, and every call's
    // pending setImmediate (light-my-request's) held its response until the loop ended.
    let calls = 0;
    let ranAfter = -1;
    setImmediate(() => {
      ranAfter = calls;
    });
    for (; calls < 20; calls++) await (await emulatorFetch(`${ORIGIN}/cookies`)).text();
    expect(ranAfter).toBe(0);
  });

  it('an abort rejects with the signal reason, before the request and while the handler runs', async () => {
    await expect(emulatorFetch(`${ORIGIN}/echo`, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    const controller = new AbortController();
    const pending = emulatorFetch(`${ORIGIN}/slow`, { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    releaseSlow();
  });
});

describe('interceptGlobalFetch', () => {
  it('sends served URLs to the emulator and the rest on; restore puts the original back, once', async () => {
    const reached = stubNetwork();
    const original = globalThis.fetch;
    const restore = interceptGlobalFetch(servedBy(ORIGIN), emulatorFetch);
    expect(globalThis.fetch).not.toBe(original);
    expect(await (await fetch('https://www.wixapis.com/echo')).json()).toMatchObject({ url: '/echo' });
    expect(await (await fetch(new Request(`${ORIGIN}/echo`))).json()).toMatchObject({ method: 'GET' });
    expect(await (await fetch('https://example.com/')).text()).toBe('from the network');
    expect(reached).toEqual(['https://example.com/']);
    restore();
    expect(globalThis.fetch).toBe(original);
    restore();
    expect(globalThis.fetch).toBe(original);
  });

  it('nested: restored newest first, each puts its predecessor back; restored out of order, the older one passes everything on', async () => {
    stubNetwork();
    const original = globalThis.fetch;
    const other = inProcessFetch(app, 'http://other.localhost', servedBy('http://other.localhost'));
    const outer = interceptGlobalFetch(servedBy(ORIGIN), emulatorFetch);
    const afterOuter = globalThis.fetch;
    const inner = interceptGlobalFetch(servedBy('http://other.localhost'), other);
    expect(await (await fetch(`${ORIGIN}/echo`)).json()).toMatchObject({ host: 'unit-emulator.localhost' });
    expect(await (await fetch('http://other.localhost/echo')).json()).toMatchObject({ host: 'other.localhost' });
    inner();
    expect(globalThis.fetch).toBe(afterOuter);
    outer();
    expect(globalThis.fetch).toBe(original);

    const first = interceptGlobalFetch(servedBy(ORIGIN), emulatorFetch);
    const second = interceptGlobalFetch(servedBy('http://other.localhost'), other);
    first();
    expect(await (await fetch(`${ORIGIN}/echo`)).text()).toBe('from the network');
    expect(await (await fetch('http://other.localhost/echo')).json()).toMatchObject({ host: 'other.localhost' });
    second();
    expect(globalThis.fetch).toBe(original);
  });
});
