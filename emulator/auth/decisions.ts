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

/** A collection permission evaluated for an item action. */
export interface CollectionDecision {
  kind: 'collection';
  allowed: boolean;
  /** False when the decision was only logged (config `permissions: "log"`): a refusal let through, or an author-only scope not applied. */
  enforced: boolean;
  collectionId: string;
  /** `read`, `insert`, `update` or `remove`. */
  action: string;
  /** The collection's role for the action: `ANYONE`, `SITE_MEMBER`, `SITE_MEMBER_AUTHOR`, `ADMIN`. */
  requiredRole: string;
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
/** Collection decisions' shared lists, by collection id, then by {@link factsCode}. */
const collectionLists = new Map<string, Map<number, readonly Decision[]>>();
/** Other decisions' shared lists (refusals: rare), by their facts as one string. */
const otherLists = new Map<string, readonly Decision[]>();
let sharedLists = 0;

/** Small numbers for the words of decisions' facts (actions, roles, caller kinds), given as met. */
const wordCodes = new Map<string, number>();
const codeOf = (word: string): number => {
  let code = wordCodes.get(word);
  if (code === undefined) wordCodes.set(word, (code = wordCodes.size));
  return code;
};

/** A collection decision's facts but its collection as one number: no string is built per request. */
const factsCode = (decision: CollectionDecision): number =>
  ((codeOf(decision.action) * 1024 + codeOf(decision.requiredRole)) * 1024 + codeOf(decision.callerKind)) * 8 +
  (decision.allowed ? 4 : 0) +
  (decision.enforced ? 2 : 0) +
  (decision.ownItemsOnly ? 1 : 0);

/** The list of one decision that every request taking the same decision shares. */
function sharedList(decision: Decision): readonly Decision[] {
  // The codes stay below 1024 (the words are a few enums; a decision adds at most three), so no
  // two facts share a number.
  if (sharedLists >= SHARED_LISTS || wordCodes.size >= 1000) {
    collectionLists.clear();
    otherLists.clear();
    wordCodes.clear();
    sharedLists = 0;
  }
  let lists: Map<number | string, readonly Decision[]>;
  let key: number | string;
  if (decision.kind == 'collection') {
    let forCollection = collectionLists.get(decision.collectionId);
    if (!forCollection) collectionLists.set(decision.collectionId, (forCollection = new Map()));
    lists = forCollection as Map<number | string, readonly Decision[]>;
    key = factsCode(decision);
  } else {
    lists = otherLists as Map<number | string, readonly Decision[]>;
    key = `${decision.status}|${decision.callerKind}|${decision.code}|${decision.description}`;
  }
  let shared = lists.get(key);
  if (!shared) {
    shared = Object.freeze([Object.freeze(decision)]);
    lists.set(key, shared);
    sharedLists++;
  }
  return shared;
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
  if (application?.code == 'WDE0027' && typeof data.collectionId == 'string' && typeof data.action == 'string') {
    recordDecision(request, {
      kind: 'collection',
      allowed: false,
      enforced: true,
      collectionId: data.collectionId,
      action: data.action,
      requiredRole: typeof data.requiredRole == 'string' ? data.requiredRole : 'ADMIN',
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
function whoPasses(role: string, action: string): string {
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
