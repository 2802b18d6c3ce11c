/**
 * Why a call was allowed or refused. Services record each permission decision on the request as
 * plain facts (cheap: no strings built per request); the request log turns them into sentences
 * ("Movies: insert needs SITE_MEMBER; the caller is a visitor") only when someone reads it.
 * The API answers keep the platform's shape: the explanation lives in the log and the console.
 */
import type { FastifyRequest } from 'fastify';
import type { EmulatorError } from '../errors.js';
import type { Caller } from '../service.js';
// The request fields the route table sets (caller, operationId), declared there.
import type {} from '../http/routes.js';

/** The item actions a collection permission is for. */
export const PERMISSION_ACTIONS = ['read', 'insert', 'update', 'remove'] as const;
/** An item action a collection permission is for. */
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];
/** The roles a collection requires for an action. */
export const PERMISSION_ROLES = ['ADMIN', 'SITE_MEMBER_AUTHOR', 'SITE_MEMBER', 'ANYONE'] as const;
/** A role a collection requires for an action. */
export type PermissionRole = (typeof PERMISSION_ROLES)[number];

/** A collection permission evaluated for an item action. */
export interface CollectionDecision {
  kind: 'collection';
  allowed: boolean;
  /** False when the decision was only logged (config `permissions: "log"`): a refusal let through, or an author-only scope not applied. */
  enforced: boolean;
  collectionId: string;
  action: PermissionAction;
  /** The collection's role for the action. */
  requiredRole: PermissionRole;
  callerKind: Caller['kind'] | 'none';
  /** Allowed on the caller's own items only (`SITE_MEMBER_AUTHOR`). */
  ownItemsOnly?: boolean;
}

/** Any other refusal (an elevated-only operation, a bad token, a rate limit): the error's own words. */
export interface RefusalDecision {
  kind: 'refusal';
  allowed: false;
  status: number;
  code: string;
  description: string;
  callerKind: Caller['kind'] | 'none';
}

/** One decision recorded on a request. */
export type Decision = CollectionDecision | RefusalDecision;

/** A decision as the request log shows it. */
export interface ExplainedDecision {
  allowed: boolean;
  /** False when the refusal was only logged (`permissions: "log"`); absent when it was enforced. */
  enforced?: false;
  /** What was evaluated: `Movies: insert needs SITE_MEMBER`. */
  rule: string;
  /** Why it passed or not, and what would pass: `the caller is a visitor; a signed-in member or an elevated client (API key) would pass`. */
  reason: string;
  /** The collection, when a collection permission decided. */
  collectionId?: string;
  /** The permission (item action), when a collection permission decided. */
  permission?: string;
  requiredRole?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The permission decisions taken while serving this request, in order. */
    decisions?: readonly Decision[];
  }
}

/** Above this many, the shared first-decision lists are dropped and made anew. */
const SHARED_LISTS = 1000;

/**
 * Collection decisions' shared lists, one level per fact: collection → action → required role →
 * caller kind (maps), then allowed → enforced → own items only (pairs). Each level is keyed by the
 * typed fact itself, so two decisions share a list exactly when every fact is equal: no fact is
 * coded into a number that could collide, and no table of codes has to be kept or bounded.
 */
type ByOwnItemsOnly = ByFlag<readonly Decision[]>;
type ByEnforced = ByFlag<ByOwnItemsOnly>;
type ByAllowed = ByFlag<ByEnforced>;
type ByCallerKind = Map<Decision['callerKind'], ByAllowed>;
type ByRequiredRole = Map<PermissionRole, ByCallerKind>;
type ByAction = Map<PermissionAction, ByRequiredRole>;
const collectionLists = new Map<string, ByAction>();
/** Refusals' shared lists (rare), by status, then caller kind, code and description. */
const refusalLists = new Map<number, Map<Decision['callerKind'], Map<string, Map<string, readonly Decision[]>>>>();
let sharedLists = 0;

/**
 * A level keyed by a yes/no fact: what is kept for `false`, then for `true` (a pair rather than a
 * Map: the lookup is an index, and the three flags of a decision are three of its seven levels).
 */
type ByFlag<Inner> = [whenFalse: Inner | undefined, whenTrue: Inner | undefined];

/** The pair under `flag` in `pair`, made empty when there is none yet. */
function flagLevel<Inner>(pair: ByFlag<ByFlag<Inner>>, flag: boolean): ByFlag<Inner> {
  return (pair[flag ? 1 : 0] ??= newPair());
}

/** Make an empty level. */
const newMap = <Key, Inner>(): Map<Key, Inner> => new Map();
const newPair = <Inner>(): ByFlag<Inner> => [undefined, undefined];

/** What `map` keeps under `key`, made by `make` when there is nothing yet. */
function level<Key, Inner>(map: Map<Key, Inner>, key: Key, make: () => NoInfer<Inner>): Inner {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = make();
    map.set(key, inner);
  }
  return inner;
}

/** A list of `decision` alone, for every request that takes it. */
function newSharedList(decision: Decision): readonly Decision[] {
  sharedLists++;
  return Object.freeze([Object.freeze(decision)]);
}

/** The list of one decision that every request taking the same decision shares. */
function sharedList(decision: Decision): readonly Decision[] {
  if (sharedLists >= SHARED_LISTS) {
    collectionLists.clear();
    refusalLists.clear();
    sharedLists = 0;
  }
  if (decision.kind == 'refusal') {
    const byCode = level(level(refusalLists, decision.status, newMap), decision.callerKind, newMap);
    const byDescription = level(byCode, decision.code, newMap);
    let shared = byDescription.get(decision.description);
    if (!shared) byDescription.set(decision.description, (shared = newSharedList(decision)));
    return shared;
  }
  const byRequiredRole = level(level(collectionLists, decision.collectionId, newMap), decision.action, newMap);
  const byCallerKind = level(byRequiredRole, decision.requiredRole, newMap);
  const byAllowed = level(byCallerKind, decision.callerKind, newPair);
  const byOwnItemsOnly = flagLevel(flagLevel(byAllowed, decision.allowed), decision.enforced);
  const own = decision.ownItemsOnly === true ? 1 : 0;
  return (byOwnItemsOnly[own] ??= newSharedList(decision));
}

/**
 * Adds a decision to the request's record. A request's first decision is kept as a list shared by
 * every request that took the same one (most take one, the same as thousands before them): the
 * request log holds the last thousand requests' decisions, and a list and an object of each
 * request's own were copied by every young-generation collection until the log dropped them. A
 * further decision gives the request a list of its own.
 */
export function recordDecision(request: FastifyRequest, decision: Decision): void {
  request.decisions = request.decisions === undefined ? sharedList(decision) : [...request.decisions, decision];
}

/** The caller's kind as decisions record it. */
export const callerKindOf = (request: FastifyRequest): Caller['kind'] | 'none' => request.caller?.kind ?? 'none';

/** Whether `value` is one of `words`. */
const isOneOf = <Word extends string>(words: readonly Word[], value: unknown): value is Word =>
  (words as readonly unknown[]).includes(value);

/** The `data` of the platform's `WDE0027` refusal (`actionDenied` in the items service). */
interface ActionDeniedData {
  collectionId?: unknown;
  action?: unknown;
  requiredRole?: unknown;
}

/**
 * Records a refusal the request is answered with (401, 403, 429), unless a decision already
 * explains it: a `WDE0027` becomes a collection decision, anything else keeps the error's words.
 */
export function recordRefusal(request: FastifyRequest, error: EmulatorError): void {
  if (request.decisions?.some((decision) => !decision.allowed)) return;
  const application = error.body.details.applicationError;
  const data = (application?.data ?? {}) as ActionDeniedData;
  if (
    application?.code == 'WDE0027' &&
    typeof data.collectionId == 'string' &&
    isOneOf(PERMISSION_ACTIONS, data.action)
  ) {
    recordDecision(request, {
      kind: 'collection',
      allowed: false,
      enforced: true,
      collectionId: data.collectionId,
      action: data.action,
      requiredRole: isOneOf(PERMISSION_ROLES, data.requiredRole) ? data.requiredRole : 'ADMIN',
      callerKind: callerKindOf(request),
      ...(data.requiredRole == 'SITE_MEMBER_AUTHOR' && request.caller?.kind == 'member' ? { ownItemsOnly: true } : {}),
    });
    return;
  }
  recordDecision(request, {
    kind: 'refusal',
    allowed: false,
    status: error.status,
    code: application?.code ?? 'REFUSED',
    description: error.body.message,
    callerKind: callerKindOf(request),
  });
}

const CALLER_WORDS: Readonly<Record<Decision['callerKind'], string>> = {
  visitor: 'a visitor',
  member: 'a member',
  elevated: 'elevated (API key)',
  none: 'not identified',
};

/** Who passes a role, for an action. */
function whoPasses(role: PermissionRole, action: PermissionAction): string {
  if (role == 'ANYONE') return 'anyone';
  if (role == 'SITE_MEMBER') return 'a signed-in member or an elevated client (API key)';
  if (role == 'SITE_MEMBER_AUTHOR')
    return action == 'insert'
      ? 'a signed-in member or an elevated client (API key)'
      : "the item's author (a signed-in member) or an elevated client (API key)";
  return 'an elevated client (API key)';
}

/** A recorded decision in words. */
export function explainDecision(decision: Decision): ExplainedDecision {
  const caller = `the caller is ${CALLER_WORDS[decision.callerKind]}`;
  if (decision.kind == 'refusal')
    return {
      allowed: false,
      rule: `${decision.status} ${decision.code}`,
      reason: `${decision.description} (${caller})`,
    };
  const rule = `${decision.collectionId}: ${decision.action} needs ${decision.requiredRole}`;
  const facts = {
    collectionId: decision.collectionId,
    permission: decision.action,
    requiredRole: decision.requiredRole,
  };
  if (decision.allowed) {
    const scope = !decision.ownItemsOnly
      ? ''
      : decision.enforced
        ? ', on its own items only'
        : ', on its own items only (not limited to them: config permissions is "log")';
    return { allowed: true, rule, reason: `${caller}${scope}`, ...facts };
  }
  const refusal =
    decision.ownItemsOnly && decision.callerKind == 'member' ? `${caller} who is not the item's author` : caller;
  const reason = `${refusal}; ${whoPasses(decision.requiredRole, decision.action)} would pass`;
  return decision.enforced
    ? { allowed: false, rule, reason, ...facts }
    : {
        allowed: false,
        enforced: false,
        rule,
        reason: `${reason} (let through: config permissions is "log")`,
        ...facts,
      };
}

/** The decision that explains a request: its first refusal, else its last decision. */
export function decisiveDecision(decisions: readonly Decision[] | undefined): Decision | undefined {
  if (!decisions?.length) return undefined;
  return decisions.find((decision) => !decision.allowed) ?? decisions[decisions.length - 1];
}
