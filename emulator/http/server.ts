/** The Fastify server: request ids, CORS, the production error shapes, the route table, the console. */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import { components, routes } from '../../generated/routes.js';
import { applicationError, EmulatorError, validationError } from '../errors.js';
import { recordRefusal } from '../auth/decisions.js';
import { keepResponsePayload } from '../control/logged-bodies.js';
import { unservedControlRoutes } from '../control/register.js';
import { requestLogOf } from '../control/request-log.js';
import { requestRecord } from '../control/request-record.js';
import type { ServiceModule } from '../service.js';
import type { SiteRegistry } from '../sites/registry.js';
import { resolveSite, resolveSiteFromBody } from '../sites/resolve.js';
import { splitSitePath } from '../sites/site-path.js';
import { answerCors, registerPreflightRoute } from './cors.js';
import { parseQueryString } from './querystring.js';
import {
  CONTROL_HEADER,
  controlRequestProblem,
  createHostCheck,
  isAllowedOrigin,
  isControlOrigin,
  isControlPath,
} from './request-guards.js';
import { registerTableRoutes } from './routes.js';
import { buildSharedValidator, SCHEMA_ID, VALIDATOR_OPTIONS, type SchemaError } from './schema-validator.js';
import { isApiPath, serveConsole } from './static.js';
import { fieldViolations } from './violations.js';

/** What {@link buildServer} needs. */
export interface ServerOptions {
  /** The sites; server-wide settings (allowed hosts and origins) are the default site's. */
  sites: SiteRegistry;
  modules: readonly ServiceModule[];
  /** Directory of the built console (`dist/console`). */
  consoleDir: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** The interface the server is bound to (`127.0.0.1`, `::`, a host name): a `Host` the emulator answers to. */
  host: string;
  /** Host names it answers to besides those of the `allowedHosts` setting (the start option). */
  allowedHosts: readonly string[];
  /** Origins whose pages may use the control API besides those of the `controlOrigins` setting (the start option). */
  controlOrigins: readonly string[];
}

/** `Payload Too Large` → `PAYLOAD_TOO_LARGE`. */
const codeFromStatusText = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]+/g, '_');

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  431: 'Request Header Fields Too Large',
};

/** `METHOD url` of the table routes callable without credentials (their body may name the site). */
function anonymousRouteKeys(modules: readonly ServiceModule[]): Set<string> {
  const anonymous = new Set(modules.flatMap((module) => module.anonymousOperations ?? []));
  return new Set(
    routes.filter((route) => anonymous.has(route.operationId)).map((route) => `${route.method} ${route.url}`),
  );
}

/** Builds the emulator's server (not listening yet). */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { sites, modules } = options;
  // Which hosts and origins the server answers is one setting for all sites: the default site's.
  const settings = sites.defaultSite.config;
  /** The site id of each request whose URL began with a site's path (taken off before routing). */
  const pathSiteIds = new WeakMap<object, string>();
  const anonymousRoutes = anonymousRouteKeys(modules);
  const app = Fastify({
    // A site's own links (`/_sites/<id>/_media/...`): routed as the default site's, for that site.
    rewriteUrl(request) {
      const split = request.url === undefined ? undefined : splitSitePath(request.url);
      if (!split) return request.url ?? '/';
      pathSiteIds.set(request, split.siteId);
      return split.rest;
    },
    logger: false,
    bodyLimit: options.bodyLimit,
    genReqId: () => randomUUID(),
    // Never take a request id from the client: ours go into the log and the errors.
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQueryString },
    ajv: VALIDATOR_OPTIONS,
    schemaController: { compilersFactory: { buildValidator: buildSharedValidator } },
  });
  app.addSchema({ $id: SCHEMA_ID, components });
  // The platform's API speaks JSON only; a module that takes other bodies (uploads) adds its own parser in its routes().
  app.removeContentTypeParser('text/plain');

  // Hooks in the callback form: an async hook costs every request a promise and a turn of the
  // microtask queue, and these run on every request.
  // The guards, before CORS and every route: a page on a rebound DNS name (rebind.attacker.example
  // → 127.0.0.1) reaches the emulator as same-origin, so only the names the emulator is known by
  // are answered; then one rule for every request of the control API (reset, import, export,
  // sign-in-as, and any route added under /_emulator/).
  const isKnownHost = createHostCheck(options.host, options.allowedHosts, () => settings.get<string[]>('allowedHosts'));
  const controlOrigins = () => [...options.controlOrigins, ...settings.get<string[]>('controlOrigins')];
  const guardRefusal = (request: FastifyRequest, control: boolean): EmulatorError | undefined => {
    if (!isKnownHost(request.headers.host))
      return applicationError(
        403,
        'HOST_NOT_ALLOWED',
        `The emulator does not answer to the host ${request.headers.host ?? '(none)'}: add it to the config setting allowedHosts (from localhost) to allow it.`,
      );
    if (!control) return undefined;
    const { method } = request;
    const reason = controlRequestProblem(
      {
        origin: request.headers.origin,
        host: request.headers.host,
        contentType: request.headers['content-type'],
        controlHeader: request.headers[CONTROL_HEADER] !== undefined,
      },
      method != 'GET' && method != 'HEAD' && method != 'OPTIONS',
      controlOrigins(),
    );
    return reason ? applicationError(403, 'PERMISSION_DENIED', reason) : undefined;
  };
  // Browser apps on this machine (any port of a loopback host), plus the origins set in the
  // config, may call the platform API; never any website: a page the developer happens to visit
  // must not read or write the demo site. The control API, only the emulator's own origin and the
  // named ones (the guard refused any other before CORS).
  const isAllowedCaller = (origin: string) => isAllowedOrigin(origin, settings.get<string[]>('allowedCorsOrigins'));
  const isAllowedControlCaller = (request: FastifyRequest) => (origin: string) =>
    isControlOrigin(origin, request.headers.host, controlOrigins());
  // What every request goes through first, in one hook: its id; the guards; CORS (a preflight is
  // answered there). Hooks added after this one (the test bench's fault rules) run after it, so a
  // browser app reads a faulted answer (and its Retry-After) as the real one.
  // Then the request's site (`sites/resolve.ts`): a site it names that is not there, or two names of
  // different sites, are refused here, with the CORS headers a browser app needs to read why.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-wix-request-id', request.id);
    const control = isControlPath(request.routeOptions.url, request.url);
    const refusal = guardRefusal(request, control);
    if (refusal) {
      reply.code(refusal.status).send(refusal.body);
      return;
    }
    if (answerCors(request, reply, control ? isAllowedControlCaller(request) : isAllowedCaller)) return;
    const site = resolveSite(sites, request, {
      control,
      anonymous: anonymousRoutes.has(`${request.method} ${request.routeOptions.url}`),
      pathSiteId: pathSiteIds.get(request.raw),
    });
    if (site instanceof EmulatorError) reply.code(site.status).send(site.body);
    else {
      request.site = site;
      done();
    }
  });
  // A token request names its site by its client id, in its body.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.siteFromBody) resolveSiteFromBody(sites, request);
    done();
  });
  registerPreflightRoute(app);
  // The log records facts (references, numbers) and writes them out when it is read; each site its own.
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.url.startsWith('/_emulator/requests'))
      requestLogOf(sites.of(request)).add(requestRecord(request, reply.statusCode, reply.elapsedTime));
    done();
  });
  app.addHook('onSend', keepResponsePayload);

  // Every refusal (401, 403, 429) gets its reason in the request log.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof EmulatorError && [401, 403, 429].includes(error.status)) recordRefusal(request, error);
  });

  app.setErrorHandler((error: FastifyError | EmulatorError, request, reply) => {
    if (error instanceof EmulatorError) return reply.code(error.status).send(error.body);
    // Routes with a Fastify schema (outside the table) fail validation here.
    if (error.validation) {
      const problem = validationError(fieldViolations(error.validation as SchemaError[]));
      return reply.code(problem.status).send(problem.body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (
        error instanceof SyntaxError ||
        error.code == 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        error.code == 'FST_ERR_CTP_EMPTY_JSON_BODY'
      ) {
        const problem = validationError([
          { field: 'request', description: `is not valid JSON: ${error.message}`, violatedRule: 'FORMAT' },
        ]);
        return reply.code(400).send(problem.body);
      }
      const text = STATUS_TEXT[status] ?? 'Bad Request';
      const problem = applicationError(status, codeFromStatusText(text), error.message || text);
      return reply.code(status).send(problem.body);
    }
    console.error(`[sitekit emulator] ${request.method} ${request.url} failed (request ${request.id}):`, error);
    return reply.code(500).send({ message: `System error occurred (request id ${request.id})`, details: {} });
  });

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if ((request.method == 'GET' || request.method == 'HEAD') && !isApiPath(path))
      return serveConsole(options.consoleDir, path, reply);
    return reply.code(404).send({ message: `Not Found: no route for ${request.method} ${path}`, details: {} });
  });

  registerTableRoutes(app, sites, modules);
  for (const module of modules) await module.routes?.(app, sites);
  const unserved = unservedControlRoutes(app);
  if (unserved.length) throw new Error(`Control operations declared but not served: ${unserved.join(', ')}`);
  return app;
}
