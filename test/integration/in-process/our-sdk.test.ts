/**
 * Our SDK against `createEmulator()` through `emulator.fetch`, with every socket of the process
 * forbidden: API key, visitor and member sign-in (the hosted page's redirect read, not followed),
 * simple and resumable (TUS) uploads of several MB, downloads, the control API and the test bench.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../../emulator/index.js';
import {
  ApiKeyStrategy,
  OAuthStrategy,
  createClient,
  isNetworkError,
  type ApiKeyAuth,
  type Client,
  type OAuthAuth,
} from '../../../src/index.js';
import { forbidSockets, SocketForbiddenError } from '../../helpers/no-sockets.js';

forbidSockets();

let emulator: InProcessEmulator;
let admin: Client<ApiKeyAuth>;
/** A client with the API key, through `emulator.fetch`. */
const apiKeyClient = (retry?: false | { baseDelayMs: number }): Client<ApiKeyAuth> =>
  createClient({
    baseUrl: emulator.info.url,
    fetch: emulator.fetch,
    auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
    ...(retry === undefined ? {} : { retry }),
  });
const newVisitor = (): Client<OAuthAuth> =>
  createClient({
    baseUrl: emulator.info.url,
    fetch: emulator.fetch,
    auth: OAuthStrategy({ clientId: emulator.info.clientId }),
  });

beforeAll(async () => {
  emulator = await createEmulator();
  admin = apiKeyClient();
});
afterAll(() => emulator?.close());

/** Bytes that differ from one offset to the next, so a lost or repeated chunk shows. */
const patterned = (size: number) => Uint8Array.from({ length: size }, (_, index) => (index * 31 + (index >> 12)) & 255);
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('the in-process emulator, sockets forbidden', () => {
  it('is really without sockets: the global fetch to a port fails, the emulator has an origin no server has', async () => {
    const error = await fetch('http://127.0.0.1:4700/').catch((caught: unknown) => caught);
    expect((error as Error).cause).toBeInstanceOf(SocketForbiddenError);
    expect(emulator.info.url).toMatch(/^http:\/\/sitekit-emulator(-\d+)?\.localhost$/);
    expect(emulator.url).toBe(emulator.info.url);
  });

  it('API key: collections and items, written and read back', async () => {
    await admin.collections.createDataCollection({
      _id: 'Notes',
      fields: [{ key: 'title', type: 'TEXT' }],
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    const inserted = await admin.items.insert('Notes', { title: 'in-process' });
    expect(await admin.items.get('Notes', inserted._id!)).toMatchObject({ _id: inserted._id, title: 'in-process' });
    const page = await admin.items.query('Notes').eq('title', 'in-process').find();
    expect(page.items.map((item) => item._id)).toEqual([inserted._id]);
  });

  it('visitor: anonymous tokens, then public reads; writes refused as on the platform', async () => {
    const visitor = newVisitor();
    const page = await visitor.items.query('Notes').find();
    expect(page.items.length).toBeGreaterThan(0);
    expect(visitor.auth.getTokens().accessToken?.value).toBeTruthy();
    await expect(visitor.items.insert('Notes', { title: 'no' })).rejects.toMatchObject({ status: 403 });
  });

  it('member: register, member tokens through the hosted page (redirect read), current member, logout page', async () => {
    const visitor = newVisitor();
    const email = `in-process-${Date.now()}@example.test`;
    const registered = await visitor.auth.register({
      email,
      password: 'a long passphrase',
      profile: { nickname: 'Ip' },
    });
    expect(registered.loginState).toBe('SUCCESS');
    if (registered.loginState !== 'SUCCESS') return;
    await visitor.auth.getMemberTokensForDirectLogin(registered.data.sessionToken, {
      redirectUri: 'http://localhost:5999/callback',
    });
    const me = (await visitor.members.getCurrentMember({ fieldsets: ['FULL'] })).member!;
    expect(me.loginEmail).toBe(email);

    const { logoutUrl } = await visitor.auth.logout('http://localhost:5999/bye');
    expect(new URL(logoutUrl).origin).toBe(emulator.info.url);
    const page = await emulator.fetch(logoutUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('http://localhost:5999/bye');
  });

  it('a simple upload (PUT) of 6 MB: the file URL is the emulator origin and serves the same bytes', async () => {
    const bytes = patterned(6 * 1024 * 1024);
    const file = await admin.media.upload(bytes, {
      fileName: 'simple.bin',
      mimeType: 'application/octet-stream',
      resumable: false,
    });
    expect(new URL(file.url!).origin).toBe(emulator.info.url);
    const download = await emulator.fetch(file.url!);
    expect(download.status).toBe(200);
    expect(md5(new Uint8Array(await download.arrayBuffer()))).toBe(md5(bytes));
  });

  it('a resumable upload (TUS) of 11 MB goes through the client fetch, chunk by chunk', async () => {
    const bytes = patterned(11 * 1024 * 1024);
    const reports: number[] = [];
    const file = await admin.media.upload(new Blob([bytes], { type: 'application/octet-stream' }), {
      fileName: 'resumable.bin',
      resumable: true,
      onProgress: ({ loaded }) => reports.push(loaded),
    });
    expect(file.sizeInBytes).toBe(String(bytes.length));
    expect(md5(new Uint8Array(await (await emulator.fetch(file.url!)).arrayBuffer()))).toBe(md5(bytes));
    // Three PATCH requests of at most 5 MiB reached the TUS server; progress heard of each.
    const tus = await emulator.requests({ path: '/_uploads/tus/', limit: 10 });
    expect(tus.filter((entry) => entry.method == 'PATCH')).toHaveLength(3);
    expect(reports.at(-1)).toBe(bytes.length);
    expect(new Set(reports).size).toBeGreaterThanOrEqual(3);
  });

  it('the control API and the test bench: faults, a dropped connection, clock, sign-in as a member, storage state', async () => {
    await emulator.faults.add({ operation: 'items.query', status: 503, times: 1 });
    const quick = apiKeyClient({ baseDelayMs: 1 });
    expect((await quick.items.query('Notes').find()).items.length).toBeGreaterThan(0);
    const [answered, faulted] = await emulator.requests({ operationId: 'queryDataItems', limit: 2 });
    expect([faulted?.status, answered?.status]).toEqual([503, 200]);

    await emulator.faults.add({ operation: 'items.query', status: 0, times: 1 });
    const once = apiKeyClient(false);
    const dropped = await once.items
      .query('Notes')
      .find()
      .catch((error: unknown) => error);
    expect(isNetworkError(dropped)).toBe(true);

    const before = Date.parse((await emulator.clock.now()).now);
    const moved = await emulator.clock.advance(3600);
    expect(Date.parse(moved.now) - before).toBeGreaterThanOrEqual(3600_000);
    await emulator.clock.reset();

    const { _id: memberId } = await admin.members.createMember({
      member: { loginEmail: `bench-${Date.now()}@example.test` },
    });
    const member = newVisitor();
    member.auth.setTokens(await emulator.signInAs(memberId!));
    expect((await member.members.getCurrentMember()).member?._id).toBe(memberId);
    const state = await emulator.storageState(memberId!);
    expect(state.cookies[0]).toMatchObject({ domain: new URL(emulator.info.url).hostname });
    expect(state.cookies[0]?.value).not.toBe('');
  });

  it('on the WebAssembly engine too (what Node 20 gets without better-sqlite3): API key and visitor calls', async () => {
    const wasm = await createEmulator({ engine: 'wasm' });
    try {
      const { url, apiKey, siteId, clientId } = wasm.info;
      const owner = createClient({ baseUrl: url, fetch: wasm.fetch, auth: ApiKeyStrategy({ apiKey, siteId }) });
      const guest = createClient({ baseUrl: url, fetch: wasm.fetch, auth: OAuthStrategy({ clientId }) });
      const inserted = await owner.items.insert('Movies', { title: 'on wasm' });
      expect((await guest.items.get('Movies', inserted._id!))?.title).toBe('on wasm');
      expect((await wasm.control.call('getInfo')).engine).toBe('wasm');
    } finally {
      await wasm.close();
    }
  });
});
