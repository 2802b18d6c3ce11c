/**
 * Domain events (webhooks): the `on...` registration methods of each namespace and
 * `client.webhooks`, which verifies an event (a JWT signed RS256 with the app's key pair),
 * unpacks it and runs the handlers registered for its type.
 *
 * Only registration is loaded eagerly. The processing module, and jose which it imports
 * dynamically for verification, load on the first event: apps that never receive webhooks
 * (every browser app) do not load them.
 */
import { RequestError } from '../errors/index.js';
import { loadOnFirstUse } from '../lazy.js';
import type { RegistryState } from './process.js';
import { domainEvents, type EventNamespace, type NamespaceEvents } from '../../generated/events.js';
import type { DomainEvent, EventHandler, ProcessedEvent, ProcessOptions, Unsubscribe } from './types.js';

export type * from './types.js';
export type {
  CollectionsEvents,
  ItemsEvents,
  MediaEvents,
  MembersEvents,
  NamespaceEvents,
} from '../../generated/events.js';

/** Options of the webhooks part of createClient. */
export interface WebhookOptions {
  /** The app's public key (SPKI PEM, `-----BEGIN PUBLIC KEY-----...`) that verifies the events. */
  publicKey: string;
}

/**
 * `client.webhooks`: verifies a domain event and runs the handlers registered for it with the
 * namespaces' `on...` methods (e.g. `client.items.onDataItemCreated`).
 *
 * `process` resolves once every matching handler has settled. It rejects with a
 * {@link WebhookError} when the event is refused (bad or foreign signature, expired, unknown or
 * unexpected type, malformed payload, no public key): then no handler has run, answer 4xx. If a
 * handler throws, all the others still run to the end, and `process` rejects with the first
 * failure (in registration order) exactly as the handler threw it: answer 5xx so the provider retries.
 *
 * @example Express (or any Node server): give `process` the raw body text.
 * ```ts
 * const client = createClient({ auth, webhooks: { publicKey: process.env.APP_PUBLIC_KEY! } });
 * client.items.onDataItemCreated(({ entity, metadata }) => {
 *   console.log(entity.dataCollectionId, entity._id, entity.data.title, metadata.eventTime);
 * });
 * app.post('/webhooks', express.text({ type: () => true }), async (req, res) => {
 *   try {
 *     await client.webhooks.process(req.body);
 *     res.sendStatus(200);
 *   } catch (e) {
 *     res.sendStatus(isWebhookError(e) ? 401 : 500);
 *   }
 * });
 * ```
 *
 * @example A fetch-style handler (Workers, Deno, Bun, Next.js route handlers):
 * ```ts
 * export async function POST(request: Request): Promise<Response> {
 *   try {
 *     await client.webhooks.processRequest(request, { expectedEvents: ['wix.members.v1.member_created'] });
 *     return new Response(null, { status: 200 });
 *   } catch (e) {
 *     return new Response(null, { status: isWebhookError(e) ? 401 : 500 });
 *   }
 * }
 * ```
 */
export interface Webhooks {
  /** Verifies and dispatches one event body: the JWT text the provider POSTed (or its bytes). */
  process(body: string | Uint8Array, options?: ProcessOptions): Promise<ProcessedEvent>;
  /** Reads the body of a `Request` and {@link Webhooks.process | processes} it. */
  processRequest(request: Request, options?: ProcessOptions): Promise<ProcessedEvent>;
}

/** The registry of one client, shared by the namespaces' `on...` methods and `client.webhooks`. */
export interface EventRegistry {
  readonly webhooks: Webhooks;
  /** The `on...` registration methods of one namespace. Registering the same function twice for one event has no extra effect. */
  handlers<N extends keyof NamespaceEvents>(namespace: N): NamespaceEvents[N];
}

type Handler = EventHandler<DomainEvent>;

// Processing (and jose, which it loads in turn) loads on the first event only.
const loadProcessing = loadOnFirstUse(() => import('./process.js'));

/** Creates the event registry of one client. */
export function createEventRegistry(options?: WebhookOptions): EventRegistry {
  const registered = new Map<string, Set<Handler>>();
  const state: RegistryState = { publicKey: options?.publicKey, registered };
  // \`process\` takes an event's body, \`processRequest\` a whole request (fromRequest).
  const processing =
    (fromRequest: boolean) =>
    async (input: unknown, processOptions?: ProcessOptions): Promise<ProcessedEvent> =>
      (await loadProcessing()).processEvent(state, input, processOptions, fromRequest);

  return {
    webhooks: { process: processing(false), processRequest: processing(true) },
    handlers<N extends EventNamespace>(namespace: N) {
      const methods: Record<string, (handler: Handler) => Unsubscribe> = {};
      for (const { eventType: type, namespace: owner, method } of domainEvents) {
        if (owner === namespace) {
          methods[method] = (handler) => {
            if (typeof handler !== 'function')
              throw new RequestError(`${method}: handler must be a function`, { field: 'handler' });
            const set = registered.get(type) ?? new Set<Handler>();
            registered.set(type, set.add(handler));
            return () => void set.delete(handler);
          };
        }
      }
      return methods as unknown as NamespaceEvents[N];
    },
  };
}
