/**
 * The official SDK (`@wix/sdk` with `@wix/data`, `@wix/members`, `@wix/media`, unmodified, on the
 * global `fetch`) served by `createEmulator()` through `emulator.interceptGlobalFetch()`, with every
 * socket of the process forbidden: API key, visitor OAuth, member sign-in through the hosted page,
 * an upload to the emulator's upload URL; then `restore()` and `close()` give the global fetch back.
 */
import { collections, items } from '@wix/data';
import { files } from '@wix/media';
import { members } from '@wix/members';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type InProcessEmulator } from '../../../emulator/index.js';
import { forbidSockets } from '../../helpers/no-sockets.js';

forbidSockets();

const original = globalThis.fetch;
let emulator: InProcessEmulator;
let restore: () => void;
beforeAll(async () => {
  emulator = await createEmulator();
  restore = emulator.interceptGlobalFetch();
});
afterAll(async () => {
  restore?.();
  await emulator?.close();
});

/** Where the pretend app's sign-in lands (the demo client allows any localhost redirect). */
const APP = 'http://localhost:5999/callback';
const admin = (): any =>
  createClient({
    modules: { items, collections, files },
    auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
  });
const visitor = (): any =>
  createClient({ modules: { items, members }, auth: OAuthStrategy({ clientId: emulator.info.clientId }) });

describe('the official SDK in-process, sockets forbidden', () => {
  it('API key: a collection and its items, written and queried', async () => {
    const client = admin();
    await client.collections.createDataCollection({
      _id: 'Official',
      fields: [{ key: 'name', type: 'TEXT' }],
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    const inserted = await client.items.insert('Official', { name: 'unmodified' });
    const found = await client.items.query('Official').eq('name', 'unmodified').find();
    expect(found.items.map((item: { _id: string }) => item._id)).toEqual([inserted._id]);
  });

  it('visitor: OAuth anonymous tokens, then a public read', async () => {
    const client = visitor();
    const found = await client.items.query('Official').find();
    expect(found.items.length).toBe(1);
    expect(client.auth.getTokens().accessToken.value).toBeTruthy();
  });

  it('member: register, the hosted page read with a manual redirect, member tokens, the current member', async () => {
    const client = visitor();
    const email = `official-in-process-${Date.now()}@example.test`;
    const registered = await client.auth.register({ email, password: 'a long passphrase' });
    expect(registered.loginState).toBe('SUCCESS');
    const oauthData = client.auth.generateOAuthData(APP);
    const { authUrl } = await client.auth.getAuthUrl(oauthData, {
      prompt: 'none',
      sessionToken: registered.data.sessionToken,
      responseMode: 'query',
    });
    expect(new URL(authUrl).origin).toBe(emulator.info.url);
    const page = await fetch(authUrl, { redirect: 'manual' });
    expect(page.status).toBe(302);
    const { code, state } = client.auth.parseFromUrl(page.headers.get('location')!, 'query');
    client.auth.setTokens(await client.auth.getMemberTokens(code, state, oauthData));
    const { member } = await client.members.getCurrentMember({ fieldsets: ['FULL'] });
    expect(member.loginEmail).toBe(email);
  });

  it('upload: the upload URL is the emulator origin, and the PUT through the global fetch lands', async () => {
    const { uploadUrl } = await admin().files.generateFileUploadUrl('text/plain', { fileName: 'note.txt' });
    expect(new URL(uploadUrl).origin).toBe(emulator.info.url);
    const put = await fetch(`${uploadUrl}?filename=note.txt`, { method: 'PUT', body: 'in-process bytes' });
    expect(put.status).toBe(200);
    const { file } = await put.json();
    expect(await (await fetch(file.url)).text()).toBe('in-process bytes');
  });

  it('restore() gives the global fetch back; close() restores an interceptor left installed', async () => {
    restore();
    expect(globalThis.fetch).toBe(original);
    const other = await createEmulator();
    other.interceptGlobalFetch();
    expect(globalThis.fetch).not.toBe(original);
    expect(other.info.url).not.toBe(emulator.info.url);
    await other.close();
    expect(globalThis.fetch).toBe(original);
    await expect(other.fetch(`${other.info.url}/_emulator/info`)).rejects.toThrow('fetch failed');
  });
});
