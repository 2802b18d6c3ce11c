/**
 * generated/events.ts (the event table and the namespaces' handler types) and
 * generated/event-transforms.ts (each event's entity transform, for the lazily loaded processing).
 */
import { HEADER, pascal } from './header.js';
import { listEvents } from './load.js';
import type { Doc } from './model.js';
import { NAMESPACES } from './model.js';
import { deref, transformTree } from './walk.js';

/** The component an event's body refers to. */
const bodyComponent = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** The public type of an event's body: a data item is `Item`, any other component its model. */
function bodyType(doc: Doc, ref: string): string {
  const isItem = deref(doc, { $ref: ref }).schema['x-sitekit-wire'] === 'item';
  return isItem ? 'Item' : `M.${bodyComponent(ref)}`;
}

/** The handler's event type for an event kind and body type. */
const EVENT_TYPES: Record<string, (body: string) => string> = {
  created: (body) => `EntityCreatedEvent<${body}>`,
  updated: (body) => `EntityUpdatedEvent<${body}>`,
  deleted: (body) => `EntityDeletedEvent<${body}>`,
  action: (body) => `ActionEvent<${body}>`,
};

export function emitEvents(doc: Doc): string {
  const events = listEvents(doc);
  let out = `${HEADER}/* Domain events: the event table and the namespaces' on... handler types, from schema/events.yaml. */\n`;
  out += `import type { ActionEvent, EntityCreatedEvent, EntityDeletedEvent, EntityUpdatedEvent, EventHandler, Unsubscribe, DataItemEntity, DataItemDeletedEntity } from '../src/events/types.js';\n`;
  out += `import type { Item } from '../src/types.js';\nimport type * as M from './models.js';\n\n`;
  out += `/** A namespace that has domain events. */\nexport type EventNamespace = ${[...new Set(events.map((e) => e.op.tags![0]!))].map((ns) => `'${ns}'`).join(' | ')};\n\n`;
  // Names only: the client loads this table eagerly for its on... methods. An event's kind shapes
  // its handler's types below; the runtime reads it from the event's own created/updated/deleted/action part.
  out += `/** One domain event: its type, and the namespace whose \`on...\` method registers its handlers. */\nexport interface DomainEventEntry {\n  readonly eventType: string;\n  readonly namespace: EventNamespace;\n  readonly method: string;\n}\n\n`;
  out += `/** Every domain event the SDK knows. */\nexport const domainEvents: readonly DomainEventEntry[] = [\n`;
  for (const { eventType, op } of events) {
    out += `  { eventType: ${JSON.stringify(eventType)}, namespace: '${op.tags![0]}', method: '${op.operationId}' },\n`;
  }
  out += `];\n`;
  for (const ns of NAMESPACES) {
    const mine = events.filter((e) => e.op.tags![0] === ns);
    if (mine.length === 0) continue;
    out += `\n/** The event handlers of \`client.${ns}\`. */\nexport interface ${pascal(ns)}Events {\n`;
    for (const { eventType, op } of mine) {
      const ref = op.requestBody!.content!['application/json']!.schema!.$ref!;
      const kind = op['x-sitekit-event']!;
      let body = bodyType(doc, ref);
      // Item events carry the item as the official payload does: its ID and collection beside its data.
      if (body === 'Item') body = kind === 'deleted' ? 'DataItemDeletedEntity<Item>' : 'DataItemEntity<Item>';
      const event = EVENT_TYPES[kind]!(body);
      out += `  /** \`${eventType}\`: ${op.summary ?? ''} */\n  ${op.operationId}(handler: EventHandler<${event}>): Unsubscribe;\n`;
    }
    out += `}\n`;
  }
  out += `\n/** The \`on...\` methods of each namespace. */\nexport interface NamespaceEvents {\n${NAMESPACES.filter(
    (ns) => events.some((e) => e.op.tags![0] === ns),
  )
    .map((ns) => `  ${ns}: ${pascal(ns)}Events;`)
    .join('\n')}\n}\n`;
  return out;
}

export function emitEventTransforms(doc: Doc): string {
  let out = `${HEADER}/* The transform tree of each domain event's body (public form ↔ wire form), from schema/events.yaml. */\n`;
  out += `import type { TransformNode } from '../src/operation.js';\n\n`;
  out += `/** Each event type's body transform (absent: the body passes unchanged). */\nexport const eventTransforms: { readonly [eventType: string]: TransformNode | undefined } = {\n`;
  for (const { eventType, op } of listEvents(doc)) {
    const tree = transformTree(doc, op.requestBody!.content!['application/json']!.schema!);
    if (tree !== undefined)
      out += `  ${JSON.stringify(eventType)}: ${JSON.stringify(tree).replace(/"([A-Za-z_$][\w$]*)":/g, '$1:')},\n`;
  }
  out += `};\n`;
  return out;
}
