/**
 * Webhooks: every committed domain event is POSTed to each URL of the `webhookUrls` setting, as
 * the platform does it: the body is a JWT signed RS256 with the site's key pair (public key in
 * `/_emulator/info`) whose `data` claim is the JSON string `{eventType, instanceId, identity, data}`
 * (`identity` and `data` JSON strings themselves). A failed delivery (no answer, or not 2xx) is
 * retried with exponential backoff; every attempt is in `GET /_emulator/webhooks`.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair, type CryptoKey } from 'jose';
import { inBackground } from '../../background.js';
import { atLeast } from '../../config.js';
import type { DomainEvent } from '../../events.js';
import { applicationError, invalidField } from '../../errors.js';
import type { WebhookDelivery } from '../../control/api.js';
import { controlRoute } from '../../control/register.js';
import { eventForTrigger } from './trigger.js';
import type { EmulatorContext, ServiceModule } from '../../service.js';
import { SIGNING_ALGORITHM } from '../../site.js';

export type { WebhookDelivery };

/** How long a receiver has to answer one attempt. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a signed event stays valid (covers every retry). */
const TOKEN_LIFETIME_SECONDS = 60 * 60;

/** The signed body of an event (wire.md, "Domain events"), signed with the site's key unless another is given. */
async function signEvent(
  context: EmulatorContext,
  event: DomainEvent,
  eventId: string,
  key: CryptoKey = context.site.privateKey,
): Promise<string> {
  const { eventType, identity, ...rest } = event;
  const data = { id: eventId, ...rest };
  const envelope = {
    eventType,
    instanceId: context.site.siteId,
    ...(identity ? { identity: JSON.stringify(identity) } : {}),
    data: JSON.stringify(data),
  };
  // Real time, not the emulator's clock: the receiving app checks the expiry on its own clock.
  return new SignJWT({ data: JSON.stringify(envelope) })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM })
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + TOKEN_LIFETIME_SECONDS)
    .sign(key);
}

/** The deliveries of one emulator: timers to cancel and attempts in flight, so close() leaves nothing running. */
interface Dispatcher {
  closed: boolean;
  /** Aborted on close: attempts in flight stop waiting for their receiver. */
  stop: AbortController;
  timers: Set<NodeJS.Timeout>;
  inFlight: Set<Promise<void>>;
}

/** Records an attempt (the emulator may have closed meanwhile: then there is nothing to record in). */
function record(context: EmulatorContext, dispatcher: Dispatcher, delivery: WebhookDelivery): void {
  if (dispatcher.closed) return;
  context.store.run(
    'INSERT INTO webhook_deliveries (id, event_id, url, event_type, attempt, status, error, time, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [
      delivery.id,
      delivery.eventId,
      delivery.url,
      delivery.eventType,
      delivery.attempt,
      delivery.status ?? null,
      delivery.error ?? null,
      delivery.time,
      delivery.durationMs,
    ],
  );
}

/** One attempt; schedules the next one when it fails and attempts remain. */
async function attempt(
  context: EmulatorContext,
  dispatcher: Dispatcher,
  url: string,
  body: string,
  eventId: string,
  eventType: string,
  number: number,
): Promise<void> {
  const started = Date.now();
  let status: number | undefined;
  let error: string | undefined;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body,
      signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), dispatcher.stop.signal]),
    });
    status = response.status;
    await response.body?.cancel();
    if (!response.ok) error = `the receiver answered ${status}`;
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause);
  }
  record(context, dispatcher, {
    id: randomUUID(),
    eventId,
    url,
    eventType,
    attempt: number,
    ...(status !== undefined ? { status } : {}),
    ...(error ? { error } : {}),
    time: new Date(started).toISOString(),
    durationMs: Date.now() - started,
  });
  if (!error || dispatcher.closed || number >= context.config.get<number>('webhookMaxAttempts')) return;
  const delay = context.config.get<number>('webhookRetryBaseMs') * 2 ** (number - 1);
  const timer = setTimeout(() => {
    dispatcher.timers.delete(timer);
    track(dispatcher, attempt(context, dispatcher, url, body, eventId, eventType, number + 1));
  }, delay);
  dispatcher.timers.add(timer);
}

const track = (dispatcher: Dispatcher, attemptInFlight: Promise<void>) => {
  const work = inBackground(attemptInFlight, 'webhook delivery');
  dispatcher.inFlight.add(work);
  void work.finally(() => dispatcher.inFlight.delete(work));
};

/** The webhooks module. */
export const webhooksService: ServiceModule = {
  name: 'webhooks',
  migrations: [
    {
      id: 'webhooks-001-deliveries',
      sql: `CREATE TABLE webhook_deliveries (
        sequence INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        event_id TEXT NOT NULL,
        url TEXT NOT NULL,
        event_type TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        status INTEGER,
        error TEXT,
        time TEXT NOT NULL,
        duration_ms INTEGER NOT NULL
      )`,
    },
    {
      // The events sent, so a delivery can be sent again (signed anew: the first body may have expired).
      id: 'webhooks-002-events',
      sql: 'CREATE TABLE webhook_events (event_id TEXT PRIMARY KEY, event TEXT NOT NULL, bad_signature INTEGER NOT NULL)',
    },
  ],
  config: {
    webhookUrls: {
      default: [],
      description:
        'URLs every domain event is POSTed to, as a JWT signed RS256 with the key in /_emulator/info (verify with client.webhooks.process).',
      check: (value) =>
        (value as string[]).every((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol))
          ? undefined
          : 'must be a list of http(s) URLs',
    },
    webhookMaxAttempts: {
      default: 5,
      description: 'Attempts per webhook delivery before giving up (the first included).',
      check: atLeast(1),
    },
    webhookRetryBaseMs: {
      default: 1000,
      description: 'Wait before the first retry of a failed webhook, in ms; doubled before each next one.',
      check: atLeast(1),
    },
  },
  routes(app, context) {
    const dispatcher: Dispatcher = {
      closed: false,
      stop: new AbortController(),
      timers: new Set(),
      inFlight: new Set(),
    };
    // A key pair that is not the site's, for events sent with a bad signature on purpose.
    let foreignKey: Promise<CryptoKey> | undefined;
    /** Signs `event` and sends it to `urls`; keeps it for a later re-send. */
    const send = async (
      event: DomainEvent,
      urls: readonly string[],
      badSignature: boolean,
      eventId: string = randomUUID(),
    ) => {
      const key = badSignature
        ? await (foreignKey ??= generateKeyPair(SIGNING_ALGORITHM).then((pair) => pair.privateKey))
        : context.site.privateKey;
      const body = await signEvent(context, event, eventId, key);
      if (dispatcher.closed) return eventId;
      context.store.run('INSERT OR IGNORE INTO webhook_events (event_id, event, bad_signature) VALUES (?, ?, ?)', [
        eventId,
        JSON.stringify(event),
        badSignature ? 1 : 0,
      ]);
      for (const url of urls) track(dispatcher, attempt(context, dispatcher, url, body, eventId, event.eventType, 1));
      return eventId;
    };
    const unsubscribe = context.events.subscribe(async (event) => {
      const urls = context.config.get<string[]>('webhookUrls');
      if (!urls.length || dispatcher.closed) return;
      await send(event, urls, false);
    });

    // A domain event of any type on demand (`sitekit-sdk emulator trigger`), to the given URLs or webhookUrls.
    controlRoute(app, 'triggerEvent', async ({ body }) => {
      const urls = body.urls ?? context.config.get<string[]>('webhookUrls');
      if (!urls.length)
        throw invalidField('urls', 'no URL to send to: pass urls or set the config webhookUrls', 'REQUIRED_FIELD');
      const event = eventForTrigger(context, body);
      const eventId = await send(event, urls, body.badSignature === true);
      return { eventId, eventType: event.eventType, entityId: event.entityId, urls };
    });
    // Sends a logged delivery's event again, to the same URL, as a new delivery of the same event id.
    controlRoute(app, 'redeliverWebhook', async ({ body: { deliveryId } }) => {
      const row = context.store.get<{ url: string; event: string; event_id: string; bad_signature: number }>(
        `SELECT deliveries.url, events.event, events.event_id, events.bad_signature
         FROM webhook_deliveries deliveries JOIN webhook_events events ON events.event_id = deliveries.event_id
         WHERE deliveries.id = ?`,
        [deliveryId],
      );
      if (!row) throw applicationError(404, 'NOT_FOUND', `No delivery ${deliveryId} with a kept event`);
      await send(JSON.parse(row.event) as DomainEvent, [row.url], row.bad_signature == 1, row.event_id);
      return { eventId: row.event_id, url: row.url };
    });

    controlRoute(app, 'listWebhookDeliveries', ({ query }) => {
      const rows = context.store.all<{
        id: string;
        event_id: string;
        url: string;
        event_type: string;
        attempt: number;
        status: number | null;
        error: string | null;
        time: string;
        duration_ms: number;
      }>('SELECT * FROM webhook_deliveries ORDER BY sequence DESC LIMIT ?', [query.limit ?? 200]);
      const deliveries: WebhookDelivery[] = rows.map((row) => ({
        id: row.id,
        eventId: row.event_id,
        url: row.url,
        eventType: row.event_type,
        attempt: row.attempt,
        ...(row.status !== null ? { status: row.status } : {}),
        ...(row.error !== null ? { error: row.error } : {}),
        time: row.time,
        durationMs: row.duration_ms,
      }));
      return { deliveries };
    });

    app.addHook('onClose', async () => {
      dispatcher.closed = true;
      dispatcher.stop.abort();
      unsubscribe();
      for (const timer of dispatcher.timers) clearTimeout(timer);
      await Promise.allSettled([...dispatcher.inFlight]);
    });
  },
};
