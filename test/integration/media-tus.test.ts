/**
 * media.upload over TUS against a REAL local TUS server (@tus/server + @tus/file-store on
 * node:http, 127.0.0.1, a temp dir). No nock in this file: every byte goes over loopback.
 *
 * Layout: one node:http server answers the two JSON calls (generate-resumable-upload-url and the
 * finalising `PUT /tus/<token>?filename=`) and hands `/tus...` to @tus/server. The upload URL it
 * returns points at a TCP proxy in front of it, which counts the bytes sent and can cut the
 * connection once, mid-PATCH, like a flaky network.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { EVENTS, Server, type Upload } from '@tus/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../src/auth/api-key.js';
import { createClient } from '../../src/client.js';
import { AbortedError, ApplicationError, HttpError } from '../../src/errors/index.js';
import type { UploadProgress } from '../../src/media/media.js';

const MiB = 1024 * 1024;

let dir: string;
let api: http.Server;
let proxy: net.Server;
let apiUrl: string;
let proxyUrl: string;

/** What the servers saw, reset before each test. */
let log: string[];
let generateBodies: unknown[];
let finished: Map<string, Upload>;
let tusHeaders: http.IncomingHttpHeaders[];
/** Bytes the client sent through the proxy (TUS traffic only). */
let sentThroughProxy: number;
/** Waiters for the server's next terminated upload (a TUS DELETE that landed). */
const terminated: (() => void)[] = [];
const nextTermination = () => new Promise<void>((resolve) => terminated.push(resolve));
/** When set, the proxy cuts the connection once this many bytes went through. */
let dropAfter: number | undefined;
let drops: number;

const readJson = async (req: http.IncomingMessage): Promise<unknown> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
};
const json = (res: http.ServerResponse, status: number, body: unknown) => {
  res
    .writeHead(status, { 'content-type': 'application/json', 'x-wix-request-id': 'req-tus' })
    .end(JSON.stringify(body));
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sitekit-tus-'));
  const tus = new Server({
    path: '/tus',
    datastore: new FileStore({ directory: dir }),
    // The real service rejects an unknown upload token when the upload is created.
    onUploadCreate: async (_req, upload) => {
      if (upload.metadata?.token === 'bad-token')
        throw {
          status_code: 403,
          body: JSON.stringify({
            message: 'invalid upload token',
            details: { applicationError: { code: 'INVALID_UPLOAD_TOKEN', description: 'bad' } },
          }),
        };
      return {};
    },
  });
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => finished.set(upload.metadata!.token!, upload));
  tus.on(EVENTS.POST_TERMINATE, () => terminated.shift()?.());

  api = http.createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    log.push(`${req.method} ${url.pathname}`);
    if (req.method === 'POST' && url.pathname === '/site-media/v1/files/generate-resumable-upload-url') {
      const body = (await readJson(req)) as { fileName: string };
      generateBodies.push(body);
      const token = body.fileName === 'refused.bin' ? 'bad-token' : `tok-${generateBodies.length}`;
      return json(res, 200, { uploadUrl: `${proxyUrl}/tus`, uploadToken: token, uploadProtocol: 'TUS' });
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/tus/')) {
      // Finalise: the TUS upload of this token must be complete.
      const upload = finished.get(url.pathname.slice('/tus/'.length));
      if (!upload) return json(res, 404, { message: 'no finished upload for this token' });
      return json(res, 200, {
        file: {
          id: upload.id,
          displayName: url.searchParams.get('filename'),
          sizeInBytes: String(upload.size),
          mediaType: 'VIDEO',
          operationStatus: 'PENDING',
          createdDate: '2024-06-01T00:00:00.000Z',
        },
      });
    }
    if (url.pathname.startsWith('/tus')) {
      tusHeaders.push(req.headers);
      return tus.handle(req, res);
    }
    json(res, 404, {});
  });
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  const apiPort = (api.address() as net.AddressInfo).port;
  apiUrl = `http://127.0.0.1:${apiPort}`;

  proxy = net.createServer((down) => {
    const up = net.connect(apiPort, '127.0.0.1');
    down.on('data', (chunk: Buffer) => {
      sentThroughProxy += chunk.length;
      if (dropAfter !== undefined && sentThroughProxy >= dropAfter) {
        dropAfter = undefined;
        drops++;
        down.destroy();
        up.destroy();
        return;
      }
      if (!up.write(chunk)) {
        down.pause();
        up.once('drain', () => down.resume());
      }
    });
    up.pipe(down);
    const close = () => (down.destroy(), up.destroy());
    down.on('error', close).on('close', close);
    up.on('error', close).on('close', close);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  proxy.close();
  api.closeAllConnections();
  api.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  log = [];
  generateBodies = [];
  finished = new Map();
  tusHeaders = [];
  sentThroughProxy = 0;
  dropAfter = undefined;
  drops = 0;
});

const client = () => createClient({ auth: ApiKeyStrategy({ apiKey: 'k' }), baseUrl: apiUrl, retry: false });

const expectMonotonicTo100 = (progress: UploadProgress[], total: number) => {
  expect(progress[0]).toEqual({ loaded: 0, total });
  expect(progress.at(-1)).toEqual({ loaded: total, total });
  for (let i = 1; i < progress.length; i++) {
    expect(progress[i]!.loaded).toBeGreaterThan(progress[i - 1]!.loaded);
    expect(progress[i]!.total).toBe(total);
  }
};

describe('media.upload over TUS (real @tus/server)', () => {
  it('20 MiB: monotonic progress to 100%, survives a connection dropped halfway, stored file identical', async () => {
    const data = randomBytes(20 * MiB);
    dropAfter = Math.round(data.length * 0.55); // mid-way through the third 5 MiB PATCH
    const progress: UploadProgress[] = [];
    const started = performance.now();
    const file = await client().media.upload(data, {
      mimeType: 'video/mp4',
      fileName: 'clip.mp4',
      labels: ['big'],
      onProgress: (p) => progress.push(p),
    });
    const ms = performance.now() - started;
    console.log(
      `20 MiB TUS upload with one dropped connection: ${ms.toFixed(0)} ms, ${progress.length} progress events, ${(sentThroughProxy / MiB).toFixed(2)} MiB sent`,
    );

    // The JSON calls, on the wire.
    expect(generateBodies).toEqual([
      {
        mimeType: 'video/mp4',
        fileName: 'clip.mp4',
        sizeInBytes: String(20 * MiB),
        labels: ['big'],
        uploadProtocol: 'TUS',
      },
    ]);
    // The connection was cut once, and the upload resumed (HEAD) instead of starting over.
    expect(drops).toBe(1);
    expect(log.filter((l) => l === 'POST /tus')).toHaveLength(1);
    expect(log.some((l) => l.startsWith('HEAD /tus/'))).toBe(true);
    expect(log.filter((l) => l.startsWith('PATCH /tus/')).length).toBeGreaterThanOrEqual(5);
    // It resumed where the server's offset stood (mid-chunk: the bytes that arrived before the
    // cut were kept), so far less than a second full upload went out.
    const offsets = tusHeaders.filter((h) => h['upload-offset'] !== undefined).map((h) => Number(h['upload-offset']));
    expect(offsets.some((o) => o % (5 * MiB) !== 0)).toBe(true);
    expect(sentThroughProxy).toBeLessThan(data.length + 6 * MiB);
    // Finalised after the TUS upload completed.
    expect(log.at(-1)).toBe('PUT /tus/tok-1');

    expectMonotonicTo100(progress, data.length);
    const upload = finished.get('tok-1')!;
    expect(file).toEqual({
      _id: upload.id,
      displayName: 'clip.mp4',
      sizeInBytes: String(20 * MiB),
      mediaType: 'VIDEO',
      operationStatus: 'PENDING',
      _createdDate: new Date('2024-06-01T00:00:00.000Z'),
    });
    const stored = await readFile(path.join(dir, upload.id));
    expect(stored.length).toBe(data.length);
    expect(stored.equals(data)).toBe(true);
  });

  it('sends the TUS metadata the provider documents (filename, contentType, token) and no auth header', async () => {
    await client().media.upload(randomBytes(1000), {
      mimeType: 'application/pdf',
      fileName: 'doc.pdf',
      resumable: true,
    });
    const upload = finished.get('tok-1')!;
    expect(upload.metadata).toEqual({
      filename: 'doc.pdf',
      contentType: 'application/pdf',
      filetype: 'application/pdf',
      token: 'tok-1',
    });
    for (const h of tusHeaders) expect(h.authorization).toBeUndefined();
    expect(log).toEqual([
      'POST /site-media/v1/files/generate-resumable-upload-url',
      'POST /tus',
      `PATCH /tus/${upload.id}`,
      'PUT /tus/tok-1',
    ]);
  });

  it('a Blob is read chunk by chunk (several PATCHes) and arrives intact', async () => {
    const data = randomBytes(12 * MiB);
    const progress: UploadProgress[] = [];
    await client().media.upload(new Blob([data]), {
      mimeType: 'video/mp4',
      fileName: 'b.mp4',
      onProgress: (p) => progress.push(p),
    });
    expect(log.filter((l) => l.startsWith('PATCH')).length).toBe(3);
    expect((await readFile(path.join(dir, finished.get('tok-1')!.id))).equals(data)).toBe(true);
    expectMonotonicTo100(progress, data.length);
  });

  it('abort mid-upload: rejects with AbortedError, stops sending, deletes the partial upload, never finalises', async () => {
    const data = randomBytes(20 * MiB);
    const controller = new AbortController();
    let uploadId: string | undefined;
    const termination = nextTermination();
    const pending = client().media.upload(data, {
      mimeType: 'video/mp4',
      fileName: 'abort.mp4',
      signal: controller.signal,
      onProgress: ({ loaded, total }) => {
        if (loaded >= total * 0.25 && !controller.signal.aborted) controller.abort();
      },
    });
    const e = await pending.catch((x) => x);
    expect(e).toBeInstanceOf(AbortedError);
    // The terminating DELETE landed: the upload is gone on the server, so nothing more can be stored.
    await termination;
    expect(sentThroughProxy).toBeLessThan(data.length * 0.8);
    expect(finished.size).toBe(0);
    expect(log.some((l) => l.startsWith('PUT'))).toBe(false);
    const del = log.find((l) => l.startsWith('DELETE /tus/'));
    expect(del).toBeDefined();
    uploadId = del!.slice('DELETE /tus/'.length);
    await expect(stat(path.join(dir, uploadId))).rejects.toThrow(); // terminated on the server
  });

  it('an onProgress that throws mid-upload rejects with its error and stops the upload', async () => {
    const boom = new Error('progress bar gone');
    const termination = nextTermination();
    const e = await client()
      .media.upload(randomBytes(12 * MiB), {
        mimeType: 'video/mp4',
        fileName: 'p.mp4',
        onProgress: ({ loaded }) => {
          if (loaded > 0) throw boom;
        },
      })
      .catch((x) => x);
    expect(e).toBe(boom);
    // Terminated on the server: it can never finish.
    await termination;
    expect(finished.size).toBe(0);
    expect(log.some((l) => l.startsWith('DELETE /tus/'))).toBe(true);
  });

  it('a refused upload (4xx from the TUS server) maps to the typed error without retries', async () => {
    const e = await client()
      .media.upload(randomBytes(100), {
        mimeType: 'application/octet-stream',
        fileName: 'refused.bin',
        resumable: true,
      })
      .catch((x) => x);
    expect(e).toBeInstanceOf(ApplicationError);
    expect(e).toMatchObject({
      code: 'INVALID_UPLOAD_TOKEN',
      status: 403,
      message: expect.stringContaining('invalid upload token'),
    });
    expect(log.filter((l) => l === 'POST /tus')).toHaveLength(1);
  });

  it('a failed finalisation maps to the typed error', async () => {
    finished = new Map();
    // Forget finished uploads as they are reported, so the finalising PUT answers 404.
    finished.set = function () {
      return this;
    };
    const e = await client()
      .media.upload(randomBytes(100), { mimeType: 'application/octet-stream', fileName: 'x.bin', resumable: true })
      .catch((x) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'req-tus' });
  });
});
