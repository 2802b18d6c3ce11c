/**
 * Registers every route of the generated route table (`generated/routes.ts`) with its request
 * schema, and runs the operation a service module provides for it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { components, routes, type Route } from '../../generated/routes.js';
import * as operationTable from '../../generated/operations.js';
import { resolveCaller } from '../auth/caller.js';
import { applicationError, invalidField, permissionDenied, validationError } from '../errors.js';
import type { DomainEvent } from '../events.js';
import type { Caller, EmulatorContext, Operation, ServiceCall, ServiceModule, SiteDirectory } from '../service.js';
import { isRecord } from '../untrusted-json.js';
import { coerceQuery } from './coerce.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';
import { QUERY_PROBLEM } from './querystring.js';
import { requestSchema, type SchemaError } from './schema-validator.js';
import { fieldViolations } from './violations.js';
import { perSite } from '../per-site.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling; set before validation on table routes. */
    caller?: Caller;
    /** The operation of the route table this request was routed to. */
    operationId?: string;
  }
}

/** The per-operation facts of the generated operation table that the emulator needs. */
interface OperationFacts {
  elevated?: true;
  readOnly?: true;
}
const facts = operationTable as unknown as Record<string, OperationFacts | undefined>;

/**
 * The largest body of a read-only operation (a query, a count, an aggregation): room for the
 * largest filter the translator accepts (100 conditions, lists of 10,000 values) many times over.
 * The 16 MiB every body may have is for writes: parsing a 16 MiB filter only to refuse it took
 * hundreds of milliseconds of the event loop.
 */
const READ_BODY_LIMIT = 1024 * 1024;

/** Sets the field at `path` in `target` (creating objects on the way) unless something is already there. */
function setIfAbsent(target: Record<string, unknown>, path: readonly string[], value: string): void {
  let node = target;
  for (let index = 0; index < path.length - 1; index++) {
    const segment = path[index]!;
    if (typeof node[segment] != 'object' || node[segment] === null) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (node[last] === undefined) node[last] = value;
}

/** The operations of all modules, by operationId; two modules implementing one operation is a bug. */
function collectOperations(modules: readonly ServiceModule[]): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const module of modules) {
    for (const [operationId, operation] of Object.entries(module.operations ?? {})) {
      if (operations.has(operationId)) throw new Error(`Two service modules implement ${operationId}`);
      operations.set(operationId, operation);
    }
  }
  return operations;
}

/**
 * A table route's call of its operation. A class rather than an object with an `emit` closure and
 * an event list of its own: most calls emit nothing, and the list is made at the first event.
 */
class RouteCall implements ServiceCall {
  /** The events queued, in order; published once the request's transaction has committed. */
  events: DomainEvent[] | undefined;

  constructor(
    public input: Record<string, unknown>,
    readonly caller: Caller,
    readonly requestId: string,
    readonly request: FastifyRequest,
    readonly reply: FastifyReply,
  ) {}

  emit(event: DomainEvent): void {
    // The event hub stamps it with the emulator's time when it publishes it.
    (this.events ??= []).push(event);
  }
}

/**
 * Runs one operation: a synchronous handler inside one transaction, and its committed events go
 * out before it returns (no promise of its own); one that manages its transactions is awaited.
 */
function run(operation: Operation, call: RouteCall, context: EmulatorContext): unknown {
  if (typeof operation != 'function') {
    return Promise.resolve(operation.handle(call, context)).then((result) => {
      if (call.events) context.events.publish(call.events);
      return result;
    });
  }
  const result = context.store.transaction(() => {
    const value = operation(call, context);
    if (value instanceof Promise)
      throw new Error('A synchronous operation returned a promise: declare it with manageTransactions');
    return value;
  });
  if (call.events) context.events.publish(call.events);
  return result;
}

/** The rate limiter of a site (its own windows), made at its first call. */
const rateLimiterOf = perSite<RateLimiter>((context) =>
  createRateLimiter(context.config, context.clock, context.site.clientId),
);

/** The request schema of a route that declares none. */
const ANY_OBJECT = { type: 'object' };

/** Registers the whole route table (every call runs on its request's site); routes no module implements answer 501. */
export function registerTableRoutes(
  app: FastifyInstance,
  sites: SiteDirectory,
  modules: readonly ServiceModule[],
): void {
  const operations = collectOperations(modules);
  const anonymous = new Set(modules.flatMap((module) => module.anonymousOperations ?? []));
  let writeSequence = 0;

  for (const route of routes) {
    const operation = operations.get(route.operationId);
    const fact = facts[route.operationId] ?? {};
    const isWrite = route.method != 'GET' && !fact.readOnly;
    const hasQueryInput = route.method == 'GET' || route.method == 'DELETE';
    const schema = requestSchema((hasQueryInput ? route.query : route.body) ?? ANY_OBJECT) as Record<string, unknown>;

    const pathFields = pathFieldsOf(route);
    let validate: ReturnType<FastifyRequest['compileValidationSchema']> | undefined;
    /** What follows the caller: the rate limit, the elevated-only rule, the schema. Throws the refusal. */
    const admit = (request: FastifyRequest, reply: FastifyReply, caller: Caller): void => {
      request.caller = caller;
      rateLimiterOf(sites.of(request)).check(caller, reply);
      if (fact.elevated && caller.kind != 'elevated') {
        throw permissionDenied(`${route.operationId} requires an elevated client (an API key)`);
      }
      // Validated here rather than by a route schema: Fastify then compiles each route's
      // validator on its first request (and caches it), not all of them at start-up.
      validate ??= request.compileValidationSchema(schema, hasQueryInput ? 'querystring' : 'body');
      if (!validate(hasQueryInput ? request.query : request.body))
        throw validationError(fieldViolations((validate.errors ?? []) as SchemaError[]));
    };

    app.route({
      method: route.method,
      url: route.url,
      // A read's body is a filter, a sort, paging: refused past READ_BODY_LIMIT before it is parsed.
      ...(fact.readOnly && !hasQueryInput ? { bodyLimit: READ_BODY_LIMIT } : {}),
      // In the callback form, synchronous for an API key or an anonymous call: an async hook costs
      // every request a promise and a microtask turn. An access token's check is asynchronous: the
      // hook then returns its promise.
      preValidation(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
        request.operationId = route.operationId;
        if (hasQueryInput) prepareQuery(request, route);
        else if ((request.body === undefined || request.body === null) && pathFields.length) {
          // A body-less POST of an operation whose fields all come from the path.
          request.body = {};
        }
        mergePathParameters(request, hasQueryInput ? request.query : request.body, pathFields);
        const problem = (request.query as Record<symbol, string> | undefined)?.[QUERY_PROBLEM];
        if (problem) throw invalidField('.r', problem, 'FORMAT');
        const { site, tokens } = sites.of(request);
        const caller = resolveCaller(request.headers.authorization, site, tokens, anonymous.has(route.operationId));
        if (caller instanceof Promise) return caller.then((verified) => admit(request, reply, verified));
        admit(request, reply, caller);
        done();
        return undefined;
      },
      async handler(request: FastifyRequest, reply: FastifyReply) {
        if (!operation) {
          throw applicationError(
            501,
            'UNIMPLEMENTED',
            `${route.method} ${route.url} (${route.operationId}) is not implemented by the emulator`,
          );
        }
        const input = (hasQueryInput ? request.query : request.body) as Record<string, unknown> | undefined;
        const call = new RouteCall(input ?? {}, request.caller!, request.id, request, reply);
        const outcome = run(operation, call, sites.of(request));
        const result = outcome instanceof Promise ? await outcome : outcome;
        // Every read sees every committed write here, so the token only has to be replayable.
        if (isWrite) reply.header('x-wix-consistent', String(++writeSequence));
        if (reply.sent) return reply;
        return result ?? {};
      },
    });
  }
}

/** A path parameter and the request field it stands for, as segments (`dataItem.id` → `['dataItem', 'id']`). */
interface PathField {
  param: string;
  field: string[];
}

const pathFieldsOf = (route: Route): PathField[] =>
  Object.entries(route.params).map(([param, field]) => ({ param, field: field.split('.') }));

/** Types the parsed query string by the route's query schema (`coerce.ts`), keeping a `.r` problem. */
function prepareQuery(request: FastifyRequest, route: Route): void {
  const query = request.query as Record<symbol, string>;
  const typed = coerceQuery(query, route.query, components) as Record<symbol, string>;
  // Coercion copies the object without its symbol key.
  if (typed !== query && query[QUERY_PROBLEM]) typed[QUERY_PROBLEM] = query[QUERY_PROBLEM];
  request.query = typed;
}

/** Puts path parameters into the request object at the field they stand for (`dataItem.id`). */
function mergePathParameters(request: FastifyRequest, target: unknown, pathFields: readonly PathField[]): void {
  if (!pathFields.length || !isRecord(target)) return;
  const params = request.params as Record<string, string>;
  for (const { param, field } of pathFields) {
    if (params[param] !== undefined) setIfAbsent(target, field, params[param]!);
  }
}
