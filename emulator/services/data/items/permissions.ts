/**
 * Collection permissions per caller: each action's role — ANYONE, SITE_MEMBER,
 * SITE_MEMBER_AUTHOR (members, on their own items), ADMIN (elevated callers only).
 */
import type { PermissionAction } from '../../../auth/decisions.js';
import { applicationError } from '../../../errors.js';
import type { Caller } from '../../../service.js';
import type { SiteIdentity } from '../../../site.js';
import type { Collection } from '../collection-store.js';

/** An item action a collection permission governs. */
export type ItemAction = PermissionAction;

/**
 * What the caller may touch: every item, or only the items it owns. With the config
 * `permissions: "log"`, an author-only scope becomes every item, and `unenforcedOwner` says whose
 * items it would have been, and what to call for an item outside them (the request log records it).
 */
export type Scope =
  | { items: 'all'; unenforcedOwner?: { ownerId: string; outside(): void } }
  | { items: 'own'; ownerId: string };

/** 403 `WDE0027`: the caller's role is below the collection's requirement. */
export const actionDenied = (collection: Collection, action: ItemAction) =>
  applicationError(
    403,
    'WDE0027',
    `The current user does not have permissions to ${action} on the ${collection.id} collection.`,
    {
      collectionId: collection.id,
      action,
      requiredRole: collection.permissions[action],
    },
  );

/** The scope of a caller allowed on every item: one shared object, as most calls are. */
const ALL_ITEMS: Scope = Object.freeze({ items: 'all' });

/** The scope of `action` for `caller` on `collection`, or `undefined` when the caller's role is below it. */
export function permittedScope(collection: Collection, action: ItemAction, caller: Caller): Scope | undefined {
  if (caller.kind == 'elevated') return ALL_ITEMS;
  const role = collection.permissions[action] ?? 'ADMIN';
  if (role == 'ANYONE') return ALL_ITEMS;
  if (caller.kind == 'member' && caller.memberId) {
    if (role == 'SITE_MEMBER') return ALL_ITEMS;
    // Any member may create items; "author" limits reading and changing to the items they own.
    if (role == 'SITE_MEMBER_AUTHOR')
      return action == 'insert' ? ALL_ITEMS : { items: 'own', ownerId: caller.memberId };
  }
  return undefined;
}

/** `WDE0027` unless the item (its `_owner`) is inside the caller's scope for `action` (in log mode: recorded, not refused). */
export function requireInScope(
  collection: Collection,
  scope: Scope,
  action: ItemAction,
  item: Readonly<Record<string, unknown>>,
): void {
  if (scope.items == 'own' && item._owner !== scope.ownerId) throw actionDenied(collection, action);
  if (scope.items == 'all' && scope.unenforcedOwner && item._owner !== scope.unenforcedOwner.ownerId)
    scope.unenforcedOwner.outside();
}

/** The `_owner` of an item written by `caller`: the member, the site owner (elevated) or the visitor. */
export function ownerOf(caller: Caller, site: SiteIdentity): string | undefined {
  if (caller.kind == 'member') return caller.memberId;
  if (caller.kind == 'elevated') return site.ownerId;
  return caller.visitorId;
}
