/**
 * Domain events on demand (`POST /_emulator/webhooks/trigger`, `sitekit-sdk emulator trigger`): an
 * event of any type the platform sends, built from a real entity of the emulator's state (the one
 * named by `collection` and `id`, else the first there is), so the payload is what a real write
 * would have sent.
 */
import { randomUUID } from 'node:crypto';
import { applicationError, invalidField } from '../../errors.js';
import { domainEvent, type DomainEvent, type EventChange } from '../../events.js';
import type { TriggerInput } from '../../control/api.js';
import type { EmulatorContext } from '../../service.js';
import { findCollection, type Collection } from '../data/collection-store.js';
import { wireItem, type ItemData } from '../data/items/item-store.js';
import { fileEvent } from '../media/media-events.js';
import type { FileDescriptor } from '../media/file-store.js';
import type { Member } from '../accounts/members/member-store.js';
import { COLLECTION_FQDN, FILE_FQDN, ITEM_FQDN, MEMBER_FQDN, TRIGGER_EVENT_TYPES } from './event-types.js';

/** What a trigger names (typed and checked by the control API's schema). */
type TriggerRequest = Pick<TriggerInput, 'eventType' | 'collection' | 'id'>;

/** An owner-made change (events triggered from the control API are the site's own). */
const APP_IDENTITY = { identityType: 'APP' };

/** The change of an entity event for a slug: created, updated and deleted carry the entity; others are actions. */
function changeOf(slug: string, entity: unknown): EventChange {
  if (slug == 'created') return { createdEvent: { entity } };
  if (slug == 'updated') return { updatedEvent: { currentEntity: entity } };
  if (slug == 'deleted') return { deletedEvent: { deletedEntity: entity } };
  return { actionEvent: { body: entity } };
}

/** The named row's JSON, or the first row of the table. */
function findData<Row>(
  context: EmulatorContext,
  sql: string,
  firstSql: string,
  id: string | undefined,
  params: string[],
) {
  const row = id
    ? context.store.get<{ data: string }>(sql, [...params, id])
    : context.store.get<{ data: string }>(firstSql, params);
  return row ? (JSON.parse(row.data) as Row) : undefined;
}

const missing = (what: string) =>
  applicationError(404, 'NOT_FOUND', `Nothing to build the event from: ${what} (create one, or pass another id)`);

/** The domain event a trigger asks for; an unknown type or entity is refused. */
export function eventForTrigger(context: EmulatorContext, input: TriggerRequest): DomainEvent {
  // Sent now, as the emulator tells time.
  return { ...buildEvent(context, input), eventTime: context.clock.iso() };
}

/** The event of {@link eventForTrigger}, before its time is set. */
function buildEvent(context: EmulatorContext, input: TriggerRequest): DomainEvent {
  const { eventType, id } = input;
  if (!TRIGGER_EVENT_TYPES.includes(eventType))
    throw invalidField('eventType', `must be one of ${TRIGGER_EVENT_TYPES.join(', ')}`, 'INVALID_ENUM_VALUE');
  const collectionId = input.collection ?? 'Movies';

  if (eventType.startsWith(`${ITEM_FQDN}_`)) {
    const slug = eventType.slice(ITEM_FQDN.length + 1);
    const item = findData<ItemData>(
      context,
      'SELECT data FROM items WHERE collection_id = ? AND id = ?',
      'SELECT data FROM items WHERE collection_id = ? ORDER BY rowid LIMIT 1',
      id,
      [collectionId],
    );
    if (!item) throw missing(id ? `no item ${id} in ${collectionId}` : `no item in ${collectionId}`);
    const itemId = String(item._id);
    return domainEvent(ITEM_FQDN, slug, itemId, changeOf(slug, wireItem(collectionId, item)), APP_IDENTITY, eventType);
  }
  if (eventType.startsWith(`${COLLECTION_FQDN}_`)) {
    const slug = eventType.slice(COLLECTION_FQDN.length + 1);
    const collection: Collection | undefined = findCollection(context.store, id ?? collectionId);
    if (!collection) throw missing(`no collection ${id ?? collectionId}`);
    return domainEvent(COLLECTION_FQDN, slug, collection.id, changeOf(slug, collection), APP_IDENTITY);
  }
  if (eventType.startsWith(`${MEMBER_FQDN}_`)) {
    const slug = eventType.slice(MEMBER_FQDN.length + 1);
    const member = findData<Member>(
      context,
      'SELECT data FROM members WHERE id = ?',
      'SELECT data FROM members ORDER BY rowid LIMIT 1',
      id,
      [],
    );
    if (!member) throw missing(id ? `no member ${id}` : 'no member');
    return domainEvent(MEMBER_FQDN, slug, member.id, changeOf(slug, member), APP_IDENTITY);
  }
  const slug = eventType.slice(FILE_FQDN.length + 1) as 'updated' | 'deleted' | 'file_ready' | 'file_failed';
  const file = findData<FileDescriptor>(
    context,
    'SELECT data FROM media_files WHERE id = ?',
    "SELECT data FROM media_files WHERE state = 'OK' ORDER BY rowid LIMIT 1",
    id,
    [],
  );
  if (!file) throw missing(id ? `no file ${id}` : 'no file');
  return {
    ...fileEvent(context, slug, file, slug == 'file_ready' ? { triggeredBy: randomUUID() } : undefined),
    identity: APP_IDENTITY,
  };
}
