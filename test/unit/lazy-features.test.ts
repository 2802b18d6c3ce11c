/**
 * Every feature that loads on first use (the table of src/README.md), called through the client
 * while its chunk cannot load: the call rejects with NetworkError, never another error or a hang.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { generatePKCE, OAuthStrategy } from '../../src/auth/index.js';
import { createClient } from '../../src/client.js';
import { isNetworkError } from '../../src/errors/index.js';
import { BASE, type Captured, captureAll, useNock } from '../helpers/capture.js';
import { testClient } from '../helpers/clients.js';

// Each feature's chunk fails to load, as a chunk fetch does when the network is down.
// (vi.mock is hoisted above the imports, so the factory is too.)
const { chunkFails } = vi.hoisted(() => ({
  chunkFails: () => {
    throw new TypeError('Failed to fetch dynamically imported module');
  },
}));
vi.mock('../../src/auth/sign-in.js', chunkFails);
vi.mock('../../src/auth/redirect-flow.js', chunkFails);
vi.mock('../../src/auth/silent-flow.js', chunkFails);
vi.mock('../../src/media/upload.js', chunkFails);
vi.mock('../../src/events/process.js', chunkFails);
vi.mock('../../src/data/bulk.js', chunkFails);
vi.mock('../../src/data/references.js', chunkFails);

const now = () => Math.floor(Date.now() / 1000);
const oauthClient = () =>
  createClient({
    auth: OAuthStrategy({
      clientId: 'c',
      tokens: {
        accessToken: { value: 'V', expiresAt: now() + 3600 },
        refreshToken: { value: 'VR', role: 'visitor' },
      },
    }),
    baseUrl: BASE,
  });
const oauthData = {
  state: 's',
  codeVerifier: 'v'.repeat(43),
  codeChallenge: 'c'.repeat(43),
  redirectUri: 'https://app.test/cb',
  originalUri: '',
};

const calls: [string, () => Promise<unknown>][] = [
  ['login', () => oauthClient().auth.login({ email: 'a@b.test', password: 'p' })],
  ['generateOAuthData', () => oauthClient().auth.generateOAuthData('https://app.test/cb')],
  ['generatePKCE', () => generatePKCE()],
  ['getAuthUrl', () => oauthClient().auth.getAuthUrl(oauthData)],
  ['getMemberTokens', () => oauthClient().auth.getMemberTokens('code', 's', oauthData)],
  ['logout', () => oauthClient().auth.logout('https://app.test/')],
  ['getMemberTokensForDirectLogin', () => oauthClient().auth.getMemberTokensForDirectLogin('session')],
  ['media.upload', () => testClient().media.upload(new Uint8Array(1), { fileName: 'a.txt' })],
  ['webhooks.process', () => createClient({ webhooks: { publicKey: 'k' } }).webhooks.process('a.b.c')],
  ['items.bulkInsert', () => testClient().items.bulkInsert('Movies', [{ title: 'a' }])],
  ['items.queryReferenced', () => testClient().items.queryReferenced('Movies', 'm1', 'actors')],
  ['items.queryReferencedItems', () => testClient().items.queryReferencedItems('Movies', 'm1', 'actors')],
  [
    'items.bulkPatch',
    () => testClient().items.bulkPatch('Movies', ['m1'], [{ fieldPath: 'n', action: 'INCREMENT_FIELD', value: 1 }]),
  ],
];

useNock();

describe('a feature whose chunk cannot load', () => {
  // Every request would be answered with 200, so a NetworkError can only be the chunk's.
  let requests: Captured[] = [];
  beforeEach(() => {
    requests = captureAll();
  });

  it.each(calls)('%s rejects with NetworkError before sending anything', async (_name, call) => {
    const error = await call().catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
    expect(requests).toEqual([]);
  });
});
