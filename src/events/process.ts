/**
 * Processing of one domain event: verify the JWT, unpack the envelope, transform the entity to
 * its public form and run the handlers. Loaded on first use by `client.webhooks` (it is server-side
 * work that browser apps never do).
 */
import { eventTransforms } from '../../generated/event-transforms.js';
import { domainEvents } from '../../generated/events.js';
import { RequestError, WebhookError, type WebhookErrorCode } from '../errors/index.js';
import { loadOnFirstUse } from '../lazy.js';
import { parseDate } from '../wire/date.js';
import { isPlainObject, type PlainObject } from '../wire/plain.js';
import { toPublic } from '../wire/transform.js';
import type { DomainEvent, EventHandler, ProcessedEvent, ProcessOptions } from './types.js';

/** The state of one client's registry that processing reads (and the key cache it fills). */
export interface RegistryState {
  readonly publicKey: string | undefined;
  readonly registered: ReadonlyMap<string, ReadonlySet<EventHandler<DomainEvent>>>;
  /** The imported public key, cached with its outcome: a bad key rejects every call alike. */
  key?: Promise<CryptoKey>;
}

/** The parts of an event's `data`, in the order looked for, and the field holding the entity (or the action's body). */
const PARTS = [
  ['createdEvent', 'entity'],
  ['updatedEvent', 'currentEntity'],
  ['deletedEvent', 'deletedEntity'],
  ['actionEvent', 'body'],
] as const;

/** An object of the payload, sent as a JSON string (or, leniently, as an object). */
function object(value: unknown, what: string): PlainObject {
  let parsed = value;
  try {
    if (typeof value === 'string') parsed = JSON.parse(value);
  } catch (cause) {
    throw new WebhookError('MALFORMED_EVENT', what, { cause });
  }
  if (!isPlainObject(parsed)) throw new WebhookError('MALFORMED_EVENT', what);
  return parsed;
}

/**
 * An item event's entity as the official payload has it: the item's ID and collection beside its
 * data, the data in public form (`_createdDate` a Date...). A deletion may send the IDs alone.
 */
function itemEntity(raw: PlainObject): PlainObject {
  const data = raw.data == null ? undefined : (toPublic(raw, 'item') as PlainObject);
  return { _id: raw.id ?? data?._id, dataCollectionId: raw.dataCollectionId, ...(data && { data }) };
}

// jose is ESM only: the package's CommonJS build can reach it through import() alone.
const loadJose = loadOnFirstUse(() => import('jose'));

/** Verifies the JWT (RS256 only, `exp` checked) with the app's public key and returns its claims. */
async function verify(state: RegistryState, token: string | Uint8Array): Promise<PlainObject> {
  // A jose chunk that cannot load is a network failure (NetworkError), not a key problem.
  const { importSPKI, jwtVerify } = await loadJose();
  let code: WebhookErrorCode = 'NO_PUBLIC_KEY';
  try {
    if (typeof state.publicKey !== 'string') throw new TypeError('no publicKey given to createClient({webhooks})');
    const key = await (state.key ??= importSPKI(state.publicKey, 'RS256'));
    code = 'INVALID_SIGNATURE';
    // `algorithms` refuses `none`, and HS256 with the public key used as the secret.
    return (await jwtVerify(token, key, { algorithms: ['RS256'] })).payload;
  } catch (cause) {
    const expired = (cause as { code?: unknown } | null)?.code === 'ERR_JWT_EXPIRED';
    throw new WebhookError(expired ? 'EXPIRED' : code, (cause as Error | null)?.message, { cause });
  }
}

/** Reads the body of a Request; a body that cannot be read (already used, not a Request) is bad input. */
async function read(request: Request): Promise<string> {
  try {
    return await request.text();
  } catch (cause) {
    throw new RequestError('webhooks.processRequest: cannot read the request body', { field: 'request', cause });
  }
}

/** `client.webhooks.process` (`fromRequest` false) and `processRequest` (true). */
export async function processEvent(
  state: RegistryState,
  input: unknown,
  options: ProcessOptions | undefined,
  fromRequest: boolean,
): Promise<ProcessedEvent> {
  const expected = options?.expectedEvents;
  if (expected != null && !Array.isArray(expected))
    throw new RequestError('webhooks: expectedEvents must be an array of event types', { field: 'expectedEvents' });
  const body = fromRequest ? await read(input as Request) : input;
  if (typeof body !== 'string' && !(body instanceof Uint8Array))
    throw new RequestError('webhooks.process: body must be the raw request body (string)', { field: 'body' });
  const claims = await verify(state, body);

  const envelope = object(claims.data, 'data claim');
  const { eventType, instanceId } = envelope;
  if (typeof eventType !== 'string') throw new WebhookError('MALFORMED_EVENT', 'eventType');
  const known = domainEvents.some((event) => event.eventType === eventType);
  if (!known || (expected && !expected.includes(eventType))) {
    throw new WebhookError('UNEXPECTED_EVENT', eventType, { details: { eventType } });
  }
  // An empty or absent identity is no identity.
  const identity = envelope.identity ? object(envelope.identity, 'identity') : undefined;
  const data = object(envelope.data, 'data');
  for (const name of ['id', 'entityFqdn', 'slug', 'entityId']) {
    if (typeof data[name] !== 'string') throw new WebhookError('MALFORMED_EVENT', `data.${name}`);
  }

  // The first part present decides the shape: created, updated, deleted (entity optional) or an action.
  const index = PARTS.findIndex(([name]) => data[name] != null);
  if (index < 0)
    throw new WebhookError('MALFORMED_EVENT', 'no createdEvent, updatedEvent, deletedEvent or actionEvent');
  const [name, field] = PARTS[index]!;
  const part = object(data[name], name);
  const raw = part[field] == null && index === 2 ? undefined : object(part[field], `${name}.${field}`);

  const metadata: PlainObject = {};
  for (const [key, value] of Object.entries(data))
    if (!PARTS.some(([partName]) => partName === key)) metadata[key] = value;
  // `_id` is the official payload's name of the event id (`id` stays: code written for ours reads it).
  Object.assign(metadata, { _id: data.id, eventTime: parseDate(data.eventTime), eventType, instanceId, identity });
  // The body's transform, from the event's schema (e.g. a file-ready body carries the descriptor
  // in `file`, or is the descriptor: its transform covers both).
  const node = eventTransforms[eventType];
  const entity = node === 'item' && raw ? itemEntity(raw) : toPublic(raw, node);
  const event: PlainObject = index === 3 ? { data: entity, metadata } : { entity, metadata };
  if (index === 1 && part.modifiedFields != null) event.modifiedFields = part.modifiedFields;
  const payload = event as unknown as DomainEvent;

  // Every handler runs to the end; then the first failure, in registration order, rejects as thrown.
  const handlers = [...(state.registered.get(eventType) ?? [])];
  for (const result of await Promise.allSettled(handlers.map(async (handler) => handler(payload)))) {
    if (result.status === 'rejected') throw result.reason;
  }
  return { eventType, instanceId: instanceId as string | undefined, identity, payload, handled: handlers.length };
}
