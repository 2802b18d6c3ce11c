/** createClient: wires the transport, the auth strategy and the five namespaces. */
import { namespaceOperations, type AuthOperations, type CollectionsOperations, type ItemsOperations, type MediaOperations, type MembersOperations } from '../generated/namespaces.js';
import { operations } from '../generated/operations.js';
import type { CallOptions } from '../generated/request.js';
import { noAuth, type AuthStrategy } from './auth/strategy.js';
import { RequestError } from './errors/index.js';
import type { RetryOptions } from './http/retry.js';
import { Transport } from './http/transport.js';
import { bindOperations } from './invoke.js';

/** Options of {@link createClient}. */
export interface ClientOptions<A extends AuthStrategy = AuthStrategy> {
  /** How calls authenticate: `OAuthStrategy(...)` for visitors and members, `ApiKeyStrategy(...)` for elevated calls. */
  auth?: A;
  /** Scheme and host of the API; default `https://www.wixapis.com`. The emulator: `http://127.0.0.1:4700`. */
  baseUrl?: string;
  /** The fetch to use; default the global one. */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retry policy for idempotent calls (network errors, 408, 429, 5xx), or `false` for none. */
  retry?: RetryOptions | false;
  /** Default time limit of each call in milliseconds, retries included. */
  timeoutMs?: number;
}

/** The GraphQL answer: `{data, errors}` as the service sends it. */
export interface GraphQLResult<T = unknown> {
  data?: T;
  errors?: { message: string; [key: string]: unknown }[];
}

/** A sitekit client: one per site (and per visitor or member session). */
export interface Client<A extends AuthStrategy = AuthStrategy> {
  /** Data collections. */
  readonly collections: CollectionsOperations;
  /** Data items. */
  readonly items: ItemsOperations;
  /** Site media files. */
  readonly media: MediaOperations;
  /** Site members. */
  readonly members: MembersOperations;
  /** The auth strategy given to createClient (token state, login flows). */
  readonly auth: A & AuthOperations;
  /**
   * Calls any provider path (or absolute URL) with the client's auth, headers, time limit and
   * retries (idempotent methods only). Resolves with the 2xx Response; rejects with SiteKitError.
   */
  fetchWithAuth(pathOrUrl: string | URL, init?: RequestInit & CallOptions): Promise<Response>;
  /** Runs a GraphQL query (`POST /graphql/alpha`) with the client's auth. */
  graphql<T = unknown>(query: string, variables?: Record<string, unknown>, options?: CallOptions): Promise<GraphQLResult<T>>;
}

/**
 * Creates a client.
 *
 * @example
 * ```ts
 * import { createClient, OAuthStrategy } from 'sitekit';
 * const client = createClient({ auth: OAuthStrategy({ clientId }) });
 * const movie = await client.items.get('Movies', id);
 * ```
 */
export function createClient<A extends AuthStrategy = AuthStrategy>(options: ClientOptions<A> = {}): Client<A> {
  if (typeof options !== 'object' || options === null) throw new RequestError('createClient: options must be an object', { field: 'options' });
  const auth = (options.auth ?? noAuth) as A;
  const transport = new Transport({ ...options, auth });
  const ns = <T>(name: string): T => bindOperations<T>(transport, operations, namespaceOperations[name] ?? []);
  return {
    collections: ns('collections'),
    items: ns('items'),
    media: ns('media'),
    members: ns('members'),
    auth: auth as A & AuthOperations,
    fetchWithAuth: (pathOrUrl, init) => transport.fetchWithAuth(pathOrUrl, init),
    async graphql<T>(query: string, variables?: Record<string, unknown>, call: CallOptions = {}) {
      if (typeof query !== 'string' || !query.trim()) throw new RequestError('graphql: query must be a non-empty string', { field: 'query' });
      const response = await transport.fetchWithAuth('/graphql/alpha', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        ...call,
      });
      return (await response.json()) as GraphQLResult<T>;
    },
  };
}
