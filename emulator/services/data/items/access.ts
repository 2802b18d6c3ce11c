/** Opening a collection for an item action: the collection, the caller's scope, and the write helpers' context. */
import { invalidField } from '../../../errors.js';
import { eventIdentity } from '../../../events.js';
import type { EmulatorContext, ServiceCall } from '../../../service.js';
import { requireCollection, type Collection } from '../collection-store.js';
import type { SqlFragment } from './filter-sql.js';
import { recordDecision, type CollectionDecision } from '../../../auth/decisions.js';
import { actionDenied, permittedScope, type ItemAction, type Scope } from './permissions.js';

/** What item handlers work with. */
export interface ItemAccess {
  collection: Collection;
  call: ServiceCall;
  context: EmulatorContext;
  /** The caller's identity for events. */
  identity: Record<string, unknown>;
}

/** The collection named by the request's `dataCollectionId`, checked. */
export function openCollection(
  call: ServiceCall<{ dataCollectionId?: unknown }>,
  context: EmulatorContext,
): ItemAccess {
  const collectionId = call.input.dataCollectionId;
  if (typeof collectionId != 'string' || !collectionId)
    throw invalidField('dataCollectionId', 'must not be empty', 'REQUIRED_FIELD');
  return {
    collection: requireCollection(context.store, collectionId),
    call,
    context,
    identity: eventIdentity(call.caller),
  };
}

/**
 * The caller's scope for `action`, or the production permission error; the decision goes to the
 * request log. With the config `permissions: "log"`, a refusal is logged and the call goes on
 * (as elevated, on every item), and so does a change to an item outside an author-only scope.
 */
export function scopeFor(access: ItemAccess, action: ItemAction): Scope {
  const { collection, call, context } = access;
  const scope = permittedScope(collection, action, call.caller);
  // Read only when it matters: most calls are allowed on every item.
  const logOnly = (!scope || scope.items == 'own') && context.config.get<string>('permissions') == 'log';
  recordDecision(call.request, collectionDecision(access, action, scope, logOnly, scope !== undefined));
  if (scope?.items == 'own' && logOnly) {
    const outside = () => recordDecision(call.request, collectionDecision(access, action, scope, logOnly, false));
    return { items: 'all', unenforcedOwner: { ownerId: scope.ownerId, outside } };
  }
  if (scope) return scope;
  if (!logOnly) throw actionDenied(collection, action);
  return { items: 'all' };
}

/** The decision on `action` for the request log: plain facts, written out when the log is read. */
function collectionDecision(
  access: ItemAccess,
  action: ItemAction,
  scope: Scope | undefined,
  logOnly: boolean,
  allowed: boolean,
): CollectionDecision {
  const decision: CollectionDecision = {
    kind: 'collection',
    allowed,
    enforced: !logOnly,
    collectionId: access.collection.id,
    action,
    requiredRole: access.collection.permissions[action] ?? 'ADMIN',
    callerKind: access.call.caller.kind,
  };
  if (scope?.items == 'own') decision.ownItemsOnly = true;
  return decision;
}

/** `WHERE` of the rows a scope may see in a collection (table alias `items`). */
export function scopeSql(collectionId: string, scope: Scope): SqlFragment {
  return scope.items == 'all'
    ? { sql: 'items.collection_id = ?', params: [collectionId] }
    : { sql: 'items.collection_id = ? AND items.owner = ?', params: [collectionId, scope.ownerId] };
}
