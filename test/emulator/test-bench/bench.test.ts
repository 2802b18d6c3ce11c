/**
 * The emulator as a test bench, each control proven end to end through our SDK: fault rules
 * (retried through, Retry-After honoured, latency, dropped connections), the platform's rate
 * limit, the clock (an expired token renewed once), why a call was refused (the request log's
 * decision, and the `permissions: "log"` mode), test identities (`signInAs`, seed members) and
 * webhook events on demand (verified by `client.webhooks.process`, re-sent, badly signed).
 */
import { once } from 'node:events';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ApiKeyStrategy,
  OAuthStrategy,
  createClient,
  isApplicationError,
  isNetworkError,
  isValidationError,
  isWebhookError,
  type Client,
} from '../../../src/index.js';
import type { DomainEvent } from '../../../emulator/events.js';
import { runCommand } from '../../../cli/commands.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { setConfig } from '../../helpers/sign-in.js';

let emulator: TestEmulator;
let seedDir: string;
/** Test members the seed file declares. */
const TESS = { id: 'tess-0000-fixed-id', email: 'tess@example.test', password: 'tess-password-1', nickname: 'Tess' };
const PETE = { id: 'pete-0000-fixed-id', email: 'pete@example.test', status: 'PENDING', verified: false };

beforeAll(async () => {
  seedDir = await mkdtemp(join(tmpdir(), 'sitekit-bench-'));
  const seed = join(seedDir, 'seed.json');
  // Members only: the demo data is seeded, then the members are added.
  await writeFile(seed, JSON.stringify({ members: [TESS, PETE] }));
  emulator = await startEmulator({ seed });
});
afterAll(() => emulator?.close());
afterEach(async () => {
  await emulator.faults.clear();
  await emulator.clock.reset();
  await setConfig(emulator, { rateLimitPerMinute: 0, permissions: 'enforce' });
});

/** An elevated client that retries quickly (the backoff is not what these tests measure). */
const quickAdmin = (retry: false | { baseDelayMs: number } = { baseDelayMs: 1 }) =>
  createClient({
    baseUrl: emulator.url,
    auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
    retry,
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );

/** `items.query` of Movies as plain HTTP, with the API key: what a fault rule on `/wix-data/` answers. */
const queryMovies = () =>
  emulator.fetch('/wix-data/v2/items/query', {
    method: 'POST',
    headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ dataCollectionId: 'Movies' }),
  });

describe('faults', () => {
  it('a 503 rule with times: 2 is retried through: the third attempt succeeds, all three logged', async () => {
    const { id } = await emulator.faults.add({ operation: 'items.query', status: 503, times: 2 });
    const page = await quickAdmin().items.query('Movies').find();
    expect(page.items.length).toBeGreaterThan(0);
    const attempts = await emulator.requests({ operationId: 'queryDataItems', limit: 3 });
    expect(attempts.map((entry) => entry.status)).toEqual([200, 503, 503]);
    expect(attempts.map((entry) => entry.faultId)).toEqual([undefined, id, id]);
    // The faulted lines say who called and that the answer was the rule's (the route never ran).
    expect(attempts.map((entry) => [entry.caller?.kind, entry.faultAnswered])).toEqual([
      ['elevated', undefined],
      ['elevated', true],
      ['elevated', true],
    ]);
    expect(await emulator.faults.list()).toEqual([expect.objectContaining({ id, status: 503, times: 2, fired: 2 })]);
  });

  it("a 429 with Retry-After is honoured: the retry waits the server's time", async () => {
    await emulator.faults.add({ path: '/wix-data/v2/items/query', status: 429, times: 1, retryAfterSeconds: 1 });
    const started = performance.now();
    await quickAdmin().items.query('Movies').find();
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    const [answered, limited] = await emulator.requests({ path: '/wix-data/v2/items/query', limit: 2 });
    expect([limited?.status, answered?.status]).toEqual([429, 200]);
  });

  it('a faulted answer has the platform error shape; a body replaces it', async () => {
    await emulator.faults.add({ operation: 'queryDataItems', status: 409, times: 1 });
    const conflict = await failure(quickAdmin(false).items.query('Movies').find());
    expect(isApplicationError(conflict) && conflict.status).toBe(409);
    await emulator.faults.add({
      operation: 'queryDataItems',
      status: 418,
      times: 1,
      body: { message: 'teapot', details: {} },
    });
    const response = await emulator.fetch('/wix-data/v2/items/query', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ dataCollectionId: 'Movies' }),
    });
    expect([response.status, await response.json()]).toEqual([418, { message: 'teapot', details: {} }]);
  });

  it("a faulted error's code follows its status; a 5xx is a system error naming the request's id", async () => {
    const answers: unknown[][] = [];
    for (const status of [400, 401, 403, 404, 408, 409, 429, 418, 499, 500, 502, 503, 504, 599]) {
      await emulator.faults.add({ path: '/wix-data/', status, times: 1 });
      const response = await queryMovies();
      answers.push([response.status, response.headers.get('x-wix-request-id'), await response.json()]);
    }
    const application = (status: number, code: string) => [
      status,
      expect.any(String),
      {
        message: `Injected fault: ${status}`,
        details: { applicationError: { code, description: `Injected fault: ${status}` } },
      },
    ];
    const system = (status: number) => {
      const [, requestId] = answers.find((answer) => answer[0] == status)!;
      return [status, requestId, { message: `System error occurred (request id ${requestId})`, details: {} }];
    };
    expect(answers).toEqual([
      application(400, 'BAD_REQUEST'),
      application(401, 'UNAUTHENTICATED'),
      application(403, 'PERMISSION_DENIED'),
      application(404, 'NOT_FOUND'),
      application(408, 'REQUEST_TIMEOUT'),
      application(409, 'ALREADY_EXISTS'),
      application(429, 'TOO_MANY_REQUESTS'),
      application(418, 'FAULT'),
      application(499, 'FAULT'),
      ...[500, 502, 503, 504, 599].map(system),
    ]);
    expect(answers[9]![1]).toMatch(/\S/);
  });

  it('a request meets the rules once: a latency rule fires once for it, whichever step applies the rules', async () => {
    const { id } = await emulator.faults.add({ path: '/wix-data/', latencyMs: 1 });
    expect((await queryMovies()).status).toBe(200);
    expect(await emulator.faults.list()).toEqual([expect.objectContaining({ id, fired: 1 })]);
  });

  it('a path rule answers a path no route has', async () => {
    await emulator.faults.add({ path: '/wix-data/v9/', status: 418, times: 1, body: { teapot: true } });
    const response = await emulator.fetch('/wix-data/v9/nothing');
    expect([response.status, await response.json()]).toEqual([418, { teapot: true }]);
    expect((await emulator.requests({ faulted: true, limit: 1 }))[0]).toMatchObject({ status: 418 });
  });

  it('a body that is null, false or 0 is the answer as given', async () => {
    for (const body of [null, false, 0]) {
      await emulator.faults.add({ path: '/wix-data/', status: 503, times: 1, body });
      const response = await queryMovies();
      expect([response.status, await response.text()]).toEqual([503, JSON.stringify(body)]);
    }
  });

  it('latencyMs with a status delays the faulted answer', async () => {
    await emulator.faults.add({ path: '/wix-data/', status: 503, latencyMs: 200, times: 1 });
    const started = performance.now();
    expect((await queryMovies()).status).toBe(503);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  });

  it("a faulted request with an access token is logged with its caller, whom the token's check names", async () => {
    const tokens = await emulator.signInAs({ email: TESS.email });
    const { id } = await emulator.faults.add({ path: '/members/', status: 503, times: 1 });
    const faulted = await emulator.fetch('/members/v1/members/my', {
      headers: { authorization: tokens.accessToken.value },
    });
    expect(faulted.status).toBe(503);
    expect((await emulator.requests({ faulted: true, limit: 1 }))[0]).toMatchObject({
      faultId: id,
      caller: { kind: 'member', memberId: TESS.id },
    });
  });

  it('a success status with a body stands in for the real answer (a field renamed)', async () => {
    const real = await quickAdmin(false).items.query('Movies').limit(1).find();
    const renamed = { dataItems: [{ id: real.items[0]!._id, data: { _id: real.items[0]!._id, name: 'Renamed' } }] };
    await emulator.faults.add({ operation: 'items.query', status: 200, times: 1, body: renamed });
    const answer = await quickAdmin(false).items.query('Movies').limit(1).find();
    expect(answer.items).toEqual([{ _id: real.items[0]!._id, name: 'Renamed' }]);
    expect((await quickAdmin(false).items.query('Movies').limit(1).find()).items).toEqual(real.items);
  });

  it('latencyMs delays the real answer; the control API is never faulted', async () => {
    await emulator.faults.add({ path: '/', latencyMs: 200, times: 1 });
    expect((await emulator.faults.list())[0]?.fired).toBe(0);
    const started = performance.now();
    await quickAdmin(false).items.query('Movies').find();
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    const [delayed] = await emulator.requests({ faulted: true, limit: 1 });
    expect(delayed).toMatchObject({ status: 200, caller: { kind: 'elevated' } });
    expect(delayed!.faultAnswered).toBeUndefined();
  });

  it('status 0 drops the connection: the SDK sees a network error, the log a faulted request', async () => {
    const { id } = await emulator.faults.add({ operation: 'items.query', status: 0, times: 1 });
    expect(isNetworkError(await failure(quickAdmin(false).items.query('Movies').find()))).toBe(true);
    expect((await emulator.requests({ faulted: true, limit: 1 }))[0]).toMatchObject({
      status: 0,
      faultId: id,
      faultAnswered: true,
      caller: { kind: 'elevated' },
    });
    // A visitor's faulted call (no credentials yet) is logged as anonymous, not as no one.
    await emulator.faults.add({ path: '/oauth2/token', status: 503, times: 1 });
    await emulator.fetch('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grantType: 'anonymous', clientId: emulator.info.clientId }),
    });
    expect((await emulator.requests({ faulted: true, limit: 1 }))[0]).toMatchObject({
      status: 503,
      caller: { kind: 'visitor', authenticated: false },
    });
  });

  it('probability 0 never fires, probability 1 always does; reset removes the rules and the clock offset', async () => {
    const never = await emulator.faults.add({ operation: 'items.query', status: 500, probability: 0 });
    await quickAdmin(false).items.query('Movies').find();
    const always = await emulator.faults.add({ operation: 'items.query', status: 502, probability: 1, times: 1 });
    const refused = await failure(quickAdmin(false).items.query('Movies').find());
    expect((refused as { status?: number }).status).toBe(502);
    const fired = Object.fromEntries((await emulator.faults.list()).map((rule) => [rule.id, rule.fired]));
    expect(fired).toEqual({ [never.id]: 0, [always.id]: 1 });

    // Reset (on an emulator of its own: it also forgets this file's seed members).
    const other = await startEmulator();
    try {
      await other.faults.add({ path: '/', status: 500 });
      await other.clock.advance(60);
      expect(await other.reset()).toEqual({ reset: true, seeded: true });
      expect(await other.faults.list()).toEqual([]);
      expect((await other.clock.now()).offsetSeconds).toBe(0);
    } finally {
      await other.close();
    }
  });

  it("a rule that names nothing fails API calls, not the console's own files", async () => {
    const { id } = await emulator.faults.add({ status: 500, times: 1 });
    expect((await emulator.fetch('/favicon.ico')).status).not.toBe(500);
    expect((await emulator.faults.list())[0]).toMatchObject({ id, fired: 0 });
    expect((await failure(quickAdmin(false).items.query('Movies').find())) as { status?: number }).toMatchObject({
      status: 500,
    });
  });

  it('a path rule matches requests under its prefix, not every path that contains it', async () => {
    // `/wix-data/v2/items/query` contains `/items` but does not start with it.
    await emulator.faults.add({ path: '/items', status: 503 });
    await quickAdmin(false).items.query('Movies').find();
    expect((await emulator.faults.list())[0]?.fired).toBe(0);
    await emulator.faults.add({ path: '/wix-data/v2/items', status: 503, times: 1 });
    expect((await failure(quickAdmin(false).items.query('Movies').find())) as { status?: number }).toMatchObject({
      status: 503,
    });
  });

  it('retryAfterSeconds: 0 is sent as Retry-After: 0 (retry at once), absent sends none', async () => {
    await emulator.faults.add({ path: '/wix-data/', status: 429, retryAfterSeconds: 0, times: 1 });
    await emulator.faults.add({ path: '/wix-data/', status: 429, times: 1 });
    const query = () =>
      emulator.fetch('/wix-data/v2/items/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: emulator.info.apiKey },
        body: JSON.stringify({ dataCollectionId: 'Movies' }),
      });
    const [zero, none] = [await query(), await query()];
    expect([zero.status, zero.headers.get('retry-after')]).toEqual([429, '0']);
    expect([none.status, none.headers.get('retry-after')]).toEqual([429, null]);
  });

  it('clear, like every control, rejects when its call fails instead of leaving the failure unhandled', async () => {
    const closed = await startEmulator();
    await closed.close();
    expect(isNetworkError(await failure(closed.faults.clear()))).toBe(true);
    expect(isNetworkError(await failure(closed.faults.remove('any')))).toBe(true);
  });

  it('a malformed rule is a validation error; remove and clear', async () => {
    const refused = await failure(emulator.faults.add({ status: 200 }));
    expect(isValidationError(refused) && refused.violations.map((violation) => violation.field)).toEqual(['body']);
    expect(isValidationError(await failure(emulator.faults.add({ status: 302, body: {} })))).toBe(true);
    const { id } = await emulator.faults.add({ operation: 'get', status: 500 });
    await emulator.faults.add({ operation: 'insert', status: 500 });
    await emulator.faults.remove(id);
    expect((await emulator.faults.list()).map((rule) => rule.operation)).toEqual(['insert']);
    expect(isApplicationError(await failure(emulator.faults.remove(id)))).toBe(true);
    await emulator.faults.clear();
    expect(await emulator.faults.list()).toEqual([]);
  });
});

describe('rate limits', () => {
  it('past rateLimitPerMinute a caller gets 429 with Retry-After in the platform shape, until its minute ends', async () => {
    await setConfig(emulator, { rateLimitPerMinute: 3 });
    const limitedVisitor = createClient({
      baseUrl: emulator.url,
      auth: OAuthStrategy({ clientId: emulator.info.clientId }),
      retry: false,
    });
    // Its token grant counts too: three requests in all.
    await limitedVisitor.items.query('Movies').find();
    await limitedVisitor.items.query('Movies').find();
    const limited = await failure(limitedVisitor.items.query('Movies').find());
    expect(isApplicationError(limited) && [limited.status, limited.code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const [entry] = await emulator.requests({ status: 429, limit: 1 });
    expect(entry?.decision).toMatchObject({ allowed: false, rule: '429 TOO_MANY_REQUESTS' });
    // Another caller (a member) has its own minute.
    const member = await emulator.signInAs({ email: 'ada@example.com' });
    const mine = await emulator.fetch('/members/v1/members/my', {
      headers: { authorization: member.accessToken.value },
    });
    expect(mine.status).toBe(200);
    // The limit follows the emulator's clock.
    await emulator.clock.advance(60);
    await limitedVisitor.items.query('Movies').find();
  });

  it('minting visitor tokens does not multiply the limit: anonymous callers count against their client (issue 31, item 7)', async () => {
    await setConfig(emulator, { rateLimitPerMinute: 5 });
    let passed = 0;
    for (let visitor = 0; visitor < 25; visitor++) {
      const token = await emulator.fetch('/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grantType: 'anonymous', clientId: emulator.info.clientId }),
      });
      if (token.status == 200) passed++;
      else continue;
      const { access_token } = (await token.json()) as { access_token: string };
      const query = await emulator.fetch('/wix-data/v2/items/query', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: access_token },
        body: JSON.stringify({ dataCollectionId: 'Movies' }),
      });
      if (query.status == 200) passed++;
    }
    expect(passed).toBe(5);
  });

  it('the Retry-After of the limit is what is left of the minute', async () => {
    await setConfig(emulator, { rateLimitPerMinute: 1 });
    const ask = () =>
      emulator.fetch('/wix-data/v2/items/query', {
        method: 'POST',
        headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ dataCollectionId: 'Movies' }),
      });
    expect((await ask()).status).toBe(200);
    await emulator.clock.advance(45);
    const limited = await ask();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(15);
    expect((await limited.json()).details.applicationError.code).toBe('TOO_MANY_REQUESTS');
  });
});

describe('the clock', () => {
  it('advancing it 4 h makes the next call renew its token once (one token request), then succeed', async () => {
    const visitor = emulator.newVisitor();
    await visitor.items.query('Movies').find();
    const tokenRequests = async () => (await emulator.requests({ operationId: 'token' })).length;
    const before = await tokenRequests();
    const moved = await emulator.clock.advance(4 * 3600);
    expect(moved.offsetSeconds).toBe(4 * 3600);
    await visitor.items.query('Movies').find();
    expect((await tokenRequests()) - before).toBe(1);
    const [, , expired] = await emulator.requests({ limit: 3 });
    expect(expired).toMatchObject({ status: 401, operationId: 'queryDataItems' });
    expect(expired?.decision?.reason).toMatch(/expired/);
  });

  it("records' dates follow it: an item's, a member's", async () => {
    const { now } = await emulator.clock.set('2032-02-29T08:00:00.000Z');
    // The SDK reads dates as Date objects.
    const near = (time: Date | string | undefined) =>
      Math.abs(new Date(time ?? 0).getTime() - Date.parse(now)) < 60_000;
    const item = await emulator.admin.items.insert('Movies', { title: 'Leap day' });
    expect(near(item._createdDate as Date | undefined)).toBe(true);
    const member = await emulator.admin.members.createMember({ member: { loginEmail: 'leap@example.test' } });
    expect(near(member._createdDate as Date | undefined)).toBe(true);
    await emulator.admin.items.remove('Movies', item._id!);
  });

  it('GET and POST /_emulator/clock: set a time, refuse a malformed move', async () => {
    const state = await emulator.clock.set('2030-01-01T00:00:00.000Z');
    expect(Date.parse(state.now) - Date.parse('2030-01-01T00:00:00.000Z')).toBeLessThan(5_000);
    expect((await emulator.clock.now()).offsetSeconds).toBeGreaterThan(0);
    const refused = await emulator.fetch('/_emulator/clock', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 'soon' }),
    });
    expect(refused.status).toBe(400);
    expect((await emulator.clock.reset()).offsetSeconds).toBe(0);
  });

  it('clock.set takes a Date or epoch milliseconds as well as an ISO string; advance moves by seconds', async () => {
    const target = Date.parse('2031-03-04T05:06:07.000Z');
    const near = (state: { now: string }, time: number) => Math.abs(Date.parse(state.now) - time) < 5_000;
    expect(near(await emulator.clock.set(new Date(target)), target)).toBe(true);
    expect(near(await emulator.clock.set(target + 86_400_000), target + 86_400_000)).toBe(true);
    expect(near(await emulator.clock.advance(-3600), target + 86_400_000 - 3_600_000)).toBe(true);
    await emulator.clock.reset();
  });
});

describe('why a call was refused', () => {
  it("a visitor's refused insert keeps the platform's answer; its log entry names the collection and the permission", async () => {
    const refused = await failure(emulator.newVisitor().items.insert('Movies', { title: 'Nope' }));
    expect(isApplicationError(refused) && [refused.status, refused.code]).toEqual([403, 'WDE0027']);
    const [entry] = await emulator.requests({ operationId: 'insert', refused: true, limit: 1 });
    expect(entry?.caller).toMatchObject({ kind: 'visitor', authenticated: true });
    expect(entry?.caller?.visitorId).toEqual(expect.any(String));
    // The log filters by caller: its kind, or a visitor's or member's id.
    const byVisitor = await emulator.requests({ caller: entry!.caller!.visitorId!, limit: 5 });
    expect(byVisitor.map((request) => request.requestId)).toContain(entry!.requestId);
    expect((await emulator.requests({ caller: 'elevated', operationId: 'insert', refused: true })).length).toBe(0);
    expect(entry?.decision).toEqual({
      allowed: false,
      rule: 'Movies: insert needs ADMIN',
      reason: 'the caller is a visitor; an elevated client (API key) would pass',
      collectionId: 'Movies',
      permission: 'insert',
      requiredRole: 'ADMIN',
    });
  });

  it('an allowed read says who passed; an elevated-only operation refused says so', async () => {
    await emulator.newVisitor().items.query('Movies').find();
    const [read] = await emulator.requests({ operationId: 'queryDataItems', limit: 1 });
    expect(read?.decision).toMatchObject({ allowed: true, rule: 'Movies: read needs ANYONE' });
    const response = await emulator.fetch('/wix-data/v2/collections', {
      method: 'POST',
      headers: { authorization: 'not-a-token', 'content-type': 'application/json' },
      body: JSON.stringify({ collection: { id: 'X' } }),
    });
    expect(response.status).toBe(401);
    const [unauthenticated] = await emulator.requests({ status: 401, limit: 1 });
    expect(unauthenticated?.decision).toMatchObject({ allowed: false, rule: '401 UNAUTHENTICATED' });
  });

  it("a member changing another member's item: the decision names the author rule and who would pass", async () => {
    await emulator.admin.collections.createDataCollection({
      _id: 'Notes',
      fields: [{ key: 'text', type: 'TEXT' }],
      permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'ADMIN' },
    });
    const memberClient = async (email: string) =>
      createClient({
        baseUrl: emulator.url,
        auth: OAuthStrategy({ clientId: emulator.info.clientId, tokens: await emulator.signInAs({ email }) }),
      });
    const note = await (await memberClient(TESS.email)).items.insert('Notes', { text: 'mine' });
    const ada = await memberClient('ada@example.com');
    const refused = await failure(ada.items.update('Notes', { _id: note._id!, text: 'yours now' }));
    expect(isApplicationError(refused) && refused.code).toBe('WDE0027');
    const [entry] = await emulator.requests({ operationId: 'update', refused: true, limit: 1 });
    expect(entry?.caller).toMatchObject({ kind: 'member', memberId: expect.any(String) });
    expect(entry?.decision).toMatchObject({
      allowed: false,
      rule: 'Notes: update needs SITE_MEMBER_AUTHOR',
      reason:
        "the caller is a member who is not the item's author; the item's author (a signed-in member) or an elevated client (API key) would pass",
    });
    // Its own item passes, on its own items only.
    await (await memberClient(TESS.email)).items.update('Notes', { _id: note._id!, text: 'still mine' });
    const [allowed] = await emulator.requests({ operationId: 'update', limit: 1 });
    expect(allowed?.decision).toMatchObject({ allowed: true, reason: 'the caller is a member, on its own items only' });

    // In log mode the change goes through, and the log says it would not have.
    await setConfig(emulator, { permissions: 'log' });
    await ada.items.update('Notes', { _id: note._id!, text: 'let through' });
    const [logged] = await emulator.requests({ operationId: 'update', limit: 1 });
    expect(logged).toMatchObject({
      status: 200,
      decision: { allowed: false, enforced: false, rule: 'Notes: update needs SITE_MEMBER_AUTHOR' },
    });
    expect(logged?.decision?.reason).toMatch(/not the item's author.*"log"/);
    expect((await emulator.admin.items.get('Notes', note._id!))?.text).toBe('let through');
  });

  it('permissions: "log" lets the call through and logs what would have been refused', async () => {
    await setConfig(emulator, { permissions: 'log' });
    const inserted = await emulator.newVisitor().items.insert('Movies', { title: 'Let through' });
    expect(inserted._id).toEqual(expect.any(String));
    const [entry] = await emulator.requests({ operationId: 'insert', limit: 1 });
    expect(entry).toMatchObject({ status: 200, decision: { allowed: false, enforced: false, permission: 'insert' } });
    expect(entry?.decision?.reason).toMatch(/"log"/);
    await emulator.admin.items.remove('Movies', inserted._id!);
  });
});

describe('test identities', () => {
  /** `POST /_emulator/import` of `body`. */
  const post = (body: unknown) =>
    emulator.fetch('/_emulator/import', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('signInAs tokens read members/my; the seed declared the member with its fixed id and password', async () => {
    const tokens = await emulator.signInAs({ email: TESS.email });
    const client = createClient({
      baseUrl: emulator.url,
      auth: OAuthStrategy({ clientId: emulator.info.clientId, tokens }),
    });
    const me = (await client.members.getCurrentMember({ fieldsets: ['FULL'] })).member!;
    expect(me).toMatchObject({ _id: TESS.id, loginEmail: TESS.email, loginEmailVerified: true, status: 'APPROVED' });
    // The declared password signs in too.
    const login = await emulator.newVisitor().auth.login({ email: TESS.email, password: TESS.password });
    expect(login.loginState).toBe('SUCCESS');
  });

  it('signInAs by id; a pending member cannot be signed in', async () => {
    const tokens = await emulator.signInAs(TESS.id);
    expect(tokens.refreshToken.role).toBe('member');
    const refused = await failure(emulator.signInAs(PETE.id));
    expect(isApplicationError(refused) && refused.code).toBe('MEMBER_CANNOT_SIGN_IN');
    const pete = await emulator.admin.members.getMember(PETE.id, { fieldsets: ['FULL'] });
    expect(pete).toMatchObject({ status: 'PENDING', loginEmailVerified: false });
  });

  it("signInAs' expiresAt counts in real time, as the SDK compares it, whatever the emulator's clock says", async () => {
    await emulator.clock.advance(3 * 24 * 3600);
    const before = Date.now() / 1000;
    const tokens = await emulator.signInAs(TESS.id);
    const after = Date.now() / 1000;
    // The token's own lifetime (exp - iat, in the emulator's time), counted from now in real time.
    const { exp, iat } = JSON.parse(Buffer.from(tokens.accessToken.value.split('.')[1]!, 'base64url').toString());
    expect(tokens.accessToken.expiresAt).toBeGreaterThanOrEqual(Math.floor(before) + exp - iat);
    expect(tokens.accessToken.expiresAt).toBeLessThanOrEqual(Math.ceil(after) + exp - iat);
  });

  it("storageState's cookie expires is in epoch seconds, a week from now (Playwright's unit)", async () => {
    await emulator.clock.advance(3 * 24 * 3600);
    const before = Math.floor(Date.now() / 1000);
    const { cookies, origins } = await emulator.storageState(TESS.id);
    const [cookie] = cookies;
    expect(origins).toEqual([]);
    const after = Math.ceil(Date.now() / 1000);
    const week = 7 * 24 * 3600;
    expect(cookie!.expires).toBeGreaterThanOrEqual(before + week);
    expect(cookie!.expires).toBeLessThanOrEqual(after + week);
  });

  it('storageState holds the sign-in cookie and, for an app origin, the tokens in localStorage', async () => {
    const path = join(seedDir, 'state.json');
    const state = await emulator.storageState(TESS.id, { appOrigin: 'http://localhost:5173/app', path });
    expect(state.cookies).toEqual([
      {
        name: 'sitekit_emulator_session',
        value: expect.stringMatching(/^browser-session\.[\w-]+$/),
        domain: '127.0.0.1',
        path: '/',
        expires: expect.any(Number),
        httpOnly: true,
        secure: false,
        sameSite: 'Lax',
      },
    ]);
    expect(state.origins).toEqual([
      { origin: 'http://localhost:5173', localStorage: [{ name: 'sitekit.tokens', value: expect.any(String) }] },
    ]);
    const tokens = JSON.parse(state.origins[0]!.localStorage[0]!.value);
    expect(tokens).toMatchObject({ refreshToken: { role: 'member' }, accessToken: { expiresAt: expect.any(Number) } });
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(state);
  });

  it("storageState's tokens go under the app's storage key; a file it cannot write rejects", async () => {
    const state = await emulator.storageState(
      { email: TESS.email },
      { appOrigin: 'http://app.test', storageKey: 'app.tokens' },
    );
    expect(state.origins[0]!.localStorage.map((entry) => entry.name)).toEqual(['app.tokens']);
    expect(state.origins[0]!.origin).toBe('http://app.test');
    await expect(
      emulator.storageState(TESS.id, { path: join(seedDir, 'no-such-folder', 'state.json') }),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('sign-in-as names a member by exactly one of memberId and email, a well-formed one; only an approved member', async () => {
    const signInAs = (body: unknown) =>
      emulator.fetch('/_emulator/sign-in-as', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    /** The status and `details` of a refused sign-in-as. */
    const refusal = async (body: unknown) => {
      const response = await signInAs(body);
      return [response.status, (await response.json()).details];
    };
    const violation = (field: string, description: string, violatedRule: string) => [
      400,
      { validationError: { fieldViolations: [{ field, description, violatedRule }] } },
    ];
    const application = (status: number, code: string, description: string) => [
      status,
      { applicationError: { code, description } },
    ];
    const oneOf = violation('memberId', 'name the member by exactly one of memberId and email', 'REQUIRED_FIELD');
    expect(await refusal({ memberId: TESS.id, email: TESS.email })).toEqual(oneOf);
    expect(await refusal({})).toEqual(oneOf);
    expect(await refusal({ email: 'tess@example' })).toEqual(violation('email', 'must be an email address', 'FORMAT'));
    expect(await refusal({ email: 'nobody@example.test' })).toEqual(
      application(404, 'MEMBER_NOT_FOUND', 'No member nobody@example.test'),
    );
    expect(await refusal({ memberId: 'ghost' })).toEqual(application(404, 'MEMBER_NOT_FOUND', 'No member ghost'));
    await post({ members: [{ id: 'blocked-2', email: 'blocked-2@example.test', status: 'BLOCKED' }] });
    expect(await refusal({ memberId: 'blocked-2' })).toEqual(
      application(
        409,
        'MEMBER_CANNOT_SIGN_IN',
        'Member blocked-2 is BLOCKED: only an approved member can sign in (approve it first)',
      ),
    );
    // Tokens only: no sign-in cookie unless browserSession asks for it.
    for (const body of [{ email: TESS.email }, { email: TESS.email, browserSession: false }]) {
      const signedIn = await signInAs(body);
      expect([signedIn.status, signedIn.headers.get('set-cookie')]).toEqual([200, null]);
    }
    expect((await signInAs({ email: TESS.email, browserSession: true })).headers.get('set-cookie')).toMatch(
      /^sitekit_emulator_session=/,
    );
  });

  it("signInAs' refresh token renews through the site's client", async () => {
    const tokens = await emulator.signInAs(TESS.id);
    const renewed = await emulator.fetch('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grantType: 'refresh_token',
        clientId: emulator.info.clientId,
        refreshToken: tokens.refreshToken.value,
      }),
    });
    expect(renewed.status).toBe(200);
  });

  it('a declared member replaces the one with its id or its email, signed out; its nickname is its profile', async () => {
    await post({ members: [{ id: 'twin-1', email: 'twin@example.test', nickname: 'First' }] });
    const signedIn = await emulator.signInAs('twin-1');
    const mine = () =>
      emulator.fetch('/members/v1/members/my', { headers: { authorization: signedIn.accessToken.value } });
    expect((await mine()).status).toBe(200);
    // Same email, another id: the first member is gone, its tokens with it.
    expect((await post({ members: [{ id: 'twin-2', email: 'Twin@example.test', nickname: 'Second' }] })).status).toBe(
      200,
    );
    expect((await mine()).status).toBe(401);
    expect(isApplicationError(await failure(emulator.admin.members.getMember('twin-1')))).toBe(true);
    const second = await emulator.admin.members.getMember('twin-2', { fieldsets: ['FULL'] });
    expect(second).toMatchObject({ loginEmail: 'twin@example.test', profile: { nickname: 'Second' } });
    // Same id, declared again: signed out too.
    const again = await emulator.signInAs('twin-2');
    await post({ members: [{ id: 'twin-2', email: 'twin@example.test' }] });
    const refused = await emulator.fetch('/members/v1/members/my', {
      headers: { authorization: again.accessToken.value },
    });
    expect(refused.status).toBe(401);
    // Same id, another email: the member with that id is replaced.
    expect((await post({ members: [{ id: 'twin-2', email: 'twin-renamed@example.test' }] })).status).toBe(200);
    expect((await emulator.admin.members.getMember('twin-2', { fieldsets: ['FULL'] })).loginEmail).toBe(
      'twin-renamed@example.test',
    );
  });

  it('an import adds declared members; a malformed declaration changes nothing', async () => {
    const bad = await post({ members: [{ email: 'not an email', status: 'SLEEPING' }] });
    expect(bad.status).toBe(400);
    const fields = (await bad.json()).details.validationError.fieldViolations.map((v: { field: string }) => v.field);
    expect(fields).toEqual(['members.0.email', 'members.0.status']);
    const added = await post({ members: [{ id: 'blocked-1', email: 'blocked@example.test', status: 'BLOCKED' }] });
    expect(await added.json()).toMatchObject({ members: ['blocked-1'] });
    expect((await emulator.admin.items.query('Movies').find()).items.length).toBeGreaterThan(0);
    expect((await emulator.admin.members.getMember('blocked-1', { fieldsets: ['FULL'] })).status).toBe('BLOCKED');
  });
});

describe('the test bench of a site of its own', () => {
  it('its config, snapshots, outbox and reset act on that site; removed, it is gone', async () => {
    const site = await emulator.createSite({ from: 'empty' });
    const admin = createClient({
      baseUrl: site.info.url,
      auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
    });
    expect(
      await admin.items
        .query('Movies')
        .count()
        .catch((error: unknown) => error),
    ).toSatisfy(isApplicationError);
    expect(await site.config.update({ rateLimitPerMinute: 7 })).toMatchObject({ rateLimitPerMinute: 7 });
    expect(await site.config.get()).toMatchObject({ rateLimitPerMinute: 7 });
    expect(await emulator.config.get()).toMatchObject({ rateLimitPerMinute: 0 });

    const saved = await site.snapshots.save('empty');
    expect(saved).toMatchObject({ name: 'empty', replaced: false, sizeBytes: expect.any(Number) });
    expect((await site.snapshots.save('empty')).replaced).toBe(true);
    await admin.collections.createDataCollection({
      _id: 'Later',
      permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    expect(await site.snapshots.restore('empty')).toMatchObject({ name: 'empty' });
    expect((await admin.collections.listDataCollections()).collections).toEqual([]);
    expect((await site.snapshots.list()).map((snapshot) => snapshot.name)).toEqual(['empty']);
    expect(await emulator.snapshots.list()).toEqual([]);
    await site.snapshots.remove('empty');
    expect(await site.snapshots.list()).toEqual([]);
    expect(isApplicationError(await failure(site.snapshots.restore('empty')))).toBe(true);

    const email = `site-${Date.now()}@example.test`;
    const visitor = createClient({ baseUrl: site.info.url, auth: OAuthStrategy({ clientId: site.info.clientId }) });
    await visitor.auth.register({ email, password: 'site password 1' });
    await visitor.auth.sendPasswordResetEmail(email, 'http://localhost:4000/reset');
    expect((await site.outbox(email)).map((sent) => sent.to)).toEqual([email]);
    expect(await site.outbox('nobody@example.test')).toEqual([]);
    expect(await emulator.outbox(email)).toEqual([]);

    expect(await site.reset({ seed: false })).toEqual({ reset: true, seeded: false });
    expect(await site.outbox()).toEqual([]);
    expect(await site.reset()).toEqual({ reset: true, seeded: true });
    expect(await admin.items.query('Movies').count()).toBe(300);

    await site.remove();
    expect(isApplicationError(await failure(site.config.get()))).toBe(true);
  });
});

describe('webhooks on demand', () => {
  let receiver: Server;
  let receiverUrl: string;
  /** Waiters for the next bodies the receiver gets. */
  const waiting: ((body: string) => void)[] = [];
  const nextBody = () => new Promise<string>((resolve) => waiting.push(resolve));

  beforeAll(async () => {
    receiver = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      response.writeHead(200).end();
      waiting.shift()?.(body);
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => receiver?.close());

  const app = (): Client =>
    createClient({
      baseUrl: emulator.url,
      auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
      webhooks: { publicKey: emulator.info.publicKey },
    });

  it('a triggered event verifies with client.webhooks.process and carries a real entity', async () => {
    const received = nextBody();
    const sent = await emulator.trigger('wix.data.v2.data_item_updated', { collection: 'Movies', urls: [receiverUrl] });
    const client = app();
    const seen: unknown[] = [];
    client.items.onDataItemUpdated((event) => void seen.push(event));
    await client.webhooks.process(await received);
    expect(seen).toEqual([
      expect.objectContaining({
        metadata: expect.objectContaining({ eventType: 'wix.data.v2.data_item_updated', entityId: sent.entityId }),
      }),
    ]);
  });

  it('a delivery can be sent again; a badly signed event is refused by the app', async () => {
    const first = nextBody();
    const sent = await emulator.trigger('wix.members.v1.member_created', { id: TESS.id, urls: [receiverUrl] });
    await first;
    const { deliveries } = await emulator.control.call('listWebhookDeliveries');
    const delivery = deliveries.find((entry) => entry.eventId == sent.eventId)!;
    const again = nextBody();
    const resent = await emulator.control.call('redeliverWebhook', { body: { deliveryId: delivery.id } });
    expect(resent).toEqual({ eventId: sent.eventId, url: receiverUrl });
    const processed = await app().webhooks.process(await again);
    expect(processed).toMatchObject({
      eventType: 'wix.members.v1.member_created',
      payload: { metadata: { id: sent.eventId, entityId: TESS.id } },
    });

    const forged = nextBody();
    await emulator.trigger('wix.members.v1.member_created', { urls: [receiverUrl], badSignature: true });
    expect(isWebhookError(await failure(app().webhooks.process(await forged)))).toBe(true);
  });

  it("events carry the emulator's time: a write's, an upload's and a triggered one's", async () => {
    const { now } = await emulator.clock.set('2031-06-01T12:00:00.000Z');
    const seen: DomainEvent[] = [];
    const unsubscribe = emulator.context.events.subscribe((event) => void seen.push(event));
    try {
      await emulator.admin.items.insert('Movies', { title: 'Timed' });
      // Published by the upload's own code, not by a table route.
      await emulator.admin.media.upload(new Blob(['timed'], { type: 'text/plain' }), { fileName: 'timed.txt' });
      await vi.waitFor(() => expect(seen.map((event) => event.slug)).toContain('file_ready'), { timeout: 10_000 });
      const fileReady = seen.find((event) => event.slug == 'file_ready')!;
      const received = nextBody();
      await emulator.trigger('wix.members.v1.member_updated', { id: TESS.id, urls: [receiverUrl] });
      const processed = await app().webhooks.process(await received);
      for (const time of [seen[0]!.eventTime, fileReady.eventTime, String(processed.payload.metadata.eventTime)])
        expect(Math.abs(Date.parse(time) - Date.parse(now))).toBeLessThan(60_000);
    } finally {
      unsubscribe();
      await emulator.clock.reset();
    }
  });

  it('sitekit-sdk emulator trigger sends one to --forward-to', async () => {
    const received = nextBody();
    const output: string[] = [];
    const io = {
      stdout: (text: string) => void output.push(text),
      stderr: (text: string) => void output.push(text),
      env: {},
    };
    const code = await runCommand(
      [
        'emulator',
        'trigger',
        'wix.members.v1.member_updated',
        '--id',
        TESS.id,
        '--forward-to',
        receiverUrl,
        '--emulator',
        emulator.url,
      ],
      io,
    );
    expect([code, output.join('')]).toEqual([
      0,
      expect.stringContaining(`wix.members.v1.member_updated of ${TESS.id}`),
    ]);
    const processed = await app().webhooks.process(await received);
    expect(processed.eventType).toBe('wix.members.v1.member_updated');
    expect(await runCommand(['emulator', 'trigger', 'wix.unknown', '--emulator', emulator.url], io)).toBe(1);
    expect(await runCommand(['emulator', 'trigger'], io)).toBe(2);
    // --url names a live site in every command: trigger's old name for the emulator is refused, naming the new one.
    output.length = 0;
    expect(await runCommand(['emulator', 'trigger', 'wix.unknown', '--url', emulator.url], io)).toBe(2);
    expect(output.join('')).toContain('--emulator <url>');
  });

  it('an unknown event type or entity is refused', async () => {
    expect(isValidationError(await failure(emulator.trigger('wix.nothing', { urls: [receiverUrl] })))).toBe(true);
    const missing = await failure(
      emulator.trigger('wix.data.v2.data_item_created', { collection: 'Nope', urls: [receiverUrl] }),
    );
    expect(isApplicationError(missing) && missing.status).toBe(404);
  });
});
