/**
 * Fault injection (`/_emulator/faults`): rules that make matching requests fail with a status in
 * the platform's error shape, arrive late, or lose their connection, so an app's retry, backoff
 * and error paths can be tested against the emulator.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { routes } from '../../generated/routes.js';
import { applicationError, invalidField, validationError, type FieldViolation } from '../errors.js';
import { isApiPath } from '../http/static.js';
import { isRecord } from '../untrusted-json.js';
// The request fields the route table sets (caller, operationId), declared there.
import type {} from '../http/routes.js';
import type { Caller } from '../service.js';

/** What `POST /_emulator/faults` takes. */
export interface FaultInput {
  /** The operation to fail: an operationId of the route table (`insert`, `queryDataItems`), with or without its namespace (`items.insert`), or an SDK method name (`items.query`). */
  operation?: string;
  /** A path prefix (`/wix-data/`, `/_media/upload`); with `operation`, both must match. Neither: every API request. */
  path?: string;
  /**
   * The status to answer: an error (400–599), a success (200–299) with a `body` (an answer that
   * differs from the real one, e.g. a field renamed), or `0` to drop the connection. Absent: the
   * real answer, after `latencyMs`.
   */
  status?: number;
  /** How many matching requests it fails; absent: all of them, until removed. */
  times?: number;
  /** The chance (0 to 1) that a matching request fails. Default 1. */
  probability?: number;
  /** Delays the answer (the faulted one, or the real one when there is no `status`) by this many ms. */
  latencyMs?: number;
  /** The `Retry-After` header of the faulted answer, in seconds. */
  retryAfterSeconds?: number;
  /** The faulted answer's JSON body, instead of the platform's error shape for `status`; required for a 2xx `status`. */
  body?: unknown;
}

/** A rule as `GET /_emulator/faults` lists it. */
export interface FaultRule extends FaultInput {
  id: string;
  /** How many requests it has failed (or delayed) so far. */
  fired: number;
}

/** The fault rules of one emulator. */
export interface FaultRules {
  /** Checks and adds a rule; returns it. A malformed rule is a validation error. */
  add(input: unknown): FaultRule;
  list(): FaultRule[];
  /** Removes one rule; false when there was none with that id. */
  remove(id: string): boolean;
  clear(): void;
  /** The rule that fires for this request, if any (counted as fired). */
  take(request: FastifyRequest): FaultRule | undefined;
}

/** SDK methods written by hand (not generated from the schema), by the operation they call. */
const SDK_METHOD_ALIASES: Readonly<Record<string, string>> = {
  'items.query': 'queryDataItems',
  'items.aggregate': 'aggregateDataItems',
  'items.distinct': 'queryDistinctValues',
  'items.bulkInsert': 'bulkInsertDataItems',
  'items.bulkUpdate': 'bulkUpdateDataItems',
  'items.bulkSave': 'bulkSaveDataItems',
  'items.bulkRemove': 'bulkRemoveDataItems',
  'items.bulkPatch': 'bulkPatchDataItems',
  'items.patch': 'patchDataItem',
  'items.insertReference': 'insertDataItemReference',
  'items.removeReference': 'removeDataItemReference',
  'items.queryReferenced': 'queryReferencedDataItems',
  'members.queryMembers': 'queryMembers',
  'auth.generateVisitorTokens': 'token',
  'auth.renewToken': 'token',
};

/** The route table's operations by `METHOD url-pattern`, as Fastify names the matched route. */
const operationOfRoute = new Map(
  routes.map((route) => [`${route.method} ${route.url}`, { id: route.operationId, namespace: route.namespace }]),
);

/** The operationId and namespace of the route a request matched, if it is one of the table. */
export function routeOperation(request: FastifyRequest): { id: string; namespace?: string } | undefined {
  return operationOfRoute.get(`${request.method} ${request.routeOptions.url}`);
}

/** Whether `value` is a whole number from `minimum` to `maximum`. */
const isWholeNumberIn = (value: unknown, minimum: number, maximum = Number.MAX_SAFE_INTEGER): boolean =>
  Number.isInteger(value) && (value as number) >= minimum && (value as number) <= maximum;

/** The problems of a rule, as field violations. */
function violationsOf(input: Record<string, unknown>): FieldViolation[] {
  const violations: FieldViolation[] = [];
  const problem = (field: string, description: string, violatedRule = 'VALIDATION') =>
    violations.push({ field, description, violatedRule });
  const known = ['operation', 'path', 'status', 'times', 'probability', 'latencyMs', 'retryAfterSeconds', 'body'];
  for (const key of Object.keys(input))
    if (!known.includes(key)) problem(key, 'is not a field of a fault rule', 'FIELD_NOT_ALLOWED');
  const { operation, path, status, times, probability, latencyMs, retryAfterSeconds, body } = input;
  if (operation !== undefined && (typeof operation != 'string' || !operation)) problem('operation', 'must be a name');
  if (path !== undefined && (typeof path != 'string' || !path.startsWith('/')))
    problem('path', 'must be a path prefix starting with /', 'FORMAT');
  const isSuccess = isWholeNumberIn(status, 200, 299);
  if (status !== undefined && status !== 0 && !isSuccess && !isWholeNumberIn(status, 400, 599))
    problem('status', 'must be 0 (drop the connection), an error status from 400 to 599, or 200 to 299 with a body');
  // A success has no default body to fall back on (the error shape is for errors).
  if (isSuccess && body === undefined)
    problem(
      'body',
      'must be given with a success status (the answer to give instead of the real one)',
      'REQUIRED_FIELD',
    );
  if (status === undefined && latencyMs === undefined)
    problem('status', 'must be given unless the rule only adds latency (latencyMs)', 'REQUIRED_FIELD');
  if (times !== undefined && !isWholeNumberIn(times, 1))
    problem('times', 'must be a whole number of at least 1', 'MIN');
  if (probability !== undefined && !(typeof probability == 'number' && probability >= 0 && probability <= 1))
    problem('probability', 'must be a number from 0 to 1');
  if (latencyMs !== undefined && !isWholeNumberIn(latencyMs, 0, 60_000))
    problem('latencyMs', 'must be a whole number of milliseconds from 0 to 60000');
  if (retryAfterSeconds !== undefined && !isWholeNumberIn(retryAfterSeconds, 0))
    problem('retryAfterSeconds', 'must be a whole number of at least 0', 'MIN');
  return violations;
}

/** Whether a rule names the operation of a request. */
function matchesOperation(name: string, operation: { id: string; namespace?: string } | undefined): boolean {
  if (!operation) return false;
  const target = SDK_METHOD_ALIASES[name] ?? name;
  return target == operation.id || target == `${operation.namespace}.${operation.id}`;
}

/** An empty set of rules; `random` is injectable for the tests of `probability`. */
export function createFaultRules(random: () => number = Math.random): FaultRules {
  let rules: FaultRule[] = [];
  return {
    add(input) {
      if (!isRecord(input)) throw invalidField('request', 'must be an object (a fault rule)');
      const violations = violationsOf(input);
      if (violations.length) throw validationError(violations);
      const rule: FaultRule = { id: randomUUID(), ...(input as FaultInput), fired: 0 };
      rules.push(rule);
      return rule;
    },
    list: () => rules.map((rule) => ({ ...rule })),
    remove(id) {
      const before = rules.length;
      rules = rules.filter((rule) => rule.id != id);
      return rules.length < before;
    },
    clear: () => void (rules = []),
    take(request) {
      if (!rules.length) return undefined;
      const path = request.url.split('?')[0]!;
      // The control API is never faulted: a rule must stay removable.
      if (path.startsWith('/_emulator/')) return undefined;
      const operation = routeOperation(request);
      const isApi = operation !== undefined || isApiPath(path);
      const rule = rules.find(
        (candidate) =>
          (candidate.times === undefined || candidate.fired < candidate.times) &&
          // A rule that names nothing fails the API, not the console's own pages and scripts.
          (candidate.path !== undefined || candidate.operation !== undefined || isApi) &&
          (candidate.path === undefined || path.startsWith(candidate.path)) &&
          (candidate.operation === undefined || matchesOperation(candidate.operation, operation)) &&
          (candidate.probability === undefined || random() < candidate.probability),
      );
      if (rule) rule.fired++;
      return rule;
    },
  };
}

/** The text of common error statuses, for the error code of a faulted answer. */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'ALREADY_EXISTS',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL',
  502: 'BAD_GATEWAY',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The platform's error body for a status (5xx: a system error naming the request id). */
function faultBody(status: number, requestId: string): unknown {
  if (status >= 500) return { message: `System error occurred (request id ${requestId})`, details: {} };
  return applicationError(status, STATUS_CODES[status] ?? 'FAULT', `Injected fault: ${status}`).body;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The fault rule that answered (or delayed) this request. */
    faultId?: string;
    /** Whether that rule answered (or dropped) it: then the route never ran. */
    faultAnswered?: boolean;
  }
}

/**
 * Who calls, for the log of a request a fault answers before its route could say: a caller, a
 * promise of one (an access token is verified asynchronously), or undefined when no caller can be
 * told (never a refusal: the fault is the answer).
 */
export type CallerOfRequest = (request: FastifyRequest) => Caller | Promise<Caller | undefined> | undefined;

/**
 * The `onRequest` hook that applies the rules: it delays, answers the fault, drops the
 * connection (then tells `onDrop`, as no response will be logged), or lets the request go on
 * (after any latency). In the callback form: without a rule for the request it lets it go on at
 * once, at the cost of a function call (an async hook would cost every request a promise and a
 * microtask). A faulted request's caller is told by `callerOf`, so its log line names who called.
 */
export function faultHook(faults: FaultRules, onDrop: (request: FastifyRequest) => void, callerOf: CallerOfRequest) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const rule = faults.take(request);
    if (!rule) {
      done();
      return;
    }
    request.faultId = rule.id;
    request.faultAnswered = rule.status !== undefined;
    // A faulted request never reaches its route, which would name its operation for the log.
    request.operationId ??= routeOperation(request)?.id;
    const apply = () => {
      if (rule.latencyMs) setTimeout(() => applyFault(rule, request, reply, onDrop, done), rule.latencyMs);
      else applyFault(rule, request, reply, onDrop, done);
    };
    const caller = callerOf(request);
    if (caller instanceof Promise)
      void caller.then((found) => {
        request.caller ??= found;
        apply();
      });
    else {
      request.caller ??= caller;
      apply();
    }
  };
}

/** Answers `rule`'s fault, drops the connection, or lets the request go on (no status). */
function applyFault(
  rule: FaultRule,
  request: FastifyRequest,
  reply: FastifyReply,
  onDrop: (request: FastifyRequest) => void,
  done: (error?: Error) => void,
): void {
  if (rule.status === undefined) {
    done();
    return;
  }
  if (rule.status === 0) {
    reply.hijack();
    request.raw.socket.destroy();
    // No response, so no onResponse hook: the request is logged here.
    onDrop(request);
    return;
  }
  if (rule.retryAfterSeconds !== undefined) reply.header('retry-after', String(rule.retryAfterSeconds));
  reply.code(rule.status).send(rule.body !== undefined ? rule.body : faultBody(rule.status, request.id));
}
