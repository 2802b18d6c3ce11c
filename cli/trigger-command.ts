/**
 * `sitekit-sdk emulator trigger <event type>`: asks a running emulator to send a signed domain
 * event (`POST /_emulator/webhooks/trigger`) to `--forward-to` or its configured `webhookUrls`.
 */
import { parseArgs } from 'node:util';
import type { TriggeredEvent } from '../emulator/control/api.js';
import { createControlClient } from '../emulator/control/client.js';
import type { SiteKitError } from '../src/index.js';
import { TRIGGER_EVENT_TYPES } from '../emulator/services/webhooks/event-types.js';
import { type CommandIo, UsageError } from './command-io.js';
import { EMULATOR_OPTION, EMULATOR_USAGE, emulatorUrl } from './site-connection.js';

/** The help of the command. */
export const TRIGGER_USAGE = `Usage: sitekit-sdk emulator trigger <event type> [options]

Sends a signed domain event, built from the emulator's data, as the platform's webhooks do.

Options:
  --collection <id>   the data collection of an item or collection event (default Movies)
  --id <id>           the entity (item, collection, member, file); default the first there is
  --forward-to <url>  where to send it (default: the emulator's config webhookUrls)
  --bad-signature     sign it with a wrong key, to test the app's refusal
${EMULATOR_USAGE}
  -h, --help          show this help

Event types:
${TRIGGER_EVENT_TYPES.map((type) => `  ${type}`).join('\n')}
`;

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
  let sent: TriggeredEvent;
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
    // The emulator answered, and said no: a message, not a crash. An emulator that is not there throws on.
    const { status, message } = error as SiteKitError;
    if (status === undefined) throw error;
    io.stderr(`The emulator refused the event (${status}): ${message}\n`);
    return 1;
  }
  io.stdout(
    `Sent ${sent.eventType} of ${sent.entityId} (event ${sent.eventId}) to ${sent.urls.join(', ')}; deliveries: ${emulator}/_emulator/webhooks\n`,
  );
  return 0;
}
