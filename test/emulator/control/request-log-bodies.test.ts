/**
 * The request log's bodies (request and response, secrets redacted, large or binary ones described)
 * and its caller filter: what the console's request log page opens a row to.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { loggedBody } from '../../../emulator/control/logged-bodies.js';
import type { LoggedRequest, RequestFilter } from '../../../emulator/control/request-log.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { newEmail, readOutbox, sessionTokenOf } from '../../helpers/sign-in.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const logged = (filter: RequestFilter): Promise<LoggedRequest[]> => emulator.requests(filter);

it('keeps request and response bodies with passwords and tokens redacted', async () => {
  const visitor = emulator.newVisitor();
  const password = 'a very secret passphrase';
  const outcome = await visitor.auth.register({ email: 'logged.body@example.com', password });
  expect(outcome.loginState).toBe('SUCCESS');
  const sessionToken = outcome.loginState === 'SUCCESS' ? outcome.data.sessionToken : '';
  const tokens = await visitor.auth.getMemberTokensForDirectLogin(sessionToken);
  const [registration] = await logged({ operationId: 'register' });
  expect(registration!.requestBody).toContain('logged.body@example.com');
  expect(registration!.requestBody).toContain('[redacted]');
  expect(registration!.requestBody).not.toContain(password);
  expect(registration!.responseBody).toContain('"state": "SUCCESS"');
  expect(registration!.responseBody).not.toContain(sessionToken);

  const all = JSON.stringify(await logged({ limit: 1000 }));
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
  const exchanges = await logged({ path: '/oauth2/token', limit: 2 });
  expect(exchanges.map((entry) => entry.requestBody)).toEqual([
    expect.stringContaining('"code_verifier": "[redacted]"'),
    expect.stringContaining('"codeVerifier": "[redacted]"'),
  ]);
  const form = loggedBody(`grant_type=authorization_code&code=x&code_verifier=${snake}`);
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
  const me = (await visitor.members.getCurrentMember()).member!;
  await emulator.admin.collections.getDataCollection('Movies');
  await emulator.admin.collections.getDataCollection('NoSuchCollection').catch(() => undefined);

  const mine = await logged({ caller: me._id });
  expect(mine.length).toBeGreaterThan(0);
  expect(mine.every((entry) => entry.caller?.memberId === me._id)).toBe(true);
  const elevated = await logged({ caller: 'elevated' });
  expect(elevated.some((entry) => entry.operationId === 'getDataCollection')).toBe(true);
  expect(elevated.every((entry) => entry.caller?.kind === 'elevated')).toBe(true);
  const missing = await logged({ status: 404, caller: 'elevated' });
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
  expect(loggedBody(new Uint8Array(2000))).toBe('(2000 bytes of binary data, not kept)');
  expect(loggedBody('x'.repeat(40_000))).toBe('(40000 characters, not kept)');
  expect(loggedBody(Readable.from(['file']))).toBe('(a stream: a file or download, not kept)');
  expect(loggedBody('email=a%40b.c&password=hunter2')).toBe('email=a%40b.c&password=%5Bredacted%5D');
  expect(loggedBody(undefined)).toBeUndefined();
  // An emailed code is a secret; an error's code is what the log is read for.
  const error = { details: { applicationError: { code: 'WDE0073' } } };
  expect(loggedBody({ code: '123456', stateToken: 'x' })).not.toContain('123456');
  expect(loggedBody(error)).toContain('WDE0073');
});

it('writes a body out as JSON.stringify does, pretty-printed', () => {
  const body = { a: [1, 'two', null, true, {}, []], b: { c: undefined, d: 1.5, e: { f: [{ g: 'h' }] } }, i: -0 };
  expect(loggedBody(body)).toBe(JSON.stringify(body, null, 2));
  expect(loggedBody(7)).toBe('7');
});

it('bounds the work of a huge body sent without Content-Length by what the log keeps (issue 31, item 3)', () => {
  // A parsed body of a million elements that counts how many the log reads.
  let reads = 0;
  const elements = Array.from({ length: 1_000_000 }, (_, index) => ({ index }));
  const counted = new Proxy(elements, {
    get(target, key, receiver) {
      if (typeof key == 'string' && /^\d+$/.test(key)) reads++;
      return Reflect.get(target, key, receiver);
    },
  });
  expect(loggedBody({ dataItems: counted })).toBe('(over 32768 characters written out, not kept)');
  // Each element writes at least 20 characters: the writer stops within the 32 KiB it keeps.
  expect(reads).toBeLessThan(2_000);
});

it('keeps no body by reference: the text is made when the request is logged', async () => {
  const data = { title: 'before', rows: Array.from({ length: 5000 }, (_, row) => ({ row })) };
  // Sent chunked (no Content-Length): the log cannot size it before parsing it.
  const response = await emulator.fetch('/wix-data/v2/items', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: emulator.info.apiKey },
    body: new Blob([JSON.stringify({ dataCollectionId: 'Movies', dataItem: { data } })]).stream(),
    duplex: 'half',
  } as RequestInit);
  expect(response.status).toBe(200);
  const [entry] = await logged({ path: '/wix-data/v2/items', limit: 1 });
  expect(entry!.requestBody).toBe('(over 32768 characters written out, not kept)');
  expect(entry!.responseBody).toMatch(/^\(\d+ characters, not kept\)$/);
});

describe('secrets inside texts are redacted (issue 31, item 6)', () => {
  it("the web_message page's authorization code", async () => {
    const client = emulator.newVisitor();
    const sessionToken = sessionTokenOf(
      await client.auth.register({ email: newEmail('web-message'), password: 'web message page' }),
    );
    const { authUrl } = await client.auth.getAuthUrl(
      await client.auth.generateOAuthData('http://localhost:5173/callback'),
      { prompt: 'none', responseMode: 'web_message', sessionToken },
    );
    const page = await (await fetch(authUrl)).text();
    const code = /authorization-code\.[\w-]+/.exec(page)?.[0];
    expect(code).toBeDefined();
    const [entry] = await logged({ path: new URL(authUrl).pathname, limit: 1 });
    expect(entry!.responseBody).toContain('postMessage');
    expect(entry!.responseBody).toContain('[redacted]');
    expect(entry!.responseBody).not.toContain(code);
  });

  it("an upload URL's ticket, in the answer that made it and in the upload's path", async () => {
    const made = await emulator.fetch('/site-media/v1/files/generate-upload-url', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: emulator.info.apiKey },
      body: JSON.stringify({ mimeType: 'text/plain', fileName: 'ticket.txt' }),
    });
    const { uploadUrl } = (await made.json()) as { uploadUrl: string };
    const ticket = new URL(uploadUrl).pathname.split('/').at(-1)!;
    expect(ticket).toMatch(/^upload\./);
    // The upload is logged with its path, which holds the ticket (a failed upload gives the URL back).
    const uploaded = await fetch(`${uploadUrl}?filename=ticket.txt`, {
      method: 'PUT',
      body: 'x'.repeat(10),
      headers: { 'content-type': 'text/plain' },
    });
    expect(uploaded.status).toBe(200);
    const all = JSON.stringify(await logged({ limit: 5 }));
    expect(all).toContain('generate-upload-url');
    expect(all).toContain('/_uploads/files/[redacted]');
    expect(all).not.toContain(ticket);
  });

  it("the outbox's recovery link and emailed code", async () => {
    const email = newEmail('recovery-log');
    await emulator.newVisitor().auth.register({ email, password: 'recovery in the log' });
    await emulator.newVisitor().auth.sendPasswordResetEmail(email, 'http://localhost:4000/reset');
    const [recovery] = await readOutbox(emulator, email);
    const recoveryToken = new URL(recovery!.link!).searchParams.get('recoveryToken')!;
    expect(recoveryToken).toBeTruthy();
    const [entry] = await logged({ path: '/_emulator/outbox', limit: 1 });
    expect(entry!.responseBody).toContain('Reset your password');
    expect(entry!.responseBody).not.toContain(recoveryToken);
    // A code under its key is redacted where the email's text repeats it.
    expect(loggedBody({ code: '493817', text: 'Your code is 493817.' })).not.toContain('493817');
  });
});
