/**
 * The snapshot recipe of README.md ("Testing your app against the emulator"): every test starts
 * from the state saved once, whatever the test before it did. Run as it is shown there (the code
 * between the README markers, with the package's import names in place of these source paths;
 * test/examples/readme-examples.test.ts checks they agree).
 */
// README:start
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../emulator/index.js';

let emulator: Emulator;
/** The site's owner (the API key). */
const admin = () =>
  createClient({
    baseUrl: emulator.url,
    auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
  });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, memory: true });
  await admin().items.insert('Movies', { _id: 'fixture', title: 'The fixture' });
  await emulator.snapshots.save('fixtures'); // the demo data and the fixture
});
beforeEach(() => emulator.snapshots.restore('fixtures')); // a few milliseconds
afterAll(() => emulator.close());

it('removes the fixture', async () => {
  await admin().items.remove('Movies', 'fixture');
  expect(await admin().items.get('Movies', 'fixture')).toBeNull();
});

it('finds the fixture again: every test starts from the snapshot', async () => {
  expect((await admin().items.get('Movies', 'fixture'))?.title).toBe('The fixture');
});
// README:end
