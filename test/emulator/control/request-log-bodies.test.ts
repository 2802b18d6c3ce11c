/**
 * The request log's bodies (request and response, secrets redacted, large or binary ones described)
 * and its caller filter: what the console's request log page opens a row to.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { bodyText, keepBody } from '../../../emulator/control/logged-bodies.js';
import type { LoggedRequest } from '../../../emulator/control/request-log.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const logged = async (query: string): Promise<LoggedRequest[]> =>
  ((await (await emulator.fetch(`/_emulator/requests?${query}`)).json()) as { requests: LoggedRequest[] }).requests;

it('keeps request and response bodies with passwords and tokens redacted', async () => {
  const visitor = emulator.newVisitor();
  const password = 'a very secret passphrase';
  const outcome = await visitor.auth.register({ email: 'logged.body@example.com', password });
  expect(outcome.loginState).toBe('SUCCESS');
  const sessionToken = outcome.loginState === 'SUCCESS' ? outcome.data.sessionToken : '';
  const tokens = await visitor.auth.getMemberTokensForDirectLogin(sessionToken);
  const [registration] = await logged('operationId=register');
  expect(registration!.requestBody).toContain('logged.body@example.com');
  expect(registration!.requestBody).toContain('[redacted]');
  expect(registration!.requestBody).not.toContain(password);
  expect(registration!.responseBody).toContain('"state": "SUCCESS"');
  expect(registration!.responseBody).not.toContain(sessionToken);

  const all = JSON.stringify(await logged('limit=1000'));
  for (const secret of [password, sessionToken, tokens.accessToken.value, tokens.refreshToken.value])
    expect(all).not.toContain(secret);
});

it("keeps a code exchange's PKCE verifier redacted, under either of its names and in a form body", async () => {
  const [camel, snake] = ['camelCase', 'snake_case'].map((name) => `${name}-verifier-${'v'.repeat(40)}`);
  for (const body of [{ codeVerifier: camel }, { code_verifier: snake }]) {
    const response = await emulator.fetch('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'authorization_code', code: 'x', ...body }),
    });
    expect(response.status).toBe(400);
  }
  const exchanges = await logged('path=/oauth2/token&limit=2');
  expect(exchanges.map((entry) => entry.requestBody)).toEqual([
    expect.stringContaining('"code_verifier": "[redacted]"'),
    expect.stringContaining('"codeVerifier": "[redacted]"'),
  ]);
  const form = bodyText(`grant_type=authorization_code&code=x&code_verifier=${snake}`);
  expect(form).toBe('grant_type=authorization_code&code=x&code_verifier=%5Bredacted%5D');
});

it('filters by caller (a kind or a member id), status and path', async () => {
  const visitor = emulator.newVisitor();
  await visitor.auth
    .register({ email: 'logged.caller@example.com', password: 'another passphrase' })
    .then((outcome) =>
      outcome.loginState === 'SUCCESS'
        ? visitor.auth
            .getMemberTokensForDirectLogin(outcome.data.sessionToken)
            .then((tokens) => visitor.auth.setTokens(tokens))
        : undefined,
    );
  const me = await visitor.members.getCurrentMember();
  await emulator.admin.collections.getDataCollection('Movies');
  await emulator.admin.collections.getDataCollection('NoSuchCollection').catch(() => undefined);

  const mine = await logged(`caller=${me._id}`);
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.every((entry) => entry.caller?.memberId === me._id)).toBe(true);
  const elevated = await logged('caller=elevated');
  expect(elevated.some((entry) => entry.operationId === 'getDataCollection')).toBe(true);
  expect(elevated.every((entry) => entry.caller?.kind === 'elevated')).toBe(true);
  const missing = await logged('status=404&caller=elevated');
  expect(missing.map((entry) => entry.path)).toContain('/wix-data/v2/collections/NoSuchCollection');
});

it('still answers after a request whose body nests too deep to write out', async () => {
  // Under the 96 KiB a body may have and still be kept, and refused by the route with a 400; the
  // log writes bodies out only when read, and a recursive walk of 40,000 levels overflowed the stack
  // there: every read of the log was a 500 until a thousand newer requests pushed the entry out.
  const nested = '['.repeat(40_000) + ']'.repeat(40_000);
  const refused = await emulator.fetch('/wix-data/v2/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: `{"dataCollectionId":"Movies","dataItem":{"data":{"deep":${nested}}}}`,
  });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.status).toBeLessThan(500);
  const log = await emulator.fetch('/_emulator/requests?path=/wix-data/v2/items&limit=1');
  expect(log.status).toBe(200);
  const [entry] = ((await log.json()) as { requests: LoggedRequest[] }).requests;
  expect(entry!.requestBody).toContain('"dataCollectionId": "Movies"');
  expect(entry!.requestBody).toContain('nested deeper than');
});

it('describes a binary, streamed or large body instead of keeping it', () => {
  expect(bodyText(keepBody(new Uint8Array(2000)))).toBe('(2000 bytes of binary data, not kept)');
  expect(bodyText(keepBody('x'.repeat(40_000)))).toBe('(40000 characters, not kept)');
  expect(bodyText(keepBody(Readable.from(['file'])))).toBe('(a stream: a file or download, not kept)');
  expect(bodyText(keepBody('email=a%40b.c&password=hunter2'))).toBe('email=a%40b.c&password=%5Bredacted%5D');
  expect(keepBody(undefined)).toBeUndefined();
  // An emailed code is a secret; an error's code is what the log is read for.
  const error = { details: { applicationError: { code: 'WDE0073' } } };
  expect(bodyText(keepBody({ code: '123456', stateToken: 'x' }))).not.toContain('123456');
  expect(bodyText(keepBody(error))).toContain('WDE0073');
});
