/**
 * Media through the SDK against the emulator: uploads (one PUT, and TUS resuming after the
 * connection drops mid-way), descriptors with the image's real width and height, signed download
 * URLs that expire, import from a URL, list/search with paging and sort, descriptor updates,
 * trash, restore and permanent delete, and the upload size limit.
 */
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyStrategy, createClient, type FileDescriptor } from '../../src/index.js';
import { gradientPng } from '../../emulator/services/media/png.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { setConfig } from '../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());
afterEach(async () => {
  vi.useRealTimers();
  await setConfig(emulator, { maxUploadBytes: 50 * 1024 * 1024 });
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as { code: string; status: number },
  );

/** Bytes with a recognisable pattern, so a resumed upload that lost or repeated bytes is caught. */
const patterned = (size: number) =>
  Buffer.from(Array.from({ length: size }, (_, index) => (index * 7 + (index >> 10)) % 251));

describe('uploads', () => {
  it('uploads an image in one PUT: media type, size, MIME type, width and height from the bytes', async () => {
    const png = gradientPng(320, 200, [255, 140, 0], [120, 40, 200]);
    const file = await emulator.admin.media.upload(new Blob([new Uint8Array(png)], { type: 'image/png' }), {
      fileName: 'sunset.png',
      labels: ['sky'],
    });
    expect(file).toMatchObject({
      displayName: 'sunset.png',
      mediaType: 'IMAGE',
      operationStatus: 'READY',
      sizeInBytes: String(png.length),
      labels: ['sky'],
      state: 'OK',
    });
    expect(file.media?.image?.image).toContain('originWidth=320');
    expect(file.media?.image?.image).toContain('originHeight=200');

    const served = await fetch(file.url!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const again = await emulator.admin.media.getFileDescriptor(file._id!);
    expect(again).toMatchObject({
      _id: file._id,
      sizeInBytes: String(png.length),
      hash: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
  });

  it('seeds demo media: real PNGs whose descriptors carry their sizes, served publicly', async () => {
    const { files } = await emulator.admin.media.searchFiles({ search: 'sunrise' });
    expect(files).toHaveLength(1);
    expect(files![0]).toMatchObject({ displayName: 'sunrise.png', mediaType: 'IMAGE', labels: ['demo'] });
    expect(files![0]!.media?.image?.image).toContain('originWidth=640');
    const served = Buffer.from(await (await fetch(files![0]!.url!)).arrayBuffer());
    expect(served.subarray(1, 4).toString()).toBe('PNG');
  });

  it('an upload URL works once', async () => {
    const { uploadUrl } = await emulator.admin.media.generateFileUploadUrl('text/plain', { fileName: 'once.txt' });
    expect((await fetch(`${uploadUrl}?filename=once.txt`, { method: 'PUT', body: 'first' })).status).toBe(200);
    const second = await fetch(`${uploadUrl}?filename=once.txt`, { method: 'PUT', body: 'second' });
    expect(second.status).toBe(403);
    expect(await second.json()).toMatchObject({ details: { applicationError: { code: 'UPLOAD_URL_USED' } } });
  });

  it('resumes a TUS upload after the connection drops mid-way, byte for byte', async () => {
    // A proxy in front of the emulator that cuts the first PATCH after 1 MiB.
    const target = new URL(emulator.url);
    let cut = false;
    const sockets = new Set<Socket>();
    const proxy = createTcpServer((client) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(client).add(upstream);
      // Bytes of PATCH requests seen on this connection (kept alive: a PATCH may follow the POST).
      let patchBytes = 0;
      let inPatch = false;
      client.on('data', (chunk: Buffer) => {
        const start = chunk.indexOf('PATCH /');
        if (start >= 0) inPatch = true;
        if (inPatch) patchBytes += chunk.length - Math.max(start, 0);
        if (inPatch && !cut && patchBytes > 1024 * 1024) {
          cut = true;
          client.destroy();
          upstream.destroy();
          return;
        }
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => client.write(chunk));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.on('error', () => undefined);
      upstream.on('error', () => undefined);
    });
    proxy.listen(0, '127.0.0.1');
    await once(proxy, 'listening');
    const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const client = createClient({
        baseUrl: proxied,
        auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
      });
      const bytes = patterned(6 * 1024 * 1024 + 123);
      const progress: number[] = [];
      const file = await client.media.upload(new Blob([bytes], { type: 'application/octet-stream' }), {
        fileName: 'big.bin',
        resumable: true,
        onProgress: ({ loaded }) => progress.push(loaded),
      });
      expect(cut).toBe(true);
      expect(file).toMatchObject({
        displayName: 'big.bin',
        sizeInBytes: String(bytes.length),
        operationStatus: 'READY',
      });
      expect(progress.at(-1)).toBe(bytes.length);
      const { downloadUrls } = await emulator.admin.media.generateFileDownloadUrl(file._id!);
      const downloaded = Buffer.from(await (await fetch(downloadUrls![0]!.url!)).arrayBuffer());
      expect(downloaded.equals(bytes)).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      proxy.close();
    }
  });

  it('TUS: an unknown upload token is refused at creation; finalising before every byte arrived is a 409', async () => {
    const { uploadUrl, uploadToken } = await emulator.admin.media.generateFileResumableUploadUrl('text/plain', {
      fileName: 'partial.txt',
      sizeInBytes: '10',
    });
    const metadata = (token: string) =>
      `filename ${Buffer.from('partial.txt').toString('base64')},token ${Buffer.from(token).toString('base64')}`;
    const tus = { 'tus-resumable': '1.0.0', 'upload-length': '10' };
    const refused = await fetch(uploadUrl!, {
      method: 'POST',
      headers: { ...tus, 'upload-metadata': metadata('upload.forged') },
    });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ details: { applicationError: { code: 'UPLOAD_NOT_FOUND' } } });

    const created = await fetch(uploadUrl!, {
      method: 'POST',
      headers: { ...tus, 'upload-metadata': metadata(uploadToken!) },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-wix-request-id')).toBeTruthy();
    const location = created.headers.get('location')!;
    await created.body?.cancel();
    const patched = await fetch(location, {
      method: 'PATCH',
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'hello',
    });
    expect(patched.headers.get('upload-offset')).toBe('5');
    await patched.body?.cancel();
    const early = await fetch(`${uploadUrl}/${uploadToken}?filename=partial.txt`, { method: 'PUT' });
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ details: { applicationError: { code: 'UPLOAD_INCOMPLETE' } } });
  });

  it('refuses an oversized upload with 413 and stores nothing', async () => {
    await setConfig(emulator, { maxUploadBytes: 1000 });
    const before = (await emulator.admin.media.listFiles({ paging: { limit: 100 } })).files!.length;
    const declared = await failure(
      emulator.admin.media.upload(new Blob([patterned(2000)], { type: 'text/plain' }), { fileName: 'big.txt' }),
    );
    expect(declared).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });

    // Without a declared size, the bytes themselves are counted.
    const { uploadUrl } = await emulator.admin.media.generateFileUploadUrl('text/plain', { fileName: 'sneaky.txt' });
    const response = await fetch(`${uploadUrl}?filename=sneaky.txt`, {
      method: 'PUT',
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(patterned(2000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ details: { applicationError: { code: 'PAYLOAD_TOO_LARGE' } } });
    expect((await emulator.admin.media.listFiles({ paging: { limit: 100 } })).files!.length).toBe(before);
  });
});

describe('on disk', () => {
  // Two emulators start here (the first makes the site's RSA key pair): give a loaded machine time.
  it('keeps files under the data dir across a restart on another port, with URLs of the new address', {
    timeout: 60_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sitekit-media-test-'));
    try {
      const first = await startEmulator({ memory: false, dataDir });
      const file = await first.admin.media.upload(new Blob(['kept on disk'], { type: 'text/plain' }), {
        fileName: 'kept.txt',
      });
      await first.close();
      expect(readdirSync(join(dataDir, 'media', 'files'))).toContain(file._id);

      const second = await startEmulator({ memory: false, dataDir });
      try {
        const again = await second.admin.media.getFileDescriptor(file._id!);
        expect(again.url!.startsWith(second.url)).toBe(true);
        expect(await (await fetch(again.url!)).text()).toBe('kept on disk');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('downloads', () => {
  it('signed download URLs: attachment with the given name, expiry, forgery refused, several files as a ZIP', async () => {
    const first = await emulator.admin.media.upload(new Blob(['hello'], { type: 'text/plain' }), {
      fileName: 'hello.txt',
      private: true,
    });
    expect((await fetch(first.url!)).status).toBe(404);

    const { downloadUrls } = await emulator.admin.media.generateFileDownloadUrl(first._id!, {
      downloadFileName: 'greeting.txt',
      expirationInMinutes: 5,
    });
    const url = downloadUrls![0]!.url!;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''greeting.txt");
    expect(await response.text()).toBe('hello');

    const forged = new URL(url);
    forged.searchParams.set('expires', String(Number(forged.searchParams.get('expires')) + 3600));
    expect((await fetch(forged)).status).toBe(403);

    await emulator.clock.advance(6 * 60);
    const expired = await fetch(url);
    await emulator.clock.reset();
    expect(expired.status).toBe(403);
    expect(await expired.json()).toMatchObject({ details: { applicationError: { code: 'URL_EXPIRED' } } });

    const second = await emulator.admin.media.upload(new Blob(['world'], { type: 'text/plain' }), {
      fileName: 'world.txt',
    });
    const { downloadUrl } = await emulator.admin.media.generateFilesDownloadUrl([first._id!, second._id!]);
    const archive = Buffer.from(await (await fetch(downloadUrl!)).arrayBuffer());
    expect(archive.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect(archive.includes(Buffer.from('hello.txt'))).toBe(true);
    expect(archive.includes(Buffer.from('world'))).toBe(true);
  });

  it('video stream URLs for videos only', async () => {
    const video = await emulator.admin.media.upload(new Blob([patterned(4096)], { type: 'video/mp4' }), {
      fileName: 'clip.mp4',
    });
    expect(video.mediaType).toBe('VIDEO');
    const { downloadUrl } = await emulator.admin.media.generateVideoStreamingUrl(video._id!, { format: 'HLS' });
    const streamed = await fetch(downloadUrl!.url!);
    expect(streamed.headers.get('content-type')).toBe('video/mp4');
    expect(streamed.headers.get('content-disposition')).toMatch(/^inline/);
    const text = await emulator.admin.media.upload(new Blob(['x'], { type: 'text/plain' }), { fileName: 'x.txt' });
    expect(await failure(emulator.admin.media.generateVideoStreamingUrl(text._id!))).toMatchObject({
      status: 400,
      code: 'NOT_A_VIDEO',
    });
  });
});

describe('import, listing, trash', () => {
  let source: Server;
  let sourceUrl: string;
  beforeAll(async () => {
    const png = gradientPng(64, 48, [0, 0, 0], [255, 255, 255]);
    source = createHttpServer((request, response) => {
      if (request.url?.startsWith('/missing')) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    source.listen(0, '127.0.0.1');
    await once(source, 'listening');
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
    // The source is a local fixture: loopback imports are off by default (security-media.test.ts).
    await emulator.config.update({ importsFromPrivateAddresses: true });
  });
  afterAll(() => source?.close());

  // A time limit for a loaded machine, not a count of polls.
  const settled = (fileId: string): Promise<FileDescriptor> =>
    vi.waitFor(
      async () => {
        const file = await emulator.admin.media.getFileDescriptor(fileId);
        if (file.operationStatus == 'PENDING') throw new Error('the import never finished');
        return file;
      },
      { timeout: 10_000, interval: 20 },
    );

  it('imports from a URL (PENDING, then READY with the dimensions), and a failing source makes it FAILED', async () => {
    const { file: pending } = await emulator.admin.media.importFile(`${sourceUrl}/pictures/imported.png`, {
      displayName: 'Imported',
    });
    expect(pending?.operationStatus).toBe('PENDING');
    const ready = await settled(pending!._id!);
    expect(ready).toMatchObject({
      operationStatus: 'READY',
      mediaType: 'IMAGE',
      displayName: 'Imported',
      sourceUrl: `${sourceUrl}/pictures/imported.png`,
    });
    expect(ready.media?.image?.image).toContain('originWidth=64');
    const { file: failed } = await emulator.admin.media.importFile(`${sourceUrl}/missing.png`);
    expect((await settled(failed!._id!)).operationStatus).toBe('FAILED');
  });

  it('lists and searches with cursor paging and sort; trash, restore, permanent delete', async () => {
    const { admin } = emulator;
    const tag = `batch${Date.now()}`;
    const files: FileDescriptor[] = [];
    for (const name of ['c', 'a', 'b'])
      files.push(
        await admin.media.upload(new Blob([name.repeat(3)], { type: 'text/plain' }), {
          fileName: `${tag}-${name}.txt`,
          parentFolderId: tag,
        }),
      );
    const first = await admin.media.listFiles({
      parentFolderId: tag,
      sort: { fieldName: 'displayName', order: 'ASC' },
      paging: { limit: 2 },
    });
    expect(first.files!.map((file) => file.displayName)).toEqual([`${tag}-a.txt`, `${tag}-b.txt`]);
    const second = await admin.media.listFiles({
      parentFolderId: tag,
      sort: { fieldName: 'displayName', order: 'ASC' },
      paging: { limit: 2, cursor: first.nextCursor!.cursors!.next! },
    });
    expect(second.files!.map((file) => file.displayName)).toEqual([`${tag}-c.txt`]);
    expect((await admin.media.searchFiles({ search: `${tag}-B` })).files!.map((file) => file._id)).toEqual([
      files[2]!._id,
    ]);

    const renamed = await admin.media.updateFileDescriptor({
      _id: files[0]!._id!,
      displayName: 'renamed.txt',
      labels: ['x'],
    });
    expect(renamed).toMatchObject({ displayName: 'renamed.txt', labels: ['x'] });

    await admin.media.bulkDeleteFiles([files[0]!._id!, files[1]!._id!]);
    expect((await admin.media.listFiles({ parentFolderId: tag })).files!.map((file) => file._id)).toEqual([
      files[2]!._id,
    ]);
    const trash = await admin.media.listDeletedFiles({ paging: { limit: 100 } });
    expect(trash.files!.map((file) => file._id)).toEqual(expect.arrayContaining([files[0]!._id, files[1]!._id]));
    expect(trash.files!.find((file) => file._id == files[0]!._id)).toMatchObject({
      state: 'DELETED',
      parentFolderId: 'trash-root',
    });

    await admin.media.bulkRestoreFilesFromTrashBin([files[0]!._id!]);
    expect(await admin.media.getFileDescriptor(files[0]!._id!)).toMatchObject({ state: 'OK', parentFolderId: tag });

    await admin.media.bulkDeleteFiles([files[1]!._id!], { permanent: true });
    expect(await failure(admin.media.getFileDescriptor(files[1]!._id!))).toMatchObject({
      status: 404,
      code: 'FILE_NOT_FOUND',
    });
  });

  it('visitors see public files and their own uploads; trash and updates need the API key', async () => {
    const visitor = emulator.newVisitor();
    const own = await visitor.media.upload(new Blob(['mine'], { type: 'text/plain' }), {
      fileName: 'mine.txt',
      private: true,
    });
    const secret = await emulator.admin.media.upload(new Blob(['secret'], { type: 'text/plain' }), {
      fileName: 'secret.txt',
      private: true,
    });
    expect((await visitor.media.getFileDescriptor(own._id!))._id).toBe(own._id);
    expect(await failure(visitor.media.getFileDescriptor(secret._id!))).toMatchObject({ status: 404 });
    expect(await failure(emulator.newVisitor().media.getFileDescriptor(own._id!))).toMatchObject({ status: 404 });
    const raw = await emulator.fetch('/site-media/v1/bulk/files/delete', {
      method: 'POST',
      headers: { authorization: visitor.auth.getTokens().accessToken.value, 'content-type': 'application/json' },
      body: JSON.stringify({ fileIds: [own._id] }),
    });
    expect(raw.status).toBe(403);
  });
});
