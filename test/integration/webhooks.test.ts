/**
 * Domain events as webhooks: the emulator POSTs each committed write's event, signed RS256 with
 * its key, to the configured URLs; an app's `client.webhooks.process` verifies and dispatches it.
 * Failed deliveries are retried with backoff, and every attempt is in the delivery log.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeyStrategy, createClient, isWebhookError, type Client } from '../../src/index.js';
import type { WebhookDelivery } from '../../emulator/services/webhooks/service.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { newEmail, setConfig } from '../helpers/sign-in.js';

let emulator: TestEmulator;
let receiver: Server;
let receiverUrl: string;
/** Bodies received, in order. */
const received: { path: string; body: string; contentType?: string }[] = [];
/** Answers the receiver gives, in order (then 200). */
const answers: number[] = [];
/** While set, the receiver waits for it before answering (a slow app). */
let held: Promise<void> | undefined;

const readBody = async (request: IncomingMessage) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
};

beforeAll(async () => {
  emulator = await startEmulator();
  receiver = createServer(async (request, response) => {
    const body = await readBody(request);
    received.push({ path: request.url ?? '', body, contentType: request.headers['content-type'] });
    await held;
    response.writeHead(answers.shift() ?? 200).end();
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await emulator?.close();
  receiver?.close();
});
afterEach(async () => {
  await setConfig(emulator, { webhookUrls: [], webhookRetryBaseMs: 1000 });
  received.length = 0;
  answers.length = 0;
  held = undefined;
});

/** The delivery log as `GET /_emulator/webhooks` gives it. */
const deliveryLog = async (): Promise<WebhookDelivery[]> =>
  (await emulator.control.call('listWebhookDeliveries')).deliveries;

/** What `read` gives once it gives something: a time limit for a loaded machine, not a count of polls. */
function until<T>(read: () => T | undefined, what: string): Promise<T> {
  return vi.waitFor(
    () => {
      const value = read();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** The app receiving the webhooks: the SDK with the emulator's public key. */
const app = (): Client =>
  createClient({
    baseUrl: emulator.url,
    auth: ApiKeyStrategy({ apiKey: emulator.info.apiKey, siteId: emulator.info.siteId }),
    webhooks: { publicKey: emulator.info.publicKey },
  });

describe('webhooks', () => {
  it('a member created through the API reaches the app, verified and dispatched by client.webhooks.process', async () => {
    await setConfig(emulator, { webhookUrls: [`${receiverUrl}/hooks/members`] });
    const email = `hooked-${Date.now()}@example.test`;
    const member = await emulator.admin.members.createMember({
      member: { loginEmail: email, profile: { nickname: 'Hooked' } },
    });

    const delivery = await until(() => received.find((entry) => entry.path == '/hooks/members'), 'the webhook');
    expect(delivery.body.split('.')).toHaveLength(3);
    const client = app();
    const seen: unknown[] = [];
    client.members.onMemberCreated((event) => void seen.push(event));
    const processed = await client.webhooks.process(delivery.body);
    expect(processed).toMatchObject({
      eventType: 'wix.members.v1.member_created',
      instanceId: emulator.info.siteId,
      handled: 1,
    });
    expect(seen[0]).toMatchObject({
      entity: { _id: member._id, loginEmail: email, profile: { nickname: 'Hooked' } },
      metadata: { entityId: member._id, eventType: 'wix.members.v1.member_created' },
    });
    expect((seen[0] as { metadata: { eventTime: unknown } }).metadata.eventTime).toBeInstanceOf(Date);
  });

  it('item and file events arrive too; a body signed by another key is refused', async () => {
    await setConfig(emulator, { webhookUrls: [receiverUrl] });
    await emulator.admin.items.insert('Movies', { title: 'Webhooked' });
    await emulator.admin.media.upload(new Blob(['event'], { type: 'text/plain' }), { fileName: 'event.txt' });
    const client = app();
    const types = new Set<string>();
    await until(() => (received.length >= 2 ? true : undefined), 'two webhooks');
    for (const entry of received) types.add((await client.webhooks.process(entry.body)).eventType);
    expect(types).toEqual(
      new Set(['wix.data.v2.data_item_created', 'wix.media.site_media.v1.file_descriptor_file_ready']),
    );

    const forged = received[0]!.body.replace(/\.[^.]+$/, '.c2lnbmF0dXJl');
    const error = await client.webhooks.process(forged).catch((caught: unknown) => caught);
    expect(isWebhookError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_SIGNATURE' });
  });

  it('retries a failing receiver with backoff and logs every attempt', async () => {
    await setConfig(emulator, { webhookUrls: [`${receiverUrl}/flaky`], webhookRetryBaseMs: 20 });
    answers.push(500, 503);
    await emulator.admin.members.createMember({ member: { loginEmail: `flaky-${Date.now()}@example.test` } });
    await until(
      () => (received.filter((entry) => entry.path == '/flaky').length == 3 ? true : undefined),
      'three attempts',
    );
    const bodies = new Set(received.map((entry) => entry.body));
    expect(bodies.size).toBe(1);

    const { deliveries } = (await (await emulator.fetch('/_emulator/webhooks')).json()) as {
      deliveries: {
        url: string;
        attempt: number;
        status?: number;
        error?: string;
        eventType: string;
        eventId: string;
      }[];
    };
    const flaky = deliveries.filter((entry) => entry.url.endsWith('/flaky'));
    expect(flaky.map((entry) => [entry.attempt, entry.status])).toEqual([
      [3, 200],
      [2, 503],
      [1, 500],
    ]);
    expect(flaky[1]!.error).toContain('503');
    expect(new Set(flaky.map((entry) => entry.eventId)).size).toBe(1);
    expect(flaky[0]!.eventType).toBe('wix.members.v1.member_created');
  });

  it('a refused write sends nothing', async () => {
    await setConfig(emulator, { webhookUrls: [receiverUrl] });
    await emulator.admin.members.createMember({ member: { loginEmail: 'not an email' } }).catch(() => undefined);
    // A write after it: once its webhook is in, one the refused write had sent would be in before it.
    const marker = await emulator.admin.members.createMember({ member: { loginEmail: newEmail('marker') } });
    await until(() => (received.length ? received : undefined), 'the webhook of the write after it');
    expect(received).toHaveLength(1);
    const processed = await app().webhooks.process(received[0]!.body);
    expect(processed.payload.metadata.entityId).toBe(marker._id);
  });

  it('logs a delivery as sending before the receiver answers, with the payload the app will verify', async () => {
    let answer!: () => void;
    held = new Promise((resolve) => (answer = resolve));
    const sent = await emulator.trigger('wix.members.v1.member_updated', { urls: [`${receiverUrl}/slow`] });
    const sending = (await deliveryLog()).find((delivery) => delivery.eventId == sent.eventId);
    expect(sending).toMatchObject({ eventId: sent.eventId, outcome: 'sending', badSignature: false, attempt: 1 });
    expect(sending!.status).toBeUndefined();
    expect(sending!.payload).toMatchObject({
      eventType: 'wix.members.v1.member_updated',
      instanceId: emulator.info.siteId,
      identity: { identityType: 'APP' },
      data: { id: sent.eventId, entityId: sent.entityId },
    });
    answer();
    await expect
      .poll(async () => (await deliveryLog()).find((delivery) => delivery.eventId == sent.eventId))
      .toMatchObject({ outcome: 'delivered', status: 200 });
    const processed = await app().webhooks.process(received[0]!.body);
    expect(processed.payload.metadata).toMatchObject({ id: sent.eventId, _id: sent.eventId, entityId: sent.entityId });
  });

  it('a badly signed event the receiver refuses is its expected outcome, not retried; one accepted is flagged', async () => {
    await setConfig(emulator, { webhookRetryBaseMs: 1 });
    answers.push(401);
    const refused = await emulator.trigger('wix.members.v1.member_created', {
      urls: [`${receiverUrl}/strict`],
      badSignature: true,
    });
    const outcomeOf = async (eventId: string) =>
      (await deliveryLog()).find((delivery) => delivery.eventId == eventId)?.outcome;
    await expect.poll(() => outcomeOf(refused.eventId)).toBe('refused');
    // A retry would come 1 ms after the refusal, well before this next event is signed and sent.
    const accepted = await emulator.trigger('wix.members.v1.member_created', {
      urls: [`${receiverUrl}/lax`],
      badSignature: true,
    });
    await expect.poll(() => outcomeOf(accepted.eventId)).toBe('accepted-bad-signature');
    expect(received.map((entry) => entry.path)).toEqual(['/strict', '/lax']);
    const log = (await deliveryLog()).filter((delivery) =>
      [refused.eventId, accepted.eventId].includes(delivery.eventId),
    );
    expect(
      log.map(({ eventId, outcome, status, badSignature, error }) => ({
        eventId,
        outcome,
        status,
        badSignature,
        error,
      })),
    ).toEqual([
      {
        eventId: accepted.eventId,
        outcome: 'accepted-bad-signature',
        status: 200,
        badSignature: true,
        error: undefined,
      },
      { eventId: refused.eventId, outcome: 'refused', status: 401, badSignature: true, error: undefined },
    ]);
  });
});
