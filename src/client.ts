/** createClient: wires the transport, the auth strategy and the five namespaces. */
import type { CallOptions } from './types.js';
import { noAuth, type AuthStrategy } from './auth/strategy.js';
import { collectionsNamespace, type CollectionsApi } from './data/collections.js';
import { itemsNamespace, type ItemsApi } from './data/items.js';
import { HttpError, RequestError } from './errors/index.js';
import { invalid, requireObject, requireString } from './input.js';
import {
  createEventRegistry,
  type CollectionsEvents,
  type ItemsEvents,
  type MediaEvents,
  type MembersEvents,
  type WebhookOptions,
  type Webhooks,
} from './events/index.js';
import type { RetryOptions } from './http/retry.js';
import { Transport, type FetchWithAuthOptions } from './http/transport.js';
import { mediaNamespace, type MediaApi } from './media/media.js';
import { membersNamespace, type MembersApi } from './members/members.js';

/** Options of {@link createClient}. */
export interface ClientOptions<A extends AuthStrategy = AuthStrategy> {
  /** How calls authenticate: `OAuthStrategy(...)` for visitors and members, `ApiKeyStrategy(...)` for elevated calls. */
  auth?: A;
  /** Scheme and host of the API; default `https://www.wixapis.com`. The emulator: `http://127.0.0.1:4700`. */
  baseUrl?: string;
  /**
   * The fetch to send requests with. By default sitekit sends through `node:http`/`node:https`
   * with keep-alive connections on Node (the package's `node` build) and through the global
   * `fetch` elsewhere; a `fetch` given here is always used (Next.js fetch caching, MSW, tests).
   * An exception it throws that is not a network failure is passed through unchanged, not retried.
   */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retry policy for idempotent calls (network errors, 408, 429, 5xx), or `false` for none. */
  retry?: RetryOptions | false;
  /**
   * Time limit of each call in milliseconds, retries and the waits between them included; past
   * it the call rejects with a `TimeoutError`. Default 60000; `0` for none. A call's own
   * `timeoutMs` overrides it.
   */
  timeoutMs?: number;
  /**
   * Time limit of each attempt in milliseconds (until its whole response is read): a hung
   * attempt of an idempotent call is given up and tried again within `timeoutMs`. Default
   * 30000; `0` for none.
   */
  attemptTimeoutMs?: number;
  /** The app's public key, to verify domain events given to `client.webhooks`. */
  webhooks?: WebhookOptions;
}

/** The GraphQL answer: `{data, errors}` as the service sends it. */
export interface GraphQLResult<T = unknown> {
  data?: T;
  errors?: { message: string; [key: string]: unknown }[];
}

/** A sitekit client: one per site (and per visitor or member session). */
export interface Client<A extends AuthStrategy = AuthStrategy> {
  /** Data collections. */
  readonly collections: CollectionsApi & CollectionsEvents;
  /** Data items. */
  readonly items: ItemsApi & ItemsEvents;
  /** Site media files. */
  readonly media: MediaApi & MediaEvents;
  /** Site members. */
  readonly members: MembersApi & MembersEvents;
  /** The auth strategy given to createClient (token state, login flows). */
  readonly auth: A;
  /** Verifies and dispatches domain events to the handlers registered with `on...`. */
  readonly webhooks: Webhooks;
  /**
   * Calls any provider path (or absolute URL) with the client's auth, headers, time limit and
   * retries (idempotent methods only). Resolves with the 2xx Response; rejects with SiteKitError.
   * The credentials go only to the client's own origin (`baseUrl`): another origin gets the
   * request without them, unless `allowOtherOrigin: true`.
   */
  fetchWithAuth(pathOrUrl: string | URL, init?: RequestInit & FetchWithAuthOptions): Promise<Response>;
  /** Runs a GraphQL query (`POST /graphql/alpha`) with the client's auth. */
  graphql<T = unknown>(
    query: string,
    variables?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<GraphQLResult<T>>;
}

/**
 * Refuses options that cannot work, at once rather than on the first call: the client's own
 * (`auth`, `webhooks`) here, the transport's (`baseUrl`, `timeoutMs`, ...) when it is made.
 */
function checkClientOptions(options: unknown): asserts options is ClientOptions {
  const { auth, webhooks } = requireObject(options, 'options', 'createClient');
  if (auth != null && typeof requireObject(auth, 'auth', 'createClient').getAuthHeaders !== 'function') {
    invalid(
      'auth',
      'a strategy (OAuthStrategy(...), ApiKeyStrategy(...) or an object with getAuthHeaders())',
      'createClient',
    );
  }
  if (webhooks != null && requireObject(webhooks, 'webhooks', 'createClient').publicKey !== undefined) {
    requireString((webhooks as { publicKey?: unknown }).publicKey, 'webhooks.publicKey', 'createClient');
  }
}

/**
 * Creates a client.
 *
 * @example
 * ```ts
 * import { createClient, OAuthStrategy } from 'sitekit-sdk';
 * const client = createClient({ auth: OAuthStrategy({ clientId }) });
 * const movie = await client.items.get('Movies', id);
 * ```
 */
export function createClient<A extends AuthStrategy = AuthStrategy>(options: ClientOptions<A> = {}): Client<A> {
  checkClientOptions(options);
  const auth = (options.auth ?? noAuth) as A;
  const transport = new Transport({ ...options, auth });
  auth.attach?.(transport);
  const events = createEventRegistry(options.webhooks);
  return {
    collections: { ...collectionsNamespace(transport), ...events.handlers('collections') },
    items: { ...itemsNamespace(transport), ...events.handlers('items') },
    media: { ...mediaNamespace(transport), ...events.handlers('media') },
    members: { ...membersNamespace(transport), ...events.handlers('members') },
    auth,
    webhooks: events.webhooks,
    fetchWithAuth: (pathOrUrl, init) => transport.fetchWithAuth(pathOrUrl, init),
    async graphql<T>(query: string, variables?: Record<string, unknown>, call: CallOptions = {}) {
      if (typeof query !== 'string' || !query.trim())
        throw new RequestError('graphql: query must be a non-empty string', { field: 'query' });
      const response = await transport.fetchWithAuth('/graphql/alpha', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        ...call,
      });
      try {
        return (await response.json()) as GraphQLResult<T>;
      } catch (e) {
        throw new HttpError({
          status: response.status,
          message: `graphql: unreadable response body (${(e as Error).message})`,
        });
      }
    },
  };
}
