/**
 * Registers control routes from their declaration: each handler names its operationId, and the
 * route's method, URL and JSON schemas come from the generated route table, so Fastify validates
 * every request against the schema (errors in the production shape, by the server's error
 * handler) before the handler runs, and the handler is typed from the same schema.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { controlDocument } from '../../generated/control/document.js';
import { CONTROL_SCHEMA_ID, controlRoutes, type ControlRoute } from '../../generated/control/routes.js';
import { coerceQuery } from '../http/coerce.js';
import type { ControlOperationId, ControlRequest, ControlResult } from './api.js';

/** A typed control handler: the validated request in, the answer out. */
export type ControlHandler<Id extends ControlOperationId> = (
  call: ControlRequest<Id> & { request: FastifyRequest; reply: FastifyReply },
) => ControlResult<Id> | Promise<ControlResult<Id>>;

const routeById = new Map(controlRoutes.map((route) => [route.operationId, route]));

/** The servers that have the control components registered with their validator. */
const prepared = new WeakSet<FastifyInstance>();

/** Makes the control schema's components known to `app`'s validator (once per server). */
function prepare(app: FastifyInstance): void {
  if (prepared.has(app)) return;
  prepared.add(app);
  app.addSchema({ $id: CONTROL_SCHEMA_ID, components: controlDocument.components });
}

/** The route's options: its schemas, and the query typed by them (a query string holds text only). */
function routeOptions(route: ControlRoute, extra: Pick<RouteShorthandOptions, 'bodyLimit'>): RouteShorthandOptions {
  const components = controlDocument.components as { schemas: Record<string, unknown> };
  return {
    ...extra,
    schema: {
      querystring: route.querystring,
      ...(route.params ? { params: route.params } : {}),
      ...(route.body ? { body: route.body } : {}),
    },
    preValidation(request, _reply, done) {
      request.query = coerceQuery(request.query, route.querystring, components);
      // An optional body that was not sent is validated as the empty request.
      if (route.body && !route.bodyRequired && (request.body === undefined || request.body === null)) request.body = {};
      done();
    },
  };
}

/**
 * Registers the control operation `operationId` on `app` with `handler`.
 * @example
 * ```ts
 * controlRoute(app, 'getClock', () => clockState(context.clock));
 * ```
 */
export function controlRoute<Id extends ControlOperationId>(
  app: FastifyInstance,
  operationId: Id,
  handler: ControlHandler<Id>,
  extra: Pick<RouteShorthandOptions, 'bodyLimit'> = {},
): void {
  const route = routeById.get(operationId)!;
  prepare(app);
  app.route({
    method: route.method,
    url: route.url,
    ...routeOptions(route, extra),
    handler: (request, reply) => {
      if (route.status) reply.code(route.status);
      return handler({
        params: request.params as ControlRequest<Id>['params'],
        query: request.query as ControlRequest<Id>['query'],
        body: request.body as ControlRequest<Id>['body'],
        request,
        reply,
      });
    },
  });
}

/** The declared control operations `app` does not serve: a start-up check, so none is forgotten. */
export function unservedControlRoutes(app: FastifyInstance): ControlOperationId[] {
  return controlRoutes
    .filter((route) => !app.hasRoute({ method: route.method, url: route.url }))
    .map((route) => route.operationId);
}
