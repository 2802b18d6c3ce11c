/**
 * `sitekit-sdk emulator trigger <event type>`: asks a running emulator to send a signed domain
 * event (`POST /_emulator/webhooks/trigger`) to `--forward-to` or its configured `webhookUrls`,
 * then waits for each receiver's answer to the first attempt and exits non-zero, naming the
 * answer, when a delivery failed (or when an app took a badly signed event).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { ControlSchema } from '../emulator/control/api.js';
import { createControlClient, type ControlClient } from '../emulator/control/client.js';
import { TRIGGER_EVENT_TYPES } from '../emulator/services/webhooks/event-types.js';
import { type CommandIo, UsageError } from './command-io.js';
import { EMULATOR_OPTION, EMULATOR_USAGE, emulatorCallFailure, emulatorUrl } from './site-connection.js';

/** The help of the command. */
export const TRIGGER_USAGE = `Usage: sitekit-sdk emulator trigger <event type> [options]

Sends a signed domain event, built from the emulator's data, as the platform's webhooks do.

Options:
  --collection <id>   the data collection of an item or collection event (default Movies)
  --id <id>           the entity (item, collection, member, file); default the first there is
  --forward-to <url>  where to send it (default: the emulator's config webhookUrls)
  --bad-signature     sign it with a wrong key, to test the app's refusal (then a refusal succeeds)
${EMULATOR_USAGE}
  -h, --help          show this help

Exits 0 once every receiver took the event (or refused a badly signed one), 1 when one did not,
naming its answer; the emulator goes on retrying a failed delivery (see its Webhooks page).

Event types:
${TRIGGER_EVENT_TYPES.map((type) => `  ${type}`).join('\n')}
`;

type Delivery = ControlSchema<'WebhookDelivery'>;

/**
 * How long to wait for the receivers' answers: the emulator gives a receiver 10 s per attempt,
 * plus room for a loaded machine.
 */
const ANSWER_WAIT_MS = 15_000;
/** How often the delivery log is read while waiting. */
const POLL_MS = 100;

/** A delivery's first attempt to each URL, once none is still waiting for its answer; undefined past `deadline`. */
async function firstAttempts(
  control: ControlClient,
  eventId: string,
  urls: readonly string[],
  deadline: number,
): Promise<Delivery[] | undefined> {
  for (;;) {
    const { deliveries } = await control.call('listWebhookDeliveries');
    const firsts = urls.map((url) =>
      deliveries.find((delivery) => delivery.eventId == eventId && delivery.url == url && delivery.attempt == 1),
    );
    if (firsts.every((delivery) => delivery && delivery.outcome != 'sending')) return firsts as Delivery[];
    if (Date.now() >= deadline) return undefined;
    await sleep(POLL_MS);
  }
}

/** One receiver's answer in a line, and whether it is what the command asked for. */
function answerLine(delivery: Delivery): { line: string; ok: boolean } {
  const status = delivery.status === undefined ? '' : ` (${delivery.status})`;
  switch (delivery.outcome) {
    case 'delivered':
      return { line: `${delivery.url}: delivered${status}`, ok: true };
    case 'refused':
      return { line: `${delivery.url}: refused${status}, as a badly signed event must be`, ok: true };
    case 'accepted-bad-signature':
      return {
        line: `${delivery.url}: accepted a badly signed event${status}: the app does not check signatures (client.webhooks.process does)`,
        ok: false,
      };
    default:
      return { line: `${delivery.url}: failed: ${delivery.error ?? `answered ${delivery.status}`}`, ok: false };
  }
}

/** Runs the command; resolves with its exit code. */
export async function triggerCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      collection: { type: 'string' },
      id: { type: 'string' },
      'forward-to': { type: 'string', multiple: true },
      'bad-signature': { type: 'boolean' },
      ...EMULATOR_OPTION,
      // Its old name for the emulator, refused with the new one: in the other commands --url names a live site.
      url: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    io.stdout(TRIGGER_USAGE);
    return 0;
  }
  if (values.url !== undefined)
    throw new UsageError('trigger names the emulator with --emulator <url> (--url names a live site)');
  if (positionals.length != 1) throw new UsageError('Name one event type to trigger.');
  const emulator = emulatorUrl(values.emulator, io.env);
  const control = createControlClient({ baseUrl: emulator, ...(io.fetch ? { fetch: io.fetch } : {}) });
  let sent: { eventId: string; eventType: string; entityId: string; urls: string[] };
  try {
    sent = await control.call('triggerEvent', {
      body: {
        eventType: positionals[0]!,
        ...(values.collection ? { collection: values.collection } : {}),
        ...(values.id ? { id: values.id } : {}),
        ...(values['forward-to'] ? { urls: values['forward-to'] } : {}),
        ...(values['bad-signature'] ? { badSignature: true } : {}),
      },
    });
  } catch (error) {
    const failure = emulatorCallFailure(error, emulator, 'the event');
    if (failure === undefined) throw error;
    io.stderr(failure);
    return 1;
  }
  io.stdout(`Sent ${sent.eventType} of ${sent.entityId} (event ${sent.eventId}) to ${sent.urls.join(', ')}.\n`);
  const answers = await firstAttempts(control, sent.eventId, sent.urls, Date.now() + ANSWER_WAIT_MS);
  if (!answers) {
    io.stderr(
      `No answer from the receivers within ${ANSWER_WAIT_MS / 1000} s; deliveries: ${emulator}/_emulator/webhooks\n`,
    );
    return 1;
  }
  const lines = answers.map(answerLine);
  for (const { line, ok } of lines) (ok ? io.stdout : io.stderr)(`  ${line}\n`);
  if (lines.every(({ ok }) => ok)) return 0;
  if (answers.some((delivery) => delivery.outcome == 'failed'))
    io.stderr(`The emulator retries a failed delivery; every attempt: ${emulator}/_emulator/webhooks\n`);
  return 1;
}
