/**
 * `sitekit-sdk/openapi`: typed raw calls to any route of the platform's schema, for the calls the
 * client's namespaces do not wrap (or not yet). An openapi-fetch client typed by the generated
 * `paths`, whose requests go through the sitekit client (its auth, headers, time limits and
 * retries), and whose `error` is a typed `SiteKitError`. A separate entry point, so the core
 * bundle does not carry openapi-fetch.
 *
 * @packageDocumentation
 */
import createOpenApiClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from '../../generated/wire.js';
import type { Client } from '../client.js';
import { isSiteKitError, type SiteKitError } from '../errors/index.js';
import { serializeQuery } from '../http/query.js';

export type { paths } from '../../generated/wire.js';

/** The HTTP methods of the schema's routes, as openapi-fetch names them. */
export type RawMethodName = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths of the schema that have `method`. */
export type PathsWith<Method extends RawMethodName> = {
  [Path in keyof paths]: paths[Path] extends { [Key in Method]: object } ? Path : never;
}[keyof paths];

/** The optional or required `init` argument of a call, as openapi-fetch types it. */
type InitArguments<Init> = object extends Init ? [init?: Init] : [init: Init];

/**
 * The result of a raw call: `{data, response}` for a 2xx, `{error, response}` otherwise, where
 * `error` is the same typed error the client's own methods reject with (ApplicationError,
 * ValidationError, HttpError...).
 */
export type RawResponse<Data> =
  | { data: Data; error?: never; response: Response }
  | { data?: never; error: SiteKitError; response: Response };

/** The `data` of the successful member of an openapi-fetch result. */
type DataOf<Result> = Result extends { data: infer Data } ? Data : never;

/** One method of the raw client: a path of the schema, and its typed parameters and body. */
export type RawMethod<Method extends RawMethodName> = <
  Path extends PathsWith<Method>,
  Init extends MaybeOptionalInit<paths[Path], Method>,
>(
  url: Path,
  ...init: InitArguments<Init>
) => Promise<
  RawResponse<DataOf<FetchResponse<paths[Path][Method] & Record<string, unknown>, Init, `${string}/${string}`>>>
>;

/** A typed client for every route of the schema. */
export interface RawClient {
  GET: RawMethod<'get'>;
  PUT: RawMethod<'put'>;
  POST: RawMethod<'post'>;
  DELETE: RawMethod<'delete'>;
  PATCH: RawMethod<'patch'>;
}

/**
 * openapi-fetch builds absolute URLs; the client resolves paths against its own `baseUrl`. So the
 * raw client builds them on this placeholder origin, and only the path and query are handed on:
 * the request, with its credentials, can only go to the client's own origin.
 */
const PLACEHOLDER_ORIGIN = 'http://sitekit.invalid';

/**
 * A typed client for any route of the schema, sending through `client`: its auth, headers, time
 * limits and retries apply, and a failed response gives the same typed error as the client's own
 * methods. A call that gets no response at all (network, time limit, abort) rejects with that
 * error, as openapi-fetch does with a failed `fetch`.
 *
 * @example
 * ```ts
 * import { createClient, ApiKeyStrategy } from 'sitekit-sdk';
 * import { createRawClient } from 'sitekit-sdk/openapi';
 *
 * const raw = createRawClient(createClient({ auth: ApiKeyStrategy({ apiKey, siteId }) }));
 * const { data, error } = await raw.GET('/wix-data/v2/collections/{dataCollectionId}', {
 *   params: { path: { dataCollectionId: 'Movies' } },
 * });
 * if (error) console.warn(error.code, error.message);
 * else console.log(data.collection?.displayName);
 * ```
 */
export function createRawClient(client: Pick<Client, 'fetchWithAuth'>): RawClient {
  // The typed error of each failed response, found again by the response openapi-fetch returns.
  const errors = new WeakMap<Response, SiteKitError>();
  const openApiClient = createOpenApiClient<paths>({
    baseUrl: PLACEHOLDER_ORIGIN,
    // The platform reads nested query objects as dotted keys (`paging.limit=10`), not `paging[limit]`.
    querySerializer: (query) => serializeQuery(query as Record<string, unknown>),
    fetch: async (request) => {
      const url = new URL(request.url);
      // Bytes, not the request's stream: a body that can be sent again can be retried.
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
      try {
        return await client.fetchWithAuth(url.pathname + url.search, {
          method: request.method,
          headers: request.headers,
          body,
          signal: request.signal,
        });
      } catch (error) {
        // Only an error with a response becomes `{error}`; no response at all rejects the call.
        if (!isSiteKitError(error) || error.status === undefined || error.status < 200 || error.status > 599)
          throw error;
        const response = new Response(null, { status: error.status });
        errors.set(response, error);
        return response;
      }
    },
  });
  const method = (name: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH') => async (url: string, init?: object) => {
    const result = await (openApiClient[name] as (url: string, init?: object) => Promise<{ response: Response }>)(
      url,
      init,
    );
    const error = errors.get(result.response);
    return error ? { error, response: result.response } : result;
  };
  return {
    GET: method('GET'),
    PUT: method('PUT'),
    POST: method('POST'),
    DELETE: method('DELETE'),
    PATCH: method('PATCH'),
  } as RawClient;
}
