/**
 * client.media through createClient (nock): every files operation of the official API once, and `upload` —
 * the simple path end to end, input kinds, the resumable switch, error mapping, abort, bad input,
 * and that the TUS code stays out of the main bundle.
 */
import { Readable } from 'node:stream';
import path from 'node:path';
import { build, type Metafile, type OutputFile } from 'esbuild';
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AbortedError,
  ApplicationError,
  HttpError,
  NetworkError,
  RequestError,
  TimeoutError,
  ValidationError,
} from '../../../src/errors/index.js';
import { RESUMABLE_THRESHOLD, type UploadProgress } from '../../../src/media/media.js';
import { eagerOutputs } from '../../../scripts/eager-chunks.mjs';
import { testClient } from '../../helpers/clients.js';

const BASE = 'https://api.test';
const UPLOAD = 'https://upload.test';
const client = () => testClient();

/** A descriptor as the upload host and the API send it (wire form). */
const WIRE_FILE = {
  id: 'f1',
  displayName: 'cat.png',
  mediaType: 'IMAGE',
  operationStatus: 'READY',
  sizeInBytes: '5',
  createdDate: '2024-05-01T10:00:00.000Z',
  updatedDate: '2024-05-02T10:00:00.000Z',
  media: {
    image: {
      image: {
        id: 'abc_123.png',
        url: 'https://static.wixstatic.com/media/abc_123.png',
        width: 640,
        height: 480,
        filename: 'cat.png',
      },
    },
  },
};
/** The same descriptor in public form. */
const PUBLIC_FILE = {
  _id: 'f1',
  displayName: 'cat.png',
  mediaType: 'IMAGE',
  operationStatus: 'READY',
  sizeInBytes: '5',
  _createdDate: new Date('2024-05-01T10:00:00.000Z'),
  _updatedDate: new Date('2024-05-02T10:00:00.000Z'),
  media: { image: { image: 'wix:image://v1/abc_123.png/cat.png#originWidth=640&originHeight=480' } },
};

// Not valid UTF-8 (0xff), so nock hands the body over hex-encoded.
const BYTES = new Uint8Array([0x89, 0x50, 0xff, 0x00, 0x47]);
const hex = (b: Uint8Array | string) => Buffer.from(b).toString('hex');

interface Put {
  url: string;
  headers: Record<string, unknown>;
  body: string;
}

/** Expects one generate-upload-url call (wire body checked exactly) and one PUT; returns what the PUT got. */
function simpleUpload(
  expectedBody: object,
  reply: [number, unknown?, Record<string, string>?] = [200, { file: WIRE_FILE }],
) {
  const seen: { generate?: { body: unknown; headers: Record<string, unknown> }; put?: Put } = {};
  nock(BASE)
    .post('/site-media/v1/files/generate-upload-url')
    .reply(function (_uri, body) {
      seen.generate = { body, headers: this.req.headers };
      return [200, { uploadUrl: `${UPLOAD}/upload/abc?token=t1` }];
    });
  nock(UPLOAD)
    .put('/upload/abc')
    .query(true)
    .reply(function (uri, body) {
      seen.put = { url: uri, headers: this.req.headers, body: body as string };
      const [status, json, headers] = reply;
      return [
        status,
        typeof json === 'string' ? json : JSON.stringify(json),
        { 'content-type': 'application/json', ...headers },
      ];
    });
  return () => {
    expect(seen.generate?.body).toEqual(expectedBody);
    return seen.put!;
  };
}

beforeEach(() => nock.disableNetConnect());
afterEach(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describe('media: every files operation once', () => {
  type Row = [string, (c: ReturnType<typeof client>) => Promise<unknown>, string, unknown?];
  const rows: Row[] = [
    [
      'generateFileUploadUrl',
      (c) => c.media.generateFileUploadUrl('image/png', { fileName: 'a.png', sizeInBytes: '10', labels: ['x'] }),
      'POST /site-media/v1/files/generate-upload-url',
      { mimeType: 'image/png', fileName: 'a.png', sizeInBytes: '10', labels: ['x'] },
    ],
    [
      'generateFileResumableUploadUrl',
      (c) => c.media.generateFileResumableUploadUrl('video/mp4', { fileName: 'v.mp4', uploadProtocol: 'TUS' }),
      'POST /site-media/v1/files/generate-resumable-upload-url',
      { mimeType: 'video/mp4', fileName: 'v.mp4', uploadProtocol: 'TUS' },
    ],
    [
      'importFile',
      (c) => c.media.importFile('https://x.test/y.png', { displayName: 'y', mediaType: 'IMAGE' }),
      'POST /site-media/v1/files/import',
      { url: 'https://x.test/y.png', displayName: 'y', mediaType: 'IMAGE' },
    ],
    [
      'bulkImportFiles',
      (c) => c.media.bulkImportFiles([{ url: 'https://x.test/1.png' }], { returnEntity: false }),
      'POST /site-media/v1/bulk/files/import',
      { importFileRequests: [{ url: 'https://x.test/1.png' }], returnEntity: false },
    ],
    [
      'bulkImportFile',
      (c) => c.media.bulkImportFile([{ url: 'https://x.test/1.png' }]),
      'POST /site-media/v1/bulk/files/import-v2',
      { importFileRequests: [{ url: 'https://x.test/1.png' }] },
    ],
    [
      'generateFilesDownloadUrl',
      (c) => c.media.generateFilesDownloadUrl(['f1', 'f2']),
      'POST /site-media/v1/files/generate-download-url',
      { fileIds: ['f1', 'f2'] },
    ],
    [
      'generateFileDownloadUrl',
      (c) =>
        c.media.generateFileDownloadUrl('f1', {
          downloadFileName: 'a.png',
          assetKeys: ['src'],
          contentDisposition: 'ATTACHMENT',
        }),
      'POST /site-media/v1/files/generate-file-download-url',
      { fileId: 'f1', downloadFileName: 'a.png', assetKeys: ['src'], contentDisposition: 'ATTACHMENT' },
    ],
    ['getFileDescriptor', (c) => c.media.getFileDescriptor('f1'), 'GET /site-media/v1/files/get-file-by-id?fileId=f1'],
    [
      'getFileDescriptors',
      (c) => c.media.getFileDescriptors(['f1', 'f2']),
      'POST /site-media/v1/files/get-files',
      { fileIds: ['f1', 'f2'] },
    ],
    [
      'updateFileDescriptor',
      (c) =>
        c.media.updateFileDescriptor(
          { _id: 'f1', displayName: 'n', labels: ['a'] },
          { fieldMask: ['displayName', 'labels'] as never },
        ),
      'PATCH /site-media/v1/files/update-file-descriptor',
      { file: { id: 'f1', displayName: 'n', labels: ['a'] }, fieldMask: 'displayName,labels' },
    ],
    [
      'listFiles',
      (c) =>
        c.media.listFiles({
          parentFolderId: 'media-root',
          mediaTypes: ['IMAGE', 'VIDEO'],
          sort: { fieldName: 'displayName', order: 'ASC' },
          paging: { limit: 5, cursor: 'c1' },
        }),
      'GET /site-media/v1/files?parentFolderId=media-root&mediaTypes=IMAGE&mediaTypes=VIDEO&sort.fieldName=displayName&sort.order=ASC&paging.limit=5&paging.cursor=c1',
    ],
    [
      'searchFiles',
      (c) =>
        c.media.searchFiles({ search: 'cat', rootFolder: 'MEDIA_ROOT', mediaTypes: ['IMAGE'], paging: { limit: 2 } }),
      'POST /site-media/v1/files/search',
      { search: 'cat', rootFolder: 'MEDIA_ROOT', mediaTypes: ['IMAGE'], paging: { limit: 2 } },
    ],
    [
      'generateVideoStreamingUrl',
      (c) => c.media.generateVideoStreamingUrl('v1', { format: 'HLS' }),
      'POST /site-media/v1/files/generate-video-stream-url',
      { fileId: 'v1', format: 'HLS' },
    ],
    [
      'bulkDeleteFiles',
      (c) => c.media.bulkDeleteFiles(['f1'], { permanent: true }),
      'POST /site-media/v1/bulk/files/delete',
      { fileIds: ['f1'], permanent: true },
    ],
    [
      'bulkRestoreFilesFromTrashBin',
      (c) => c.media.bulkRestoreFilesFromTrashBin(['f1']),
      'POST /site-media/v1/bulk/trash-bin/files/restore',
      { fileIds: ['f1'] },
    ],
    [
      'listDeletedFiles',
      (c) => c.media.listDeletedFiles({ mediaTypes: ['AUDIO'], paging: { limit: 5 } }),
      'GET /site-media/v1/trash-bin/files?mediaTypes=AUDIO&paging.limit=5',
    ],
  ];

  it.each(rows)('%s', async (id, call, line, body) => {
    let seen: { line: string; body: unknown; headers: Record<string, unknown> } | undefined;
    nock(BASE)
      .intercept(() => true, line.split(' ')[0]!)
      .reply(function (uri, b) {
        seen = { line: `${this.req.method} ${uri}`, body: b === '' ? undefined : b, headers: this.req.headers };
        // The answer has the field the method returns: a 2xx without it is an "unexpected response".
        return [200, { file: {} }];
      });
    await call(client());
    expect(seen!.line).toBe(line);
    expect(seen!.body).toEqual(body);
    expect(seen!.headers.authorization).toBe('k');
    expect(seen!.headers['x-wix-bi-gateway']).toContain(
      `method-fqn=wix.media.site_media.v1.FilesService.${id[0]!.toUpperCase()}${id.slice(1)}`,
    );
  });

  it('answers in public form: _id, Dates, wix:image:// references (single and lists)', async () => {
    nock(BASE).get('/site-media/v1/files/get-file-by-id').query({ fileId: 'f1' }).reply(200, { file: WIRE_FILE });
    expect(await client().media.getFileDescriptor('f1')).toEqual(PUBLIC_FILE);
    nock(BASE)
      .get('/site-media/v1/files')
      .reply(200, { files: [WIRE_FILE], nextCursor: { cursors: { next: 'n1' } } });
    expect(await client().media.listFiles()).toEqual({ files: [PUBLIC_FILE], nextCursor: { cursors: { next: 'n1' } } });
    nock(BASE).patch('/site-media/v1/files/update-file-descriptor').reply(200, { file: WIRE_FILE });
    const updated = await client().media.updateFileDescriptor({ _id: 'f1', displayName: 'cat.png' });
    expect(updated._createdDate).toBeInstanceOf(Date);
  });
});

describe('media.upload: simple path', () => {
  it('generate-upload-url (exact wire body), PUT of the bytes, descriptor in public form, progress 0 → 100%', async () => {
    const got = simpleUpload({
      mimeType: 'image/png',
      fileName: 'cat.png',
      sizeInBytes: '5',
      parentFolderId: 'folder-1',
      private: true,
      labels: ['pets'],
      filePath: '/pets/cats',
    });
    const progress: UploadProgress[] = [];
    const file = await client().media.upload(BYTES, {
      mimeType: 'image/png',
      fileName: 'cat.png',
      parentFolderId: 'folder-1',
      private: true,
      labels: ['pets'],
      filePath: '/pets/cats',
      onProgress: (p) => progress.push(p),
    });
    expect(file).toEqual(PUBLIC_FILE);
    const put = got();
    expect(put.url).toBe('/upload/abc?token=t1&filename=cat.png');
    expect(put.headers['content-type']).toBe('image/png');
    expect(put.headers.authorization).toBeUndefined(); // the upload URL is signed
    expect(put.body).toBe(hex(BYTES));
    // The bytes as they go out (the last one counted once the answer is in: `total` means done).
    expect(progress).toEqual([
      { loaded: 0, total: 5 },
      { loaded: 4, total: 5 },
      { loaded: 5, total: 5 },
    ]);
  });

  it('sends only the fields given, and encodes the file name in the query', async () => {
    const got = simpleUpload({ mimeType: 'text/plain', fileName: 'a b&c.txt', sizeInBytes: '5' });
    await client().media.upload(BYTES, { mimeType: 'text/plain', fileName: 'a b&c.txt' });
    expect(got().url).toBe('/upload/abc?token=t1&filename=a+b%26c.txt');
  });

  const inputs: [string, () => unknown][] = [
    ['Buffer', () => Buffer.from(BYTES)],
    ['ArrayBuffer', () => BYTES.slice().buffer],
    ['a view into a larger buffer', () => new Uint8Array([9, 9, ...BYTES, 9]).subarray(2, 7)],
    ['DataView', () => new DataView(BYTES.slice().buffer)],
    ['Blob', () => new Blob([BYTES])],
    [
      'web ReadableStream',
      () => new ReadableStream({ start: (c) => (c.enqueue(BYTES.slice(0, 2)), c.enqueue(BYTES.slice(2)), c.close()) }),
    ],
    ['Node Readable', () => Readable.from([Buffer.from(BYTES.slice(0, 3)), Buffer.from(BYTES.slice(3))])],
    [
      'async iterable',
      () =>
        (async function* () {
          yield BYTES.slice(0, 1);
          yield BYTES.slice(1);
        })(),
    ],
  ];
  it.each(inputs)('accepts %s', async (_name, make) => {
    const got = simpleUpload({ mimeType: 'image/png', fileName: 'cat.png', sizeInBytes: '5' });
    await client().media.upload(make() as Blob, { mimeType: 'image/png', fileName: 'cat.png' });
    expect(got().body).toBe(hex(BYTES));
  });

  it('takes mimeType and fileName from a File', async () => {
    const got = simpleUpload({ mimeType: 'image/png', fileName: 'kitty.png', sizeInBytes: '5' });
    await client().media.upload(new File([BYTES], 'kitty.png', { type: 'image/png' }));
    expect(got().url).toBe('/upload/abc?token=t1&filename=kitty.png');
  });

  it('accepts a relative upload URL (resolved against baseUrl)', async () => {
    nock(BASE).post('/site-media/v1/files/generate-upload-url').reply(200, { uploadUrl: '/_upload/u1' });
    nock(BASE).put('/_upload/u1').query({ filename: 'cat.png' }).reply(200, { file: WIRE_FILE });
    expect(await client().media.upload(BYTES, { mimeType: 'image/png', fileName: 'cat.png' })).toEqual(PUBLIC_FILE);
  });
});

describe('media.upload: resumable switch', () => {
  const resumableCall = () => {
    let body: unknown;
    nock(BASE)
      .post('/site-media/v1/files/generate-resumable-upload-url')
      .reply(
        (_uri, b) => ((body = b), [400, { message: 'stop here', details: { applicationError: { code: 'STOP' } } }]),
      );
    return () => body;
  };

  it('large files (> 10 MiB) ask for a resumable TUS URL', async () => {
    const body = resumableCall();
    const big = new Uint8Array(RESUMABLE_THRESHOLD + 1);
    await expect(
      client().media.upload(big, { mimeType: 'video/mp4', fileName: 'v.mp4', labels: ['l'] }),
    ).rejects.toMatchObject({ code: 'STOP' });
    expect(body()).toEqual({
      mimeType: 'video/mp4',
      fileName: 'v.mp4',
      sizeInBytes: String(RESUMABLE_THRESHOLD + 1),
      labels: ['l'],
      uploadProtocol: 'TUS',
    });
  });

  it('resumable: true forces TUS for a small file; resumable: false forces one PUT for a large one', async () => {
    const body = resumableCall();
    await expect(
      client().media.upload(BYTES, { mimeType: 'image/png', fileName: 'a.png', resumable: true }),
    ).rejects.toBeInstanceOf(ApplicationError);
    expect(body()).toMatchObject({ uploadProtocol: 'TUS', sizeInBytes: '5' });
    const got = simpleUpload({
      mimeType: 'video/mp4',
      fileName: 'v.mp4',
      sizeInBytes: String(RESUMABLE_THRESHOLD + 1),
    });
    await client().media.upload(new Uint8Array(RESUMABLE_THRESHOLD + 1).fill(0xff), {
      mimeType: 'video/mp4',
      fileName: 'v.mp4',
      resumable: false,
    });
    expect(got().body.length).toBe(2 * (RESUMABLE_THRESHOLD + 1)); // hex
  });

  it('a resumable URL without an upload token is a system error, before any upload', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-resumable-upload-url')
      .reply(200, { uploadUrl: `${UPLOAD}/tus` });
    const e = await client()
      .media.upload(BYTES, { mimeType: 'image/png', fileName: 'a.png', resumable: true })
      .catch((x) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect(e.code).toBe('SYSTEM_ERROR');
  });
});

describe('media.upload: errors', () => {
  const up = () => client().media.upload(BYTES, { mimeType: 'image/png', fileName: 'cat.png' });

  it('a failed generate-upload-url call keeps its typed error; nothing is uploaded', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-upload-url')
      .reply(400, {
        message: 'bad',
        details: { validationError: { fieldViolations: [{ field: 'mimeType', description: 'unsupported' }] } },
      });
    const e = await up().catch((x) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.violations).toEqual([{ field: 'mimeType', description: 'unsupported' }]);
  });

  it('PUT 5xx → HttpError SYSTEM_ERROR with the request id', async () => {
    simpleUpload({ mimeType: 'image/png', fileName: 'cat.png', sizeInBytes: '5' }, [
      503,
      '<html>down</html>',
      { 'x-wix-request-id': 'req-7' },
    ]);
    const e = await up().catch((x) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect(e).toMatchObject({ code: 'SYSTEM_ERROR', status: 503, requestId: 'req-7' });
  });

  it('PUT 4xx with an application error → ApplicationError with its code', async () => {
    simpleUpload({ mimeType: 'image/png', fileName: 'cat.png', sizeInBytes: '5' }, [
      403,
      {
        message: 'token expired',
        details: { applicationError: { code: 'UPLOAD_TOKEN_EXPIRED', description: 'expired' } },
      },
    ]);
    const e = await up().catch((x) => x);
    expect(e).toBeInstanceOf(ApplicationError);
    expect(e).toMatchObject({ code: 'UPLOAD_TOKEN_EXPIRED', status: 403 });
  });

  it('PUT 2xx without a descriptor → HttpError SYSTEM_ERROR', async () => {
    simpleUpload({ mimeType: 'image/png', fileName: 'cat.png', sizeInBytes: '5' }, [200, 'OK']);
    await expect(up()).rejects.toMatchObject({
      name: 'HttpError',
      code: 'SYSTEM_ERROR',
      message: expect.stringContaining('has no file descriptor'),
    });
  });

  it('generate-upload-url without an uploadUrl → HttpError SYSTEM_ERROR, no PUT to /undefined', async () => {
    nock(BASE).post('/site-media/v1/files/generate-upload-url').reply(200, {});
    await expect(up()).rejects.toMatchObject({
      name: 'HttpError',
      code: 'SYSTEM_ERROR',
      message: expect.stringContaining('has no upload URL'),
    });
  });

  it('generate-upload-url with an uploadUrl that is no URL → HttpError SYSTEM_ERROR, not a bare TypeError', async () => {
    nock(BASE).post('/site-media/v1/files/generate-upload-url').reply(200, { uploadUrl: 'http://[not-a-host/upload' });
    await expect(up()).rejects.toMatchObject({
      name: 'HttpError',
      code: 'SYSTEM_ERROR',
      message: expect.stringContaining('has no valid upload URL'),
    });
  });

  it('generate-resumable-upload-url with an uploadUrl that is no URL → HttpError SYSTEM_ERROR', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-resumable-upload-url')
      .reply(200, { uploadUrl: 'http://[not-a-host/files', uploadToken: 't' });
    await expect(
      client().media.upload(BYTES, { mimeType: 'image/png', fileName: 'cat.png', resumable: true }),
    ).rejects.toMatchObject({
      name: 'HttpError',
      code: 'SYSTEM_ERROR',
      message: expect.stringContaining('valid uploadUrl'),
    });
  });

  it('a dropped connection on the PUT → NetworkError', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-upload-url')
      .reply(200, { uploadUrl: `${UPLOAD}/upload/abc` });
    nock(UPLOAD).put('/upload/abc').query(true).replyWithError('socket hang up');
    const e = await up().catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toContain('socket hang up');
  });
});

describe('media.upload: abort and time limit', () => {
  it('an already aborted signal rejects with AbortedError and sends nothing', async () => {
    const scope = nock(BASE).post('/site-media/v1/files/generate-upload-url').reply(200, {});
    const e = await client()
      .media.upload(BYTES, { mimeType: 'image/png', fileName: 'a.png', signal: AbortSignal.abort() })
      .catch((x) => x);
    expect(e).toBeInstanceOf(AbortedError);
    expect(scope.isDone()).toBe(false);
  });

  it('aborting during the PUT rejects with AbortedError', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-upload-url')
      .reply(200, { uploadUrl: `${UPLOAD}/upload/abc` });
    nock(UPLOAD).put('/upload/abc').query(true).delay(2000).reply(200, { file: WIRE_FILE });
    const controller = new AbortController();
    const progress: UploadProgress[] = [];
    const pending = client().media.upload(BYTES, {
      mimeType: 'image/png',
      fileName: 'a.png',
      signal: controller.signal,
      onProgress: (p) => progress.push(p),
    });
    setTimeout(() => controller.abort(), 50);
    const e = await pending.catch((x) => x);
    expect(e).toBeInstanceOf(AbortedError);
    // The bytes went out; the upload never reported itself done.
    expect(progress.at(-1)!.loaded).toBeLessThan(5);
  });

  it('timeoutMs covers the whole upload → TimeoutError', async () => {
    nock(BASE)
      .post('/site-media/v1/files/generate-upload-url')
      .reply(200, { uploadUrl: `${UPLOAD}/upload/abc` });
    nock(UPLOAD).put('/upload/abc').query(true).delay(2000).reply(200, { file: WIRE_FILE });
    const e = await client()
      .media.upload(BYTES, { mimeType: 'image/png', fileName: 'a.png', timeoutMs: 50 })
      .catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.timeoutMs).toBe(50);
  });
});

describe('media.upload: bad input → RequestError before any request', () => {
  const cases: [string, unknown, unknown, string][] = [
    ['no mimeType', BYTES, { fileName: 'a.png' }, 'mimeType'],
    ['empty mimeType', BYTES, { mimeType: '', fileName: 'a.png' }, 'mimeType'],
    ['no options at all', BYTES, undefined, 'mimeType'],
    ['no fileName', BYTES, { mimeType: 'image/png' }, 'fileName'],
    ['a Blob without a type and no mimeType', new Blob([BYTES]), { fileName: 'a.png' }, 'mimeType'],
    ['non-function onProgress', BYTES, { mimeType: 'image/png', fileName: 'a.png', onProgress: 'yes' }, 'onProgress'],
    ['empty bytes', new Uint8Array(0), { mimeType: 'image/png', fileName: 'a.png' }, 'data'],
    ['empty Blob', new Blob([]), { mimeType: 'image/png', fileName: 'a.png' }, 'data'],
    ['empty stream', Readable.from([]), { mimeType: 'image/png', fileName: 'a.png' }, 'data'],
    ['a string', 'hello', { mimeType: 'text/plain', fileName: 'a.txt' }, 'data'],
    ['a number', 42, { mimeType: 'text/plain', fileName: 'a.txt' }, 'data'],
    ['a plain object', { bytes: [1, 2] }, { mimeType: 'text/plain', fileName: 'a.txt' }, 'data'],
    ['null', null, { mimeType: 'text/plain', fileName: 'a.txt' }, 'data'],
  ];
  it.each(cases)('%s', async (_name, data, options, field) => {
    const scope = nock(BASE)
      .persist()
      .intercept(() => true, 'POST')
      .reply(200, {});
    const e = await client()
      .media.upload(data as Blob, options as never)
      .catch((x) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect(e.field).toBe(field);
    expect(e.message).toContain(`upload: ${field}`);
    expect(scope.isDone()).toBe(false);
  });

  it('a stream that fails while being read → RequestError with the cause', async () => {
    const failing = (async function* () {
      yield BYTES;
      throw new Error('disk gone');
    })();
    const e = await client()
      .media.upload(failing, { mimeType: 'image/png', fileName: 'a.png' })
      .catch((x) => x);
    expect(e).toBeInstanceOf(RequestError);
    expect(e.cause).toMatchObject({ message: 'disk gone' });
  });
});

describe('bundle: tus-js-client stays out of the main bundle', () => {
  const root = path.resolve(__dirname, '../../..');
  const TUS_MARKERS = ['Tus-Resumable', 'Upload-Metadata', 'tus: '];

  /** The output files loaded eagerly by `entryPoint`. */
  function staticallyReached(meta: Metafile, files: OutputFile[], entryPoint: string): OutputFile[] {
    const eager = eagerOutputs(meta, entryPoint);
    return files.filter((f) => eager.has(path.relative(root, f.path)));
  }

  it('the whole SDK (src/index.ts): tus code only in a chunk loaded by import()', async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: ['src/index.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      minify: true,
      write: false,
      metafile: true,
      outdir: 'out',
      external: ['openapi-fetch', 'jose'],
    });
    const main = staticallyReached(result.metafile, result.outputFiles, 'src/index.ts');
    const mainText = main.map((f) => f.text).join('\n');
    for (const marker of TUS_MARKERS) expect(mainText).not.toContain(marker);
    const lazy = result.outputFiles
      .filter((f) => !main.includes(f))
      .map((f) => f.text)
      .join('\n');
    for (const marker of TUS_MARKERS) expect(lazy).toContain(marker);
    // The main bundle loads the upload feature on first use; the feature's chunk loads
    // tus-js-client only when a resumable upload starts, so the TUS protocol is in neither.
    expect(mainText).toMatch(/import\("\.\/upload-[\w-]+\.js"\)/);
    const uploadChunk = result.outputFiles.find((f) => /\/upload-[\w-]+\.js$/.test(f.path))!;
    for (const marker of TUS_MARKERS) expect(uploadChunk.text).not.toContain(marker);
    expect(uploadChunk.text).toMatch(/import\("\.\/[\w-]+\.js"\)/);
  });
});
