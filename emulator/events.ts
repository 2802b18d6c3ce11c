/**
 * Domain events: services queue them during a write (`call.emit`), the hub hands them to its
 * listeners after the transaction commits. Part 2's webhooks are such a listener.
 */
import type { Clock } from './clock.js';

/** One domain event, in the platform's terms (the `data` of a webhook event). */
export interface DomainEvent {
  /** e.g. `wix.data.v2.data_item_created`. */
  eventType: string;
  /** e.g. `wix.data.v2.data_item`. */
  entityFqdn: string;
  /** e.g. `created`, `updated`, `deleted`. */
  slug: string;
  entityId: string;
  /** ISO time of the write. */
  eventTime: string;
  /** Exactly one of these, as the platform's `data` of the event carries it (entities in wire form). */
  createdEvent?: { entity: unknown };
  updatedEvent?: { currentEntity: unknown; modifiedFields?: Record<string, unknown> };
  deletedEvent?: { deletedEntity?: unknown };
  actionEvent?: { body: unknown };
  /** Who caused it: `{identityType, memberId?, anonymousVisitorId?}` in the platform's identity form. */
  identity?: Record<string, unknown>;
}

/** A listener; its failures are logged and never reach the request that caused the event. */
export type EventListener = (event: DomainEvent) => void | Promise<void>;

/** Where committed events go. */
export interface EventHub {
  /** Adds a listener; returns its removal. */
  subscribe(listener: EventListener): () => void;
  /** Delivers events that were just committed (called by the server, not by services). */
  publish(events: readonly DomainEvent[]): void;
}

/**
 * An event hub that calls every listener for every event, in order. It stamps each event with the
 * emulator's time as it publishes it, right after the write committed: whichever service built the
 * event (a table route, the hosted pages, an upload), its time is the emulator's, which tests move.
 */
export function createEventHub(clock: Clock): EventHub {
  const listeners = new Set<EventListener>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    publish(events) {
      if (!events.length || !listeners.size) return;
      const eventTime = clock.iso();
      for (const event of events) event.eventTime = eventTime;
      // One microtask for the whole batch (a bulk write publishes a thousand events), after the
      // request's own code; each listener's failure, thrown or rejected, is logged on its own.
      const failed = (event: DomainEvent) => (error: unknown) =>
        console.error(`[sitekit emulator] event listener failed for ${event.eventType}:`, error);
      queueMicrotask(() => {
        for (const event of events) {
          for (const listener of listeners) {
            try {
              const delivery = listener(event);
              if (delivery instanceof Promise) delivery.catch(failed(event));
            } catch (error) {
              failed(event)(error);
            }
          }
        }
      });
    },
  };
}

/** What kind of change an event reports, and its entity (wire form). */
export type EventChange =
  | { createdEvent: { entity: unknown } }
  | { updatedEvent: { currentEntity: unknown; modifiedFields?: Record<string, unknown> } }
  | { deletedEvent: { deletedEntity?: unknown } }
  | { actionEvent: { body: unknown } };

/** The identities that name nobody: one shared object each (every request opens its collection with one). */
const APP_IDENTITY: Record<string, unknown> = Object.freeze({ identityType: 'APP' });
const UNKNOWN_IDENTITY: Record<string, unknown> = Object.freeze({ identityType: 'UNKNOWN' });

/** The identity of a caller as events carry it. */
export function eventIdentity(caller: {
  kind: string;
  memberId?: string;
  visitorId?: string;
}): Record<string, unknown> {
  if (caller.kind == 'member') return { identityType: 'MEMBER', memberId: caller.memberId };
  if (caller.kind == 'elevated') return APP_IDENTITY;
  return caller.visitorId
    ? { identityType: 'ANONYMOUS_VISITOR', anonymousVisitorId: caller.visitorId }
    : UNKNOWN_IDENTITY;
}

/**
 * Builds a domain event. `eventType` is `<entityFqdn>_<slug>` unless the platform names it
 * otherwise (pass `eventType` then).
 */
export function domainEvent(
  entityFqdn: string,
  slug: string,
  entityId: string,
  change: EventChange,
  identity?: Record<string, unknown>,
  eventType?: string,
): DomainEvent {
  return {
    eventType: eventType ?? `${entityFqdn}_${slug}`,
    entityFqdn,
    slug,
    entityId,
    eventTime: new Date().toISOString(),
    ...change,
    ...(identity ? { identity } : {}),
  };
}
