/**
 * The vitest example of README.md ("Tests without a server"), run as it is shown there, with every
 * socket of the process forbidden around it (test/helpers/no-sockets.ts: a test that reached for
 * a port would fail). The code between the README markers is the README's snippet, with the
 * package's import names in place of these source paths (readme-examples.test.ts checks they agree).
 */
import { forbidSockets } from '../helpers/no-sockets.js';

forbidSockets();

// README:start
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ApiKeyStrategy, OAuthStrategy, createClient } from '../../src/index.js';
import { createEmulator, type InProcessEmulator } from '../../emulator/index.js';
import { items } from '@wix/data';
import { createClient as createWixClient, OAuthStrategy as WixOAuthStrategy } from '@wix/sdk';

let emulator: InProcessEmulator;
beforeAll(async () => {
  emulator = await createEmulator(); // in memory, no port: a few hundred milliseconds
});
afterAll(() => emulator.close());

it('serves our client through emulator.fetch', async () => {
  const { url, apiKey, siteId, clientId } = emulator.info;
  const admin = createClient({ baseUrl: url, fetch: emulator.fetch, auth: ApiKeyStrategy({ apiKey, siteId }) });
  await admin.items.insert('Movies', { _id: 'fixture', title: 'In-process' });
  const visitor = createClient({ baseUrl: url, fetch: emulator.fetch, auth: OAuthStrategy({ clientId }) });
  expect((await visitor.items.get('Movies', 'fixture'))?.title).toBe('In-process');
});

it('serves the official SDK through the global fetch', async () => {
  const restore = emulator.interceptGlobalFetch(); // www.wixapis.com and *.wixapis.com go to the emulator
  try {
    const wix = createWixClient({ modules: { items }, auth: WixOAuthStrategy({ clientId: emulator.info.clientId }) });
    const page = await wix.items.query('Movies').eq('_id', 'fixture').find();
    expect(page.items[0]?.title).toBe('In-process');
  } finally {
    restore(); // the original fetch is back
  }
});
// README:end
