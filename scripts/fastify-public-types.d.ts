// The Fastify types the emulator's published declarations name: a service module's raw request and
// reply (`ServiceCall`) and the server its extra routes go on (`ServiceModule.routes`). The package
// bundles Fastify (dist/vendor/) instead of depending on it, so an app has no `fastify` declarations
// to resolve; the declaration build (rollup.config.mjs) puts these in their place. Each member here
// is one Fastify 5 has, with the same meaning; the emulator's sources use Fastify's own types.

/** A route's handler. */
type RouteHandler = (request: FastifyRequest, reply: FastifyReply) => unknown;

/** The request of one call (Fastify's `FastifyRequest`, in part). */
export interface FastifyRequest {
  /** The request id the emulator gave it (`x-wix-request-id`). */
  readonly id: string;
  readonly method: string;
  /** The path and query string, as received. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly query: unknown;
  readonly params: unknown;
  readonly body: unknown;
}

/** The reply of one call (Fastify's `FastifyReply`, in part). */
export interface FastifyReply {
  readonly statusCode: number;
  code(statusCode: number): FastifyReply;
  header(name: string, value: unknown): FastifyReply;
  getHeader(name: string): number | string | string[] | undefined;
  send(payload?: unknown): FastifyReply;
}

/** The emulator's server (Fastify's `FastifyInstance`, in part): routes added beside the route table. */
export interface FastifyInstance {
  get(path: string, handler: RouteHandler): FastifyInstance;
  post(path: string, handler: RouteHandler): FastifyInstance;
  put(path: string, handler: RouteHandler): FastifyInstance;
  patch(path: string, handler: RouteHandler): FastifyInstance;
  delete(path: string, handler: RouteHandler): FastifyInstance;
}
