/**
 * Fault injection (`/_emulator/faults`): rules that make matching requests fail with a status in
 * the platform's error shape, arrive late, or lose their connection, so an app's retry, backoff
 * and error paths can be tested against the emulator.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { faultOperations } from '../../generated/control/fault-operations.js';
import { routes } from '../../generated/routes.js';
import { applicationError } from '../errors.js';
import { isApiPath } from '../http/static.js';
import type { FaultInput, FaultRule } from '../control/api.js';
// The request fields the route table sets (caller, operationId), declared there.
import type {} from '../http/routes.js';
import type { Caller, EmulatorContext } from '../service.js';
import { perSite } from '../per-site.js';

export type { FaultInput, FaultRule };

/** The fault rules of one emulator. */
export interface FaultRules {
  /** Adds a rule (its schema has checked it); returns it. */
  add(input: FaultInput): FaultRule;
  list(): FaultRule[];
  /** Removes one rule; false when there was none with that id. */
  remove(id: string): boolean;
  clear(): void;
  /** The rule that fires for this request, if any (counted as fired). */
  take(request: FastifyRequest): FaultRule | undefined;
}

/** The route table's operations by `METHOD url-pattern`, as Fastify names the matched route. */
const operationOfRoute = new Map(
  routes.map((route) => [`${route.method} ${route.url}`, { id: route.operationId, namespace: route.namespace }]),
);

/** The operationId and namespace of the route a request matched, if it is one of the table. */
export function routeOperation(request: FastifyRequest): { id: string; namespace?: string } | undefined {
  return operationOfRoute.get(`${request.method} ${request.routeOptions.url}`);
}

/** Whether a rule names the operation of a request. */
function matchesOperation(name: string, operation: { id: string; namespace?: string } | undefined): boolean {
  // Every name the schema lets a rule give is in the generated table (the schema refuses others).
  return operation !== undefined && faultOperations[name]!.includes(operation.id);
}

/** An empty set of rules; `random` is injectable for the tests of `probability`. */
export function createFaultRules(random: () => number = Math.random): FaultRules {
  let rules: FaultRule[] = [];
  return {
    add(input) {
      const rule: FaultRule = { id: randomUUID(), ...input, fired: 0 };
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
      // Stryker disable next-line ConditionalExpression: a shortcut; without rules the search below finds none either.
      if (!rules.length) return undefined;
      const path = request.url.split('?')[0]!;
      // The control API is never faulted: a rule must stay removable.
      if (path.startsWith('/_emulator/')) return undefined;
      const operation = routeOperation(request);
      const isApi = operation !== undefined || isApiPath(path);
      const rule = rules.find(
        (candidate) =>
          (candidate.times === undefined || candidate.fired < candidate.times) &&
          // A rule that names nothing fails the API, not the console's own pages and scripts (an
          // operation rule matches API routes only).
          (candidate.path !== undefined || isApi) &&
          (candidate.path === undefined || path.startsWith(candidate.path)) &&
          (candidate.operation === undefined || matchesOperation(candidate.operation, operation)) &&
          (candidate.probability === undefined || random() < candidate.probability),
      );
      if (rule) rule.fired++;
      return rule;
    },
  };
}

/** The fault rules of a site (each site has its own), made when first asked for. */
export const faultRulesOf: (context: EmulatorContext) => FaultRules = perSite(() => createFaultRules());

/** The text of common 4xx statuses, for the error code of a faulted answer (a 5xx is a system error, without one). */
const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'ALREADY_EXISTS',
  429: 'TOO_MANY_REQUESTS',
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
 * The hook that applies the rules of the request's site (`rulesOf`; none: the request is not
 * faulted at this step): it delays, answers the fault, drops the
 * connection (then tells `onDrop`, as no response will be logged), or lets the request go on
 * (after any latency). In the callback form: without a rule for the request it lets it go on at
 * once, at the cost of a function call (an async hook would cost every request a promise and a
 * microtask). A faulted request's caller is told by `callerOf`, so its log line names who called.
 */
export function faultHook(
  rulesOf: (request: FastifyRequest) => FaultRules | undefined,
  onDrop: (request: FastifyRequest) => void,
  callerOf: CallerOfRequest,
) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const rule = rulesOf(request)?.take(request);
    if (!rule) {
      done();
      return;
    }
    request.faultId = rule.id;
    request.faultAnswered = rule.status !== undefined;
    // A faulted request never reaches its route, which would name its operation for the log.
    request.operationId ??= routeOperation(request)?.id;
    const apply = () => {
      // Stryker disable next-line ConditionalExpression: a timer of no delay (latencyMs absent or 0) answers the same, a tick later.
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
    // The response's destroy tears down its socket, and ends an in-process request (which has none) the same way.
    reply.raw.destroy();
    // No response, so no onResponse hook: the request is logged here.
    onDrop(request);
    return;
  }
  if (rule.retryAfterSeconds !== undefined) reply.header('retry-after', String(rule.retryAfterSeconds));
  reply.code(rule.status).send(rule.body !== undefined ? rule.body : faultBody(rule.status, request.id));
}
