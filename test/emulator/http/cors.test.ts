/**
 * The emulator's CORS answers for the platform API are those @fastify/cors gives with the options
 * the emulator used to register it with (checked against the plugin itself, as the reference),
 * plus the methods of the platform's writes (PUT, PATCH, DELETE: a browser app on another port
 * sends them after a preflight): the same status, CORS headers and Vary for simple calls and
 * preflights from allowed, refused and missing origins.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from '@fastify/cors';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedOrigin } from '../../../emulator/http/request-guards.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { setConfig } from '../../helpers/sign-in.js';

let emulator: TestEmulator;
let reference: FastifyInstance;
const allowedCorsOrigins = ['https://app.example'];
/** A page of the platform's side (not the control API, which answers other origins). */
const PATH = '/_pages/signed-in';

beforeAll(async () => {
  emulator = await startEmulator();
  await setConfig(emulator, { allowedCorsOrigins });
  reference = Fastify();
  await reference.register(cors, {
    origin: (origin, allow) => allow(null, origin === undefined || isAllowedOrigin(origin, allowedCorsOrigins)),
    credentials: true,
    exposedHeaders: ['x-wix-request-id', 'x-wix-consistent', 'retry-after'],
    maxAge: 600,
    methods: 'GET,HEAD,POST,PUT,PATCH,DELETE',
  });
  reference.get(PATH, async () => ({ status: 'ok' }));
  await reference.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await emulator?.close();
  await reference?.close();
});

/** The status, CORS headers and Vary of an answer. */
function corsAnswer(
  port: number,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port, path: PATH, method, headers }, (response) => {
      response.resume();
      const picked = Object.fromEntries(
        Object.entries(response.headers).filter(
          ([name, value]) =>
            name.startsWith('access-control-') ||
            name == 'vary' ||
            // An empty answer's length (a preflight's): Safari waits for a body on a 204 without it.
            (name == 'content-length' && value == '0'),
        ),
      );
      resolve({ status: response.statusCode!, headers: picked });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const preflight = (origin: string | undefined, extra: Record<string, string> = {}, method = 'POST') => ({
  ...(origin === undefined ? {} : { origin }),
  'access-control-request-method': method,
  ...extra,
});

describe('CORS answers, as @fastify/cors gave them', () => {
  it.each([
    ['a call without an Origin', 'GET', {}],
    ['a call from a loopback origin', 'GET', { origin: 'http://localhost:5173' }],
    ['a call from a configured origin', 'GET', { origin: 'https://app.example' }],
    ['a call from another website', 'GET', { origin: 'https://evil.example' }],
    ['a call from an empty Origin', 'GET', { origin: '' }],
    ['a preflight from a loopback origin', 'OPTIONS', preflight('http://127.0.0.1:3000')],
    [
      'a preflight naming its headers',
      'OPTIONS',
      preflight('https://app.example', { 'access-control-request-headers': 'authorization,content-type' }),
    ],
    // What a Vite app on another port sends before an upload, an item or member update, a removal.
    ['a PUT preflight (an upload)', 'OPTIONS', preflight('http://localhost:5173', {}, 'PUT')],
    [
      'a PATCH preflight (an item update)',
      'OPTIONS',
      preflight('http://localhost:5173', { 'access-control-request-headers': 'authorization,content-type' }, 'PATCH'),
    ],
    ['a DELETE preflight (a removal)', 'OPTIONS', preflight('http://127.0.0.1:3000', {}, 'DELETE')],
    ['a preflight from another website', 'OPTIONS', preflight('https://evil.example')],
    ['a DELETE preflight from another website', 'OPTIONS', preflight('https://evil.example', {}, 'DELETE')],
    ['a preflight without an Origin', 'OPTIONS', preflight(undefined)],
    ['a preflight without a method', 'OPTIONS', { origin: 'http://localhost:5173' }],
  ])('%s', async (_name, method, headers) => {
    const emulatorPort = Number(new URL(emulator.url).port);
    const referencePort = (reference.server.address() as AddressInfo).port;
    const expected = await corsAnswer(referencePort, method, headers);
    const answered = await corsAnswer(emulatorPort, method, headers);
    expect(answered).toEqual(expected);
  });
});

describe('a preflight without the method it asks for', () => {
  it('is a 400 in plain text', async () => {
    const response = await fetch(new URL(PATH, emulator.url), {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await response.text()).toBe('Invalid Preflight Request');
  });
});

describe("a browser app's writes from another loopback port", () => {
  it.each(['PUT', 'PATCH', 'DELETE'])('a %s preflight is allowed, with the headers it names', async (method) => {
    const answer = await corsAnswer(
      Number(new URL(emulator.url).port),
      'OPTIONS',
      preflight('http://localhost:5173', { 'access-control-request-headers': 'authorization,content-type' }, method),
    );
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(answer.headers['access-control-allow-methods']).split(',')).toContain(method);
    expect(answer.headers['access-control-allow-headers']).toBe('authorization,content-type');
    expect(answer.headers['content-length']).toBe('0');
  });
});
