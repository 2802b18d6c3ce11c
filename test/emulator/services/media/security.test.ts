/**
 * Security (issue 18), media: user files never run script on the emulator's origin (finding 3),
 * imports never reach the emulator or private addresses unless allowed (finding 4), an expired
 * download URL redirects only to http(s) (finding 10), an upload URL creates one file (finding 17).
 * Raw HTTP on purpose: these are the requests an attacker sends, not what the SDK would.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importsSettled } from '../../../../emulator/services/media/imports.js';
import { addressProblem, fetchImportSource } from '../../../../emulator/services/media/import-fetch.js';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';

let emulator: TestEmulator;
let visitorToken: string;
beforeAll(async () => {
  emulator = await startEmulator();
  const token = await call('/oauth2/token', { clientId: emulator.info.clientId, grantType: 'anonymous' }, '');
  visitorToken = token.body.access_token as string;
});
afterAll(() => emulator?.close());

/** A JSON POST as the API key (or the given credential); answers the status and the parsed body. */
async function call(
  path: string,
  body: unknown,
  authorization = emulator.info.apiKey,
): Promise<{ status: number; body: Record<string, any> }> {
  const response = await emulator.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const setConfig = (config: Record<string, unknown>) =>
  emulator.fetch('/_emulator/config', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config }),
  });

/** Uploads `content` as a visitor (the attacker) through a generated upload URL; answers the file descriptor. */
async function visitorUpload(content: string, mimeType: string, fileName: string): Promise<Record<string, any>> {
  const { body } = await call('/site-media/v1/files/generate-upload-url', { mimeType, fileName }, visitorToken);
  const response = await fetch(`${body.uploadUrl}?filename=${encodeURIComponent(fileName)}`, {
    method: 'PUT',
    headers: { 'content-type': mimeType },
    body: content,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { file: Record<string, any> }).file;
}

const ACTIVE = [
  ['page.html', 'text/html', '<script>fetch("/_emulator/info")</script>'],
  ['image.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
  [
    'page.xhtml',
    'application/xhtml+xml',
    '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>',
  ],
  ['data.xml', 'text/xml', '<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'],
  ['upper.html', 'TEXT/HTML; charset=utf-8', '<script>alert(1)</script>'],
] as const;

describe('user files (finding 3: stored XSS)', () => {
  it('serves active types as sandboxed, unsniffed attachments, inline or not', async () => {
    for (const [name, mimeType, content] of ACTIVE) {
      const file = await visitorUpload(content, mimeType, name);
      const publicAnswer = await fetch(`${emulator.url}/_media/files/${file.id}`);
      const { body } = await call('/site-media/v1/files/generate-file-download-url', {
        fileId: file.id,
        contentDisposition: 'INLINE',
      });
      const signedAnswer = await fetch(body.downloadUrls[0].url);
      for (const answer of [publicAnswer, signedAnswer]) {
        expect(answer.status, name).toBe(200);
        expect(answer.headers.get('x-content-type-options'), name).toBe('nosniff');
        expect(answer.headers.get('content-security-policy'), name).toMatch(/(^|; )sandbox(;|$)/);
        expect(answer.headers.get('content-security-policy'), name).toContain("default-src 'none'");
        expect(answer.headers.get('content-disposition'), name).toMatch(/^attachment;/);
      }
    }
  });

  it('keeps passive types inline, still unsniffed and sandboxed', async () => {
    const file = await visitorUpload('plain words', 'text/plain', 'words.txt');
    const answer = await fetch(`${emulator.url}/_media/files/${file.id}`);
    expect(answer.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toContain('sandbox');
  });
});

describe('a stored type a header cannot carry (robust reads)', () => {
  it('serves the file as bytes, as an attachment, instead of a 500 at every read', async () => {
    const file = await visitorUpload('plain', 'text/plain', 'broken.txt');
    emulator.context.store.run("UPDATE media_files SET data = json_set(data, '$.mimeType', ?) WHERE id = ?", [
      'text/html\r\nX-Injected: 1',
      file.id,
    ]);
    const answer = await fetch(`${emulator.url}/_media/files/${file.id}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(answer.headers.get('x-injected')).toBeNull();
  });
});

describe('imports (finding 4: SSRF)', () => {
  let source: Server;
  let sourceUrl: string;
  beforeAll(async () => {
    source = createServer((request, response) => {
      // A public-looking source that sends the importer on to the emulator's control API.
      if (request.url == '/to-emulator')
        return void response.writeHead(302, { location: `${emulator.url}/_emulator/export` }).end();
      response.writeHead(200, { 'content-type': 'text/plain' }).end('fixture');
    });
    source.listen(0, '127.0.0.1');
    await once(source, 'listening');
    sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
  });
  afterAll(() => source?.close());

  const importAs = (url: string, authorization?: string) =>
    call('/site-media/v1/files/import', { url, displayName: 'probe' }, authorization ?? visitorToken);

  it('refuses the emulator itself and loopback addresses, naming the setting', async () => {
    const { port } = new URL(emulator.url);
    for (const url of [
      `${emulator.url}/_emulator/info`,
      `http://localhost:${port}/_emulator/export`,
      `http://[::1]:${port}/_emulator/info`,
      `http://[::ffff:127.0.0.1]:${port}/_emulator/info`,
      `http://0.0.0.0:${port}/_emulator/info`,
      `http://2130706433:${port}/_emulator/info`,
      `${sourceUrl}/fixture.txt`,
      'http://10.1.2.3/internal',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const refused = await importAs(url);
      expect(refused.status, url).toBe(400);
      expect(JSON.stringify(refused.body), url).toMatch(/importsFromPrivateAddresses|emulator itself/);
    }
  });

  it('refuses other spellings of this machine: octal, a trailing dot (resolved by DNS, refused at the connection)', async () => {
    const { port } = new URL(emulator.url);
    const octal = await importAs(`http://0177.0.0.1:${port}/_emulator/info`);
    expect(octal.status).toBe(400);
    const answers = await Promise.all(
      [`http://localhost.:${port}/_emulator/info`, `http://LOCALHOST.:${port}/_emulator/export`].map((url) =>
        importAs(url),
      ),
    );
    await importsSettled(emulator.context);
    for (const answer of answers) {
      if (answer.status == 400) continue;
      const response = await emulator.fetch(`/site-media/v1/files/get-file-by-id?fileId=${answer.body.file.id}`, {
        headers: { authorization: emulator.info.apiKey },
      });
      expect(((await response.json()) as { file: { operationStatus: string } }).file.operationStatus).toBe('FAILED');
    }
  });

  it('with the setting on, imports a local fixture but never the emulator, not even through a redirect', async () => {
    await setConfig({ importsFromPrivateAddresses: true });
    try {
      const fixture = await importAs(`${sourceUrl}/fixture.txt`);
      expect(fixture.status).toBe(200);
      const direct = await importAs(`${emulator.url}/_emulator/info`);
      expect(direct.status).toBe(400);
      expect(JSON.stringify(direct.body)).toContain('emulator itself');

      const redirected = await importAs(`${sourceUrl}/to-emulator`);
      expect(redirected.status).toBe(200);
      await importsSettled(emulator.context);
      const states = await Promise.all(
        [fixture, redirected].map(async ({ body }) => {
          const response = await emulator.fetch(`/site-media/v1/files/get-file-by-id?fileId=${body.file.id}`, {
            headers: { authorization: emulator.info.apiKey },
          });
          return ((await response.json()) as { file: { operationStatus: string } }).file.operationStatus;
        }),
      );
      expect(states).toEqual(['READY', 'FAILED']);
    } finally {
      await setConfig({ importsFromPrivateAddresses: false });
    }
  });

  it('judges the address connected to: mapped, NAT64 and 6to4 forms of loopback, this machine on the emulator port', () => {
    const closed = { privateAddressesAllowed: false, emulatorPort: 4700 };
    const open = { privateAddressesAllowed: true, emulatorPort: 4700 };
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '10.0.0.1',
      // 172.16.0.0/12: 172.16 to 172.31.
      '172.16.0.1',
      '172.20.1.1',
      '172.31.255.255',
      'fd00::1',
      'fe80::1',
    ])
      expect(addressProblem(address, 80, closed), address).toContain('importsFromPrivateAddresses');
    for (const address of ['93.184.215.14', '172.15.255.255', '172.32.0.1'])
      expect(addressProblem(address, 80, closed), address).toBeUndefined();
    expect(addressProblem('2606:2800:21f:cb07:6820:80da:af6b:8b2c', 443, closed)).toBeUndefined();
    expect(addressProblem('127.0.0.1', 8080, open)).toBeUndefined();
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '0.0.0.0'])
      expect(addressProblem(address, 4700, open), address).toContain('emulator itself');
  });
});

describe("an import's own headers (urlHeaders)", () => {
  it('go to the first origin and its same-origin redirects, never to a redirect target on another origin', async () => {
    /** Servers that record the authorization header of each request, by path. */
    const seen = new Map<string, string | undefined>();
    const serve = async (route: (path: string) => string | undefined): Promise<Server> => {
      const server = createServer((request, response) => {
        seen.set(`${server === first ? 'first' : 'other'}${request.url}`, request.headers.authorization);
        const location = route(request.url!);
        response.writeHead(location ? 302 : 200, location ? { location } : {}).end('ok');
      });
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      return server;
    };
    const portOf = (server: Server) => (server.address() as AddressInfo).port;
    const other: Server = await serve(() => undefined);
    const first: Server = await serve((path) =>
      path == '/away' ? `http://127.0.0.1:${portOf(other)}/landing` : path == '/stay' ? '/landing' : undefined,
    );
    const reach = { privateAddressesAllowed: true, emulatorPort: Number(new URL(emulator.url).port) };
    try {
      for (const path of ['/away', '/stay']) {
        const url = new URL(`http://127.0.0.1:${portOf(first)}${path}`);
        const response = await fetchImportSource(
          url,
          { authorization: 'Bearer source-secret' },
          reach,
          AbortSignal.timeout(10_000),
        );
        response.resume();
      }
      expect(Object.fromEntries(seen)).toEqual({
        'first/away': 'Bearer source-secret',
        'other/landing': undefined,
        'first/stay': 'Bearer source-secret',
        'first/landing': 'Bearer source-secret',
      });
    } finally {
      for (const server of [first, other]) server.close();
    }
  });
});

describe('download URLs (finding 10)', () => {
  it('refuses an expirationRedirectUrl that is not http(s) or carries control characters', async () => {
    const file = await visitorUpload('x', 'text/plain', 'x.txt');
    for (const target of [
      'javascript:alert(document.domain)',
      'data:text/html,<script>1</script>',
      'https://ok.example/\r\nSet-Cookie: a=b',
      '/relative',
    ]) {
      const refused = await call('/site-media/v1/files/generate-file-download-url', {
        fileId: file.id,
        expirationRedirectUrl: target,
      });
      expect(refused.status, target).toBe(400);
      expect(refused.body.details.validationError.fieldViolations[0].field).toBe('expirationRedirectUrl');
    }
    const { body } = await call('/site-media/v1/files/generate-file-download-url', {
      fileId: file.id,
      expirationInMinutes: 1,
      expirationRedirectUrl: 'https://ok.example/expired',
    });
    await emulator.fetch('/_emulator/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 120 }),
    });
    try {
      const expired = await fetch(body.downloadUrls[0].url, { redirect: 'manual' });
      expect(expired.status).toBe(302);
      expect(expired.headers.get('location')).toBe('https://ok.example/expired');
    } finally {
      await emulator.fetch('/_emulator/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reset: true }),
      });
    }
  });
});

describe('download URLs: who may choose where an expired one goes (issue 31, item 7)', () => {
  it("refuses a visitor's expirationRedirectUrl; a visitor's download URL without one still works", async () => {
    const file = await visitorUpload('x', 'text/plain', 'x.txt');
    const refused = await call(
      '/site-media/v1/files/generate-file-download-url',
      { fileId: file.id, expirationRedirectUrl: 'https://evil.example/phish' },
      visitorToken,
    );
    expect(refused.status).toBe(403);
    expect(refused.body.details.applicationError.code).toBe('PERMISSION_DENIED');
    const plain = await call('/site-media/v1/files/generate-file-download-url', { fileId: file.id }, visitorToken);
    expect(plain.status).toBe(200);
    expect(plain.body.downloadUrls[0].url).not.toContain('evil.example');
  });
});

describe('upload URLs (finding 17)', () => {
  it('creates one file from concurrent PUTs to one single-use URL', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const { body } = await call('/site-media/v1/files/generate-upload-url', { mimeType: 'text/plain' }, visitorToken);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, index) =>
          fetch(`${body.uploadUrl}?filename=race-${trial}-${index}.txt`, {
            method: 'PUT',
            headers: { 'content-type': 'text/plain' },
            body: 'x'.repeat(64 * 1024),
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      expect(
        statuses.filter((status) => status == 200),
        `trial ${trial}: ${statuses}`,
      ).toHaveLength(1);
      expect(statuses.filter((status) => status == 403)).toHaveLength(7);
    }
  });

  it('stays usable after a failed upload (too large), then works once', async () => {
    await setConfig({ maxUploadBytes: 10 });
    const { body } = await call('/site-media/v1/files/generate-upload-url', { mimeType: 'text/plain' }, visitorToken);
    try {
      // Chunked, so the size is only known while reading.
      const tooLarge = await fetch(body.uploadUrl, {
        method: 'PUT',
        body: new Blob(['x'.repeat(100)]).stream(),
        duplex: 'half',
      } as RequestInit);
      expect(tooLarge.status).toBe(413);
    } finally {
      await setConfig({ maxUploadBytes: 50 * 1024 * 1024 });
    }
    expect((await fetch(body.uploadUrl, { method: 'PUT', body: 'small' })).status).toBe(200);
    expect((await fetch(body.uploadUrl, { method: 'PUT', body: 'again' })).status).toBe(403);
  });
});
