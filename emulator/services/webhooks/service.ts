/**
 * Webhooks: every committed domain event is POSTed to each URL of the `webhookUrls` setting, as
 * the platform does it: the body is a JWT signed RS256 with the site's key pair (public key in
 * `/_emulator/info`) whose `data` claim is the JSON string `{eventType, instanceId, identity, data}`
 * (`identity` and `data` JSON strings themselves). A failed delivery (no answer, or not 2xx) is
 * retried with exponential backoff; every attempt is in `GET /_emulator/webhooks`, from the moment
 * it is sent. An event signed with a wrong key on purpose is meant to be refused: a refusal is its
 * expected outcome (not retried), and accepting it is what the log flags.
 */
import { randomUUID } from 'node:crypto';
import { SignJWT, generateKeyPair, type CryptoKey } from 'jose';
import { inBackground } from '../../background.js';
import { atLeast } from '../../config.js';
import type { DomainEvent } from '../../events.js';
import { applicationError, invalidField } from '../../errors.js';
import type { DeliveryOutcome, EventPayload, WebhookDelivery } from '../../control/api.js';
import { controlRoute } from '../../control/register.js';
import { eventForTrigger } from './trigger.js';
import type { EmulatorContext, ServiceModule } from '../../service.js';
import { SIGNING_ALGORITHM } from '../../site.js';

export type { DeliveryOutcome, EventPayload, WebhookDelivery };

/** How long a receiver has to answer one attempt. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/** How long a signed event stays valid (covers every retry). */
const TOKEN_LIFETIME_SECONDS = 60 * 60;

/** The payload of an event (wire.md, "Domain events"): what the signed claim holds, parsed. */
function payloadOf(context: EmulatorContext, event: DomainEvent, eventId: string): EventPayload {
  const { eventType, identity, ...rest } = event;
  return {
    eventType,
    instanceId: context.site.siteId,
    ...(identity ? { identity } : {}),
    data: { id: eventId, ...rest },
  };
}

/** The signed body of an event, signed with the site's key unless another is given. */
async function signEvent(
  context: EmulatorContext,
  event: DomainEvent,
  eventId: string,
  key: CryptoKey = context.site.privateKey,
): Promise<string> {
  const { identity, data, ...envelope } = payloadOf(context, event, eventId);
  // The platform sends `identity` and `data` as JSON strings inside the claim's JSON string.
  const claim = {
    ...envelope,
    ...(identity ? { identity: JSON.stringify(identity) } : {}),
    data: JSON.stringify(data),
  };
  // Real time, not the emulator's clock: the receiving app checks the expiry on its own clock.
  return new SignJWT({ data: JSON.stringify(claim) })
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

/**
 * Why a receiver did not answer, in its own terms: fetch's "fetch failed" says nothing, its cause's
 * code does (`ECONNREFUSED`: nothing listens there); a time-out says how long it waited.
 */
function networkReason(cause: unknown): string {
  if (cause instanceof Error && cause.name == 'TimeoutError') return `none within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
  const inner = cause instanceof Error ? (cause.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (typeof inner?.code == 'string') return inner.code;
  if (typeof inner?.message == 'string') return inner.message;
  return cause instanceof Error ? cause.message : String(cause);
}

/** What one attempt sends: the signed body of one event, to one URL. */
interface Sending {
  url: string;
  body: string;
  eventId: string;
  eventType: string;
  badSignature: boolean;
}

/** How an answered (or unanswered) attempt ended, and the error to show when it failed. */
function outcomeOf(sending: Sending, status: number | undefined, networkError: string | undefined) {
  const ok = status !== undefined && status >= 200 && status < 300;
  if (sending.badSignature && status !== undefined)
    return ok ? { outcome: 'accepted-bad-signature' as const } : { outcome: 'refused' as const };
  if (ok) return { outcome: 'delivered' as const };
  return { outcome: 'failed' as const, error: networkError ?? `the receiver answered ${status}` };
}

/** One attempt, logged as sending at once; schedules the next one when it fails and attempts remain. */
async function attempt(context: EmulatorContext, dispatcher: Dispatcher, sending: Sending, number: number) {
  if (dispatcher.closed) return;
  const started = Date.now();
  const id = randomUUID();
  // Logged before the receiver answers, so the log shows the delivery as soon as it is sent.
  context.store.run(
    `INSERT INTO webhook_deliveries (id, event_id, url, event_type, attempt, outcome, time, duration_ms)
     VALUES (?, ?, ?, ?, ?, 'sending', ?, 0)`,
    [id, sending.eventId, sending.url, sending.eventType, number, new Date(started).toISOString()],
  );
  let status: number | undefined;
  let networkError: string | undefined;
  try {
    const response = await fetch(sending.url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: sending.body,
      signal: AbortSignal.any([AbortSignal.timeout(ATTEMPT_TIMEOUT_MS), dispatcher.stop.signal]),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (cause) {
    networkError = `no answer from the receiver (${networkReason(cause)})`;
  }
  // The emulator may have closed meanwhile: then there is nothing to record in.
  if (dispatcher.closed) return;
  const { outcome, error } = outcomeOf(sending, status, networkError);
  context.store.run('UPDATE webhook_deliveries SET outcome = ?, status = ?, error = ?, duration_ms = ? WHERE id = ?', [
    outcome,
    status ?? null,
    error ?? null,
    Date.now() - started,
    id,
  ]);
  if (outcome !== 'failed' || number >= context.config.get<number>('webhookMaxAttempts')) return;
  const delay = context.config.get<number>('webhookRetryBaseMs') * 2 ** (number - 1);
  const timer = setTimeout(() => {
    dispatcher.timers.delete(timer);
    track(dispatcher, attempt(context, dispatcher, sending, number + 1));
  }, delay);
  dispatcher.timers.add(timer);
}

const track = (dispatcher: Dispatcher, attemptInFlight: Promise<void>) => {
  const work = inBackground(attemptInFlight, 'webhook delivery');
  dispatcher.inFlight.add(work);
  void work.finally(() => dispatcher.inFlight.delete(work));
};

/** Signs an event and sends it to URLs (a new delivery of `eventId` when given); answers the event id. */
type EventSender = (
  event: DomainEvent,
  urls: readonly string[],
  badSignature: boolean,
  eventId?: string,
) => Promise<string>;

/** Each site's sender, made when the site starts (its dispatcher stops with the site). */
const senders = new WeakMap<EmulatorContext, EventSender>();

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
    {
      // How each attempt ended, kept apart from the status: a refusal is the expected end of a bad signature.
      id: 'webhooks-003-outcome',
      sql: `ALTER TABLE webhook_deliveries ADD COLUMN outcome TEXT NOT NULL DEFAULT 'delivered';
        UPDATE webhook_deliveries SET outcome = 'failed' WHERE error IS NOT NULL`,
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
  start(context) {
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
      for (const url of urls)
        track(
          dispatcher,
          attempt(context, dispatcher, { url, body, eventId, eventType: event.eventType, badSignature }, 1),
        );
      return eventId;
    };
    const unsubscribe = context.events.subscribe(async (event) => {
      const urls = context.config.get<string[]>('webhookUrls');
      if (!urls.length || dispatcher.closed) return;
      await send(event, urls, false);
    });
    senders.set(context, send);
    return async () => {
      dispatcher.closed = true;
      dispatcher.stop.abort();
      unsubscribe();
      for (const timer of dispatcher.timers) clearTimeout(timer);
      await Promise.allSettled([...dispatcher.inFlight]);
    };
  },

  routes(app, sites) {
    // A domain event of any type on demand (`sitekit-sdk emulator trigger`), to the given URLs or webhookUrls.
    controlRoute(app, 'triggerEvent', async ({ body, request }) => {
      const context = sites.of(request);
      const urls = body.urls ?? context.config.get<string[]>('webhookUrls');
      if (!urls.length)
        throw invalidField('urls', 'no URL to send to: pass urls or set the config webhookUrls', 'REQUIRED_FIELD');
      const event = eventForTrigger(context, body);
      const eventId = await senders.get(context)!(event, urls, body.badSignature === true);
      return { eventId, eventType: event.eventType, entityId: event.entityId, urls };
    });
    // Sends a logged delivery's event again, to the same URL, as a new delivery of the same event id.
    controlRoute(app, 'redeliverWebhook', async ({ body: { deliveryId }, request }) => {
      const context = sites.of(request);
      const row = context.store.get<{ url: string; event: string; event_id: string; bad_signature: number }>(
        `SELECT deliveries.url, events.event, events.event_id, events.bad_signature
         FROM webhook_deliveries deliveries JOIN webhook_events events ON events.event_id = deliveries.event_id
         WHERE deliveries.id = ?`,
        [deliveryId],
      );
      if (!row) throw applicationError(404, 'NOT_FOUND', `No delivery ${deliveryId} with a kept event`);
      await senders.get(context)!(
        JSON.parse(row.event) as DomainEvent,
        [row.url],
        row.bad_signature == 1,
        row.event_id,
      );
      return { eventId: row.event_id, url: row.url };
    });

    controlRoute(app, 'listWebhookDeliveries', ({ query, request }) => {
      const context = sites.of(request);
      const rows = context.store.all<{
        id: string;
        event_id: string;
        url: string;
        event_type: string;
        attempt: number;
        outcome: DeliveryOutcome;
        status: number | null;
        error: string | null;
        time: string;
        duration_ms: number;
        event: string | null;
        bad_signature: number | null;
      }>(
        `SELECT deliveries.*, events.event, events.bad_signature
         FROM webhook_deliveries deliveries LEFT JOIN webhook_events events ON events.event_id = deliveries.event_id
         ORDER BY deliveries.sequence DESC LIMIT ?`,
        [query.limit ?? 200],
      );
      const deliveries: WebhookDelivery[] = rows.map((row) => ({
        id: row.id,
        eventId: row.event_id,
        url: row.url,
        eventType: row.event_type,
        attempt: row.attempt,
        outcome: row.outcome,
        badSignature: row.bad_signature == 1,
        ...(row.status !== null ? { status: row.status } : {}),
        ...(row.error !== null ? { error: row.error } : {}),
        time: row.time,
        durationMs: row.duration_ms,
        ...(row.event !== null
          ? { payload: payloadOf(context, JSON.parse(row.event) as DomainEvent, row.event_id) }
          : {}),
      }));
      return { deliveries };
    });
  },
};
