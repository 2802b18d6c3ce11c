/**
 * What `sitekit-sdk pull --media` trusts of a remote site's download links (issue 31, item 4): a
 * remote may point a download anywhere and stream any amount. The download goes to public
 * addresses only unless `--allow-private`, and is streamed to disk within the size the file's
 * descriptor says. The remote is an in-process emulator whose fault rules answer the download-URL
 * call with the links a hostile site would give.
 */
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { CommandIo } from '../../cli/command-io.js';
import { runCommand } from '../../cli/commands.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let remote: TestEmulator;
let local: TestEmulator;
let endless: Server;
let endlessUrl: string;
/** `/small`: three bytes; `/huge`: says it has 5 GiB, sends three bytes and hangs up. */
let sizes: Server;
let sizesUrl: string;
let dir: string;

beforeAll(async () => {
  [remote, local] = await Promise.all([startEmulator(), startEmulator()]);
  dir = mkdtempSync(join(tmpdir(), 'sitekit-pull-trust-'));
  // A download that never ends: 64 KiB chunks for as long as the client reads.
  endless = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    const chunk = Buffer.alloc(64 * 1024, 1);
    const write = () => {
      while (response.write(chunk)) if (request.destroyed) return;
    };
    response.on('drain', write);
    write();
  });
  endless.listen(0, '127.0.0.1');
  await once(endless, 'listening');
  endlessUrl = `http://127.0.0.1:${(endless.address() as AddressInfo).port}/file`;
  sizes = createServer((request, response) => {
    if (request.url == '/small') return response.writeHead(200, { 'content-length': '3' }).end('abc');
    response.writeHead(200, { 'content-length': String(5 * 1024 ** 3) });
    response.write('abc', () => response.destroy());
  });
  sizes.listen(0, '127.0.0.1');
  await once(sizes, 'listening');
  sizesUrl = `http://127.0.0.1:${(sizes.address() as AddressInfo).port}`;
}, 60_000);
afterEach(() => remote.faults.clear());
afterAll(async () => {
  endless?.closeAllConnections();
  endless?.close();
  sizes?.closeAllConnections();
  sizes?.close();
  await Promise.all([remote?.close(), local?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `pull --media` against the remote; its exit code and output. */
async function pullMedia(out: string, ...extra: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
  const site = ['--url', remote.url, '--api-key', remote.info.apiKey, '--site-id', remote.info.siteId];
  const code = await runCommand(['pull', ...site, '--out', out, '--no-members', '--media', ...extra], io).catch(
    (error: Error) => {
      stderr += error.message;
      return 1;
    },
  );
  return { code, stderr };
}

/** Makes the remote answer every download-URL request with `url`. */
const pointDownloadsAt = (url: string) =>
  remote.faults.add({
    operation: 'generateFileDownloadUrl',
    status: 200,
    body: { downloadUrls: [{ url, assetKey: 'src' }] },
  });

it("refuses a download the remote points at this machine (the local emulator's export), unless --allow-private", async () => {
  await pointDownloadsAt(`${local.url}/_emulator/export`);
  const out = join(dir, 'export.json');
  const refused = await pullMedia(out);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/loopback or private address; pass --allow-private/);
  const saved = existsSync(`${out}.media`) ? readdirSync(`${out}.media`) : [];
  expect(saved).toEqual([]);
});

it('streams a download to disk and stops at the size its descriptor says: an endless one is not saved', async () => {
  await pointDownloadsAt(endlessUrl);
  const out = join(dir, 'endless.json');
  const stopped = await pullMedia(out, '--allow-private');
  expect(stopped.code).toBe(1);
  // The bound is the size the file's descriptor says, not the 4 GiB of a file without one.
  const bound = Number(/is longer than (\d+) bytes: not saved/.exec(stopped.stderr)?.[1]);
  const { files } = await remote.admin.media.listFiles();
  expect(files?.map((file) => Number(file.sizeInBytes))).toContain(bound);
  expect(readdirSync(`${out}.media`)).toEqual([]);
});

/** Makes the remote's media search answer with one file descriptor: `file` over a small document's fields. */
const listOneFile = (file: Record<string, unknown>) =>
  remote.faults.add({
    operation: 'searchFiles',
    status: 200,
    body: {
      files: [{ displayName: 'a.txt', mediaType: 'DOCUMENT', createdDate: '2024-01-01T00:00:00.000Z', ...file }],
    },
  });

it('saves a file under its ID as one name in the media folder, whatever the ID holds: never outside it', async () => {
  await listOneFile({ id: '../outside', sizeInBytes: '3' });
  await pointDownloadsAt(`${sizesUrl}/small`);
  const out = join(dir, 'traversal.json');
  const pulled = await pullMedia(out, '--allow-private');
  expect(pulled.code, pulled.stderr).toBe(0);
  expect(readdirSync(`${out}.media`)).toEqual(['..%2Foutside']);
  expect(existsSync(join(dir, 'outside'))).toBe(false);
});

it("holds a download to 4 GiB whatever the site's descriptor says: a larger one is refused from its length", async () => {
  await listOneFile({ id: 'huge', sizeInBytes: String(2 ** 50) });
  await pointDownloadsAt(`${sizesUrl}/huge`);
  const out = join(dir, 'huge.json');
  const refused = await pullMedia(out, '--allow-private');
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`media file huge is ${5 * 1024 ** 3} bytes, more than ${4 * 1024 ** 3}: not saved`);
  expect(readdirSync(`${out}.media`)).toEqual([]);
});

it("a file whose descriptor says 0 bytes is downloaded as it is (0 is not taken as the file's size)", async () => {
  await listOneFile({ id: 'zero', sizeInBytes: '0' });
  await pointDownloadsAt(`${sizesUrl}/small`);
  const out = join(dir, 'zero.json');
  const pulled = await pullMedia(out, '--allow-private');
  expect(pulled.code, pulled.stderr).toBe(0);
  expect(readdirSync(`${out}.media`)).toEqual(['zero']);
});

it.each([{}, { downloadUrls: [] }])(
  'a download-URL answer without a URL (%j) fails the pull naming the file',
  async (body) => {
    await listOneFile({ id: 'nowhere', sizeInBytes: '3' });
    await remote.faults.add({ operation: 'generateFileDownloadUrl', status: 200, body });
    const failed = await pullMedia(join(dir, 'nowhere.json'), '--allow-private');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('the site gave no download URL for media file nowhere');
  },
);

it.each([300, 403])(
  'a media search answered %i (not a success) fails the pull, naming its status and code',
  async (status) => {
    // A 3xx is past what a fault rule answers: the site's fetch gives it.
    const answering: typeof fetch = async (input, init) =>
      String(input instanceof Request ? input.url : input).includes('/site-media/')
        ? new Response(JSON.stringify({ code: 'ELSEWHERE', message: 'not here' }), {
            status,
            headers: { 'content-type': 'application/json' },
          })
        : fetch(input, init);
    let stderr = '';
    const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {}, fetch: answering };
    const site = ['--url', remote.url, '--api-key', remote.info.apiKey, '--site-id', remote.info.siteId];
    const out = join(dir, `search-${status}.json`);
    expect(await runCommand(['pull', ...site, '--out', out, '--no-members'], io)).toBe(1);
    expect(stderr).toContain(`searching the media files answered ${status} (`);
  },
);

it('a site that says it has more items or members but sends none does not keep the pull going', async () => {
  const emptyPage = { pagingMetadata: { count: 0, offset: 0, total: 1000 } };
  await remote.faults.add({ operation: 'queryDataItems', status: 200, body: { dataItems: [], ...emptyPage } });
  await remote.faults.add({ operation: 'queryMembers', status: 200, body: { members: [], ...emptyPage } });
  const out = join(dir, 'empty-pages.json');
  let stderr = '';
  const io: CommandIo = { stdout: () => {}, stderr: (text) => void (stderr += text), env: {} };
  const site = ['--url', remote.url, '--api-key', remote.info.apiKey, '--site-id', remote.info.siteId];
  expect(await runCommand(['pull', ...site, '--out', out], io), stderr).toBe(0);
  expect(stderr).toContain(', 0 items, 0 references, 0 members (anonymized), ');
});

it.each([{ nextCursor: { cursors: { next: 'more' } } }, { nextCursor: {} }])(
  'a media search answered %j (no files) ends the media descriptors with none',
  async (body) => {
    await remote.faults.add({ operation: 'searchFiles', status: 200, body });
    const out = join(dir, 'no-files.json');
    const pulled = await pullMedia(out);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stderr).toContain('\n  media: 0 file descriptors\n');
  },
);
