/** The public types of domain events: what handlers receive and what `client.webhooks` returns. */

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
  /** The same event id, under the official payload's name. */
  _id: string;
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
 * A data item as its created and updated events carry it, in the official payload's form: the
 * item's ID and collection beside its data, which is in public form (`_createdDate` as a Date...).
 */
export interface DataItemEntity<T> {
  /** The item's ID. */
  _id: string;
  /** The collection the item belongs to. */
  dataCollectionId: string;
  /** The item. */
  data: T;
}

/** A deleted data item: its ID and collection, and its last state (`data`) when the provider sends it. */
export interface DataItemDeletedEntity<T> {
  /** The item's ID. */
  _id: string;
  /** The collection the item belonged to. */
  dataCollectionId: string;
  /** The item as it was. */
  data?: T;
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
