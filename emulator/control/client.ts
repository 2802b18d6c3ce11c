/**
 * The one typed client of the control API (`/_emulator/*`), used by the test bench, the console,
 * the CLI and the tests. Every call is typed from the schema (its operationId picks the request
 * and the answer); a refusal rejects with the SDK's error for it (`ValidationError`,
 * `ApplicationError`...), a failed connection with `NetworkError`. Browser-safe: no Node built-ins,
 * and `fetch` can be injected.
 */
import { controlOperations } from '../../generated/control/operations.js';
import { errorFromResponse, NetworkError, SiteKitError } from '../../src/errors/index.js';
import {
  CONTROL_HEADER,
  SITE_HEADER,
  type ControlBody,
  type ControlOperationId,
  type ControlParams,
  type ControlQuery,
  type ControlResult,
} from './api.js';

/** A part of a call's input: required when the operation needs it, optional when it may be empty or absent. */
type Part<Key extends string, Value> = [Value] extends [undefined]
  ? { [K in Key]?: undefined }
  : undefined extends Value
    ? { [K in Key]?: Value }
    : Record<string, never> extends Value
      ? { [K in Key]?: Value }
      : { [K in Key]: Value };

/** What a call of `Id` sends: its path parameters, query and JSON body, each typed by the schema. */
export type ControlInput<Id extends ControlOperationId> = Part<'params', ControlParams<Id>> &
  Part<'query', ControlQuery<Id>> &
  Part<'body', ControlBody<Id>> & {
    /** Abandons the call. */
    signal?: AbortSignal;
  };

/** The input argument: optional when the operation needs nothing. */
type InputArgument<Id extends ControlOperationId> =
  object extends ControlInput<Id> ? [input?: ControlInput<Id>] : [input: ControlInput<Id>];

/** Options of {@link createControlClient}. */
export interface ControlClientOptions {
  /** The emulator's URL (`http://127.0.0.1:4700`); empty for the page's own origin (the console). */
  baseUrl?: string;
  /** The `fetch` to call with (a client's `fetchWithAuth`, a test's recorder); default the global one. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** The site every call acts on (sent as `x-sitekit-site`); default the emulator's default site. */
  siteId?: string;
}

/** A typed client of one emulator's control API. */
export interface ControlClient {
  /**
   * Calls one operation; resolves to its answer.
   * @example
   * ```ts
   * const { id } = await control.call('addFault', { body: { operation: 'getDataItem', status: 503, times: 1 } });
   * ```
   */
  call<Id extends ControlOperationId>(operationId: Id, ...input: InputArgument<Id>): Promise<ControlResult<Id>>;
  /** Like {@link ControlClient.call}, with the HTTP response too (its headers: a sign-in cookie). */
  send<Id extends ControlOperationId>(
    operationId: Id,
    ...input: InputArgument<Id>
  ): Promise<{ result: ControlResult<Id>; response: Response }>;
}

/** `/_emulator/faults/{id}` with `{id: 'a b'}` → `/_emulator/faults/a%20b`. */
const fillPath = (path: string, params: Record<string, unknown> = {}): string =>
  path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));

/** `?limit=5&refused=true` from the defined values of a query object (empty when there are none). */
function queryString(query: Record<string, unknown> = {}): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined);
  return pairs.length ? `?${new URLSearchParams(pairs.map(([key, value]) => [key, String(value)]))}` : '';
}

/**
 * A control client of the emulator at `baseUrl`.
 * @example
 * ```ts
 * const control = createControlClient({ baseUrl: 'http://127.0.0.1:4700' });
 * await control.call('moveClock', { body: { advanceSeconds: 3600 } });
 * ```
 */
export function createControlClient(options: ControlClientOptions = {}): ControlClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const fetcher = options.fetch ?? ((input: string, init: RequestInit) => fetch(input, init));

  async function send<Id extends ControlOperationId>(operationId: Id, ...[input]: InputArgument<Id>) {
    const { method, path } = controlOperations[operationId];
    const { params, query, body, signal } = (input ?? {}) as {
      params?: object;
      query?: object;
      body?: unknown;
      signal?: AbortSignal;
    };
    const url = `${baseUrl}${fillPath(path, params as Record<string, unknown>)}${queryString(query as Record<string, unknown>)}`;
    const operation = `${method} ${path}`;
    let response: Response;
    try {
      response = await fetcher(url, {
        method,
        ...(signal ? { signal } : {}),
        headers: {
          [CONTROL_HEADER]: '1',
          ...(options.siteId === undefined ? {} : { [SITE_HEADER]: options.siteId }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (cause) {
      // An injected fetch of the SDK (a client's fetchWithAuth) already throws its typed errors.
      throw cause instanceof SiteKitError ? cause : new NetworkError({ cause, operation });
    }
    const text = await response.text();
    if (!response.ok)
      throw errorFromResponse({
        status: response.status,
        statusText: response.statusText,
        body: text,
        requestId: response.headers.get('x-wix-request-id'),
        operation,
      });
    return { result: (text ? JSON.parse(text) : {}) as ControlResult<Id>, response };
  }

  return {
    send,
    call: async (operationId, ...input) => (await send(operationId, ...input)).result,
  };
}
