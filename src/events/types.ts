/** The public types of domain events: what handlers receive and what `client.webhooks` returns. */
import type { DataCollection, FileDescriptor, FileExternalInfo, Item, Member } from '../../generated/models.js';

/** Who caused an event, as the provider reports it (the envelope's `identity`). */
export interface EventIdentity {
  identityType?: 'UNKNOWN' | 'ANONYMOUS_VISITOR' | 'MEMBER' | 'WIX_USER' | 'APP';
  anonymousVisitorId?: string;
  memberId?: string;
  wixUserId?: string;
  appId?: string;
  [field: string]: unknown;
}

/**
 * Everything about an event except its entity: the envelope's `eventType`, `instanceId` and
 * `identity`, and the event's own fields. Fields the provider adds later pass through unchanged.
 */
export interface EventMetadata {
  /** Unique event id: use it to ignore a duplicate delivery. */
  id: string;
  /** E.g. `wix.data.v2.data_item_created`. */
  eventType: string;
  /** The app instance (site installation) the event belongs to. */
  instanceId?: string;
  /** Who caused the event, when the provider says. */
  identity?: EventIdentity;
  /** E.g. `wix.data.v2.data_item`. */
  entityFqdn: string;
  /** E.g. `created`, `file_ready`. */
  slug: string;
  /** Id of the entity the event is about. */
  entityId: string;
  /** When the event happened; `undefined` if the provider sent no valid ISO date. */
  eventTime?: Date;
  /** Whether a privacy (e.g. GDPR) anonymize request caused the event. */
  triggeredByAnonymizeRequest?: boolean;
  [field: string]: unknown;
}

/** An entity was created. `entity` is in public form (`_id`, `_createdDate` as a Date...). */
export interface EntityCreatedEvent<T> {
  entity: T;
  metadata: EventMetadata;
}

/** An entity was updated: its current state, and what changed when the provider says. */
export interface EntityUpdatedEvent<T> {
  entity: T;
  metadata: EventMetadata;
  /** The provider's `modifiedFields`, passed through as sent (wire field names). */
  modifiedFields?: Record<string, unknown>;
}

/** An entity was deleted. `entity` is its last state, when the provider sends it. */
export interface EntityDeletedEvent<T> {
  entity?: T;
  metadata: EventMetadata;
}

/** Something happened to an entity that is not a create, update or delete: `data` is the event body. */
export interface ActionEvent<D> {
  data: D;
  metadata: EventMetadata;
}

/**
 * Data item events also name the collection: the public item form (`{_id, ...fields}`) has no
 * room for it.
 */
export type WithCollectionId<E> = E & {
  /** The item's collection, when the provider sends the entity. */
  dataCollectionId?: string;
};

/** Body of the file-ready and file-failed events: `file` (or the body itself) in public form. */
export interface FileActionData extends Partial<FileDescriptor> {
  file?: FileDescriptor;
  externalInfo?: FileExternalInfo;
  [field: string]: unknown;
}

/** Body of the collection-cloned event. */
export interface DataCollectionClonedData {
  originInstanceId?: string;
  originId?: string;
  [field: string]: unknown;
}

/** Any event a handler can receive. */
export type DomainEvent =
  | EntityCreatedEvent<unknown>
  | EntityUpdatedEvent<unknown>
  | EntityDeletedEvent<unknown>
  | ActionEvent<unknown>;

/** A handler. It may be async (return a promise): `process` waits for it. Its result is otherwise ignored. */
export type EventHandler<E> = (event: E) => unknown;

/** Removes the handler it was returned for; calling it again does nothing. */
export type Unsubscribe = () => void;

/** The event handlers of `client.collections`. */
export interface CollectionsEvents {
  /** `wix.data.v2.data_collection_created` */
  onDataCollectionCreated(handler: EventHandler<EntityCreatedEvent<DataCollection>>): Unsubscribe;
  /** `wix.data.v2.data_collection_updated` */
  onDataCollectionUpdated(handler: EventHandler<EntityUpdatedEvent<DataCollection>>): Unsubscribe;
  /** `wix.data.v2.data_collection_deleted` */
  onDataCollectionDeleted(handler: EventHandler<EntityDeletedEvent<DataCollection>>): Unsubscribe;
  /** `wix.data.v2.data_collection_changed`: an action event describing some changes (an updated event is sent too). */
  onDataCollectionChanged(handler: EventHandler<ActionEvent<Record<string, unknown>>>): Unsubscribe;
  /** `wix.data.v2.data_collection_cloned`: an action event (a created event is sent too). */
  onDataCollectionCloned(handler: EventHandler<ActionEvent<DataCollectionClonedData>>): Unsubscribe;
}

/** The event handlers of `client.items`. */
export interface ItemsEvents {
  /** `wix.data.v2.data_item_created` */
  onDataItemCreated(handler: EventHandler<WithCollectionId<EntityCreatedEvent<Item>>>): Unsubscribe;
  /** `wix.data.v2.data_item_updated` */
  onDataItemUpdated(handler: EventHandler<WithCollectionId<EntityUpdatedEvent<Item>>>): Unsubscribe;
  /** `wix.data.v2.data_item_deleted` */
  onDataItemDeleted(handler: EventHandler<WithCollectionId<EntityDeletedEvent<Item>>>): Unsubscribe;
}

/** The event handlers of `client.media`. */
export interface MediaEvents {
  /** `wix.media.site_media.v1.file_descriptor_updated` */
  onFileDescriptorUpdated(handler: EventHandler<EntityUpdatedEvent<FileDescriptor>>): Unsubscribe;
  /** `wix.media.site_media.v1.file_descriptor_deleted` */
  onFileDescriptorDeleted(handler: EventHandler<EntityDeletedEvent<FileDescriptor>>): Unsubscribe;
  /** `wix.media.site_media.v1.file_descriptor_file_ready`: the file finished processing. */
  onFileDescriptorFileReady(handler: EventHandler<ActionEvent<FileActionData>>): Unsubscribe;
  /** `wix.media.site_media.v1.file_descriptor_file_failed`: the file could not be processed. */
  onFileDescriptorFileFailed(handler: EventHandler<ActionEvent<FileActionData>>): Unsubscribe;
}

/** The event handlers of `client.members`. */
export interface MembersEvents {
  /** `wix.members.v1.member_created` */
  onMemberCreated(handler: EventHandler<EntityCreatedEvent<Member>>): Unsubscribe;
  /** `wix.members.v1.member_updated` */
  onMemberUpdated(handler: EventHandler<EntityUpdatedEvent<Member>>): Unsubscribe;
  /** `wix.members.v1.member_deleted` */
  onMemberDeleted(handler: EventHandler<EntityDeletedEvent<Member>>): Unsubscribe;
}

/** The `on...` methods of each namespace. */
export interface NamespaceEvents {
  collections: CollectionsEvents;
  items: ItemsEvents;
  media: MediaEvents;
  members: MembersEvents;
}

/** What `process` resolves with once every matching handler has finished. */
export interface ProcessedEvent {
  eventType: string;
  instanceId?: string;
  identity?: EventIdentity;
  /** The event as the handlers received it. */
  payload: DomainEvent;
  /** How many handlers ran (0 when none is registered for this event type). */
  handled: number;
}

/** Options of `process` and `processRequest`. */
export interface ProcessOptions {
  /** Event types this endpoint accepts, e.g. `['wix.data.v2.data_item_created']`; others reject with `UNEXPECTED_EVENT`. */
  expectedEvents?: readonly string[];
}
