/**
 * Domain events (webhooks): the `on...` registration methods of each namespace and
 * `client.webhooks`, which verifies an event (a JWT signed RS256 with the app's key pair),
 * unpacks it and runs the handlers registered for its type.
 *
 * jose is imported dynamically by the verification path only, so an app that never receives
 * webhooks does not load it.
 */
import type { TransformNode } from '../../generated/request.js';
import { operations } from '../../generated/operations.js';
import { RequestError } from '../errors/index.js';
import { parseDate } from '../wire/date.js';
import { isPlainObject, type PlainObject } from '../wire/plain.js';
import { toPublic } from '../wire/transform.js';
import type { DomainEvent, EventHandler, NamespaceEvents, ProcessedEvent, ProcessOptions } from './types.js';
import { WebhookError } from './webhook-error.js';

export type * from './types.js';
export { WebhookError, isWebhookError, type WebhookErrorCode } from './webhook-error.js';

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
 * client.items.onDataItemCreated(({ entity, metadata, dataCollectionId }) => {
 *   console.log(dataCollectionId, entity._id, metadata.eventTime);
 * });
 * app.post('/webhooks', express.text({ type: '*' + '/' + '*' }), async (req, res) => {
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
  /** Verifies and dispatches one event body: the JWT text the provider POSTed. */
  process(body: string, options?: ProcessOptions): Promise<ProcessedEvent>;
  /** Reads the body of a `Request` and {@link Webhooks.process | processes} it. */
  processRequest(request: Request, options?: ProcessOptions): Promise<ProcessedEvent>;
}

/** The registry of one client, shared by the namespaces' `on...` methods and `client.webhooks`. */
export interface EventRegistry {
  readonly webhooks: Webhooks;
  /** The `on...` registration methods of one namespace. Registering the same function twice for one event has no extra effect. */
  handlers<N extends keyof NamespaceEvents>(namespace: N): NamespaceEvents[N];
}

type Namespace = keyof NamespaceEvents;
type Handler = EventHandler<DomainEvent>;

const node = (id: 'getDataCollection' | 'getFileDescriptor' | 'getMember', field: string): TransformNode =>
  (operations[id].o as Record<string, TransformNode>)[field]!;

/**
 * The events: namespace, event-type prefix (`<entityFqdn>_`), entity name of the `on...`
 * methods, slugs, and the transform tree of the entity. `onFileDescriptorFileReady` is
 * `on` + entity + the PascalCase slug.
 */
const EVENTS = (
  [
    ['collections', 'wix.data.v2.data_collection_', 'DataCollection', 'created updated deleted changed cloned', node('getDataCollection', 'collection')],
    ['items', 'wix.data.v2.data_item_', 'DataItem', 'created updated deleted', 'I'],
    ['media', 'wix.media.site_media.v1.file_descriptor_', 'FileDescriptor', 'updated deleted file_ready file_failed', node('getFileDescriptor', 'file')],
    ['members', 'wix.members.v1.member_', 'Member', 'created updated deleted', node('getMember', 'member')],
  ] as const
).flatMap(([namespace, prefix, entity, slugs, tree]) =>
  slugs.split(' ').map((slug) => ({
    type: prefix + slug,
    namespace: namespace as Namespace,
    method: `on${entity}${slug.replace(/(?:^|_)(.)/g, (_, c: string) => c.toUpperCase())}`,
    tree: tree as TransformNode,
  })),
);

/** The part of an event's `data` that holds the entity or body, and the field it is in. */
const PARTS = { createdEvent: 'entity', updatedEvent: 'currentEntity', deletedEvent: 'deletedEntity', actionEvent: 'body' } as const;

const malformed = (what: string, cause?: unknown): WebhookError =>
  new WebhookError('MALFORMED_EVENT', `webhooks: malformed event (${what})`, { cause });

/** An object of the payload, sent as a JSON string or (leniently) as an object. */
function object(value: unknown, what: string): PlainObject {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (e) {
      throw malformed(what, e);
    }
  }
  if (!isPlainObject(parsed)) throw malformed(what);
  return parsed;
}

/** Verifies the JWT with the (cached) key: RS256 only, `exp` enforced. Returns its payload. */
async function verify(token: string, key: () => Promise<CryptoKey>): Promise<PlainObject> {
  let expired: unknown;
  try {
    const { jwtVerify } = await import('jose');
    return (await jwtVerify(token, await key(), { algorithms: ['RS256'] })).payload;
  } catch (e) {
    if (e instanceof WebhookError) throw e;
    expired = (e as { code?: unknown } | null)?.code === 'ERR_JWT_EXPIRED';
    throw new WebhookError(expired ? 'EXPIRED' : 'INVALID_SIGNATURE', `webhooks: ${expired ? 'expired event' : 'invalid signature'}`, { cause: e });
  }
}

/** Creates the event registry of one client. */
export function createEventRegistry(options?: WebhookOptions): EventRegistry {
  const registered = new Map<string, Set<Handler>>();
  let cachedKey: Promise<CryptoKey> | undefined;

  /** The public key, imported once; a bad key rejects every call the same way. */
  const key = (): Promise<CryptoKey> => {
    const pem = options?.publicKey;
    if (typeof pem !== 'string' || !pem.trim()) throw new WebhookError('NO_PUBLIC_KEY', 'webhooks: no publicKey given to createClient');
    return (cachedKey ??= import('jose')
      .then(({ importSPKI }) => importSPKI(pem, 'RS256'))
      .catch((e: unknown) => {
        throw new WebhookError('NO_PUBLIC_KEY', 'webhooks: publicKey is not an RS256 SPKI PEM key', { cause: e });
      }));
  };

  const process = async (body: string, processOptions: ProcessOptions = {}): Promise<ProcessedEvent> => {
    const expected = processOptions?.expectedEvents;
    if (typeof body !== 'string') throw new RequestError('webhooks.process: body must be the raw request body text', { field: 'body' });
    if (expected !== undefined && !Array.isArray(expected)) throw new RequestError('webhooks.process: expectedEvents must be an array', { field: 'expectedEvents' });

    const envelope = object((await verify(body.trim(), key)).data, 'data claim');
    const { eventType, instanceId } = envelope;
    if (typeof eventType !== 'string') throw malformed('eventType');
    const known = EVENTS.find((e) => e.type === eventType);
    if (!known || (expected && !expected.includes(eventType))) {
      throw new WebhookError('UNEXPECTED_EVENT', `webhooks: unexpected event type ${eventType}`, { details: { eventType } });
    }

    const { createdEvent, updatedEvent, deletedEvent, actionEvent, ...fields } = object(envelope.data, 'data');
    const identity = envelope.identity == null ? undefined : object(envelope.identity, 'identity');
    for (const name of ['id', 'entityFqdn', 'slug', 'entityId']) if (typeof fields[name] !== 'string') throw malformed(name);
    const part = (Object.keys(PARTS) as (keyof typeof PARTS)[]).find((k) => fields[k] === undefined && { createdEvent, updatedEvent, deletedEvent, actionEvent }[k] != null);
    if (!part) throw malformed('no event part');
    const content = object({ createdEvent, updatedEvent, deletedEvent, actionEvent }[part], part);
    const field = PARTS[part];
    let raw = content[field] ?? content[`${field}AsJson`];
    if (raw != null || part !== 'deletedEvent') raw = object(raw, `${part}.${field}`);

    const tree = known.tree;
    const metadata = { ...fields, eventTime: parseDate(fields.eventTime), eventType, instanceId, identity };
    const payload = (
      part === 'actionEvent'
        ? { data: toPublic(raw, (raw as PlainObject).file ? { file: tree } : tree), metadata }
        : {
            entity: toPublic(raw, tree),
            metadata,
            ...(part === 'updatedEvent' && content.modifiedFields != null && { modifiedFields: content.modifiedFields }),
            ...(tree === 'I' && isPlainObject(raw) && { dataCollectionId: raw.dataCollectionId }),
          }
    ) as DomainEvent;

    const handlers = [...(registered.get(eventType) ?? [])];
    const results = await Promise.allSettled(handlers.map(async (handler) => handler(payload)));
    for (const result of results) if (result.status === 'rejected') throw result.reason;
    return { eventType, instanceId: instanceId as string | undefined, identity, payload, handled: handlers.length };
  };

  return {
    webhooks: {
      process,
      async processRequest(request, processOptions) {
        let body: string;
        try {
          body = await request.text();
        } catch (e) {
          throw new RequestError('webhooks.processRequest: could not read the request body', { field: 'request', cause: e });
        }
        return process(body, processOptions);
      },
    },
    handlers<N extends Namespace>(namespace: N) {
      const methods: Record<string, (handler: Handler) => () => void> = {};
      for (const { type, namespace: owner, method } of EVENTS) {
        if (owner !== namespace) continue;
        methods[method] = (handler) => {
          if (typeof handler !== 'function') throw new RequestError(`${method}: handler must be a function`, { field: 'handler' });
          const set = registered.get(type) ?? new Set<Handler>();
          registered.set(type, set.add(handler));
          return () => void set.delete(handler);
        };
      }
      return methods as unknown as NamespaceEvents[N];
    },
  };
}
