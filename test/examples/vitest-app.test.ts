/**
 * The vitest example of README.md ("Testing your app against the emulator"), run as it is shown
 * there: the code between the README markers is the README's snippet, with the package's import
 * names in place of these source paths (test/examples/readme-examples.test.ts checks they agree).
 */
// README:start
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OAuthStrategy, createClient, isApplicationError } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../emulator/index.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, memory: true });
});
afterAll(() => emulator.close());

/** A new visitor of the demo site. */
const visitor = () =>
  createClient({ baseUrl: emulator.url, auth: OAuthStrategy({ clientId: emulator.info.clientId }) });

it('lists the movies even when the API fails twice', async () => {
  await emulator.faults.add({ operation: 'items.query', status: 503, times: 2 });
  const page = await visitor().items.query('Movies').find(); // retried by the client
  expect(page.items.length).toBeGreaterThan(0);
});

it('keeps working once the access token has expired', async () => {
  const client = visitor();
  await client.items.query('Movies').find();
  await emulator.clock.advance(4 * 3600); // no waiting: the emulator's time moves
  await client.items.query('Movies').find(); // the client renews its token by itself
});

it('does not let a visitor add a movie, and the log says why', async () => {
  const refused = await visitor()
    .items.insert('Movies', { title: 'Mine' })
    .catch((error: unknown) => error);
  expect(isApplicationError(refused) && refused.status).toBe(403);
  const [entry] = await emulator.requests({ refused: true, limit: 1 });
  expect(entry?.decision?.rule).toBe('Movies: insert needs ADMIN');
});

it('shows a member their own profile', async () => {
  const tokens = await emulator.signInAs({ email: 'ada@example.com' }); // a demo member
  const member = createClient({
    baseUrl: emulator.url,
    auth: OAuthStrategy({ clientId: emulator.info.clientId, tokens }),
  });
  expect((await member.members.getCurrentMember()).member?.profile?.nickname).toBe('Ada Lovelace');
});
// README:end
