/**
 * One operation of the route table called with its wire-form request, answered with the site's
 * wire-form status and JSON body: for the commands that must see what the site sent, not the
 * SDK's public form (which keeps a media reference as a `wix:image://` string, without its URL).
 * Sent through the SDK's `fetchWithAuth` (auth, time limits); a 429 is waited out as its
 * `Retry-After` says, for any operation, as a rate-limited call was not carried out.
 */
import { operations, type OperationId } from '../generated/operations.js';
import { serializeQuery } from '../src/http/query.js';
import { isSiteKitError, type ApiKeyAuth, type Client } from '../src/index.js';
import { buildRequest } from '../src/request.js';

/** What a site answered: its status, and its JSON body (an error's code only: messages are the site's own words). */
export interface RawAnswer {
  status: number;
  body: unknown;
}

/** How a raw call waits for a rate limit. */
export interface RateLimitWaits {
  /** Waits (`setTimeout` by default; tests see the waits asked for). */
  sleep?: (ms: number) => Promise<void>;
  /** Told of each 429 before its wait. */
  onWait?: (ms: number) => void;
}

/** The longest `Retry-After` waited for; a site asking for more stops the call. */
const MAX_RETRY_AFTER_MS = 120_000;
/** 429s waited out for one call before giving up. */
const MAX_WAITS_PER_CALL = 5;
/** The wait after a 429 without `Retry-After`. */
const DEFAULT_WAIT_MS = 1000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether an operation changes the site (not a GET, and not a POST the schema marks read-only). */
export const isWrite = (operationId: OperationId): boolean =>
  operations[operationId].method != 'GET' && !operations[operationId].readOnly;

/**
 * Calls `operationId` with `request` through `client` (make it with `retry: false`: rate limits
 * are waited out here). An error answer resolves too, as its status and code; no answer at all
 * (network, time limit) rejects.
 */
export async function callRaw(
  client: Client<ApiKeyAuth>,
  operationId: OperationId,
  request: Record<string, unknown>,
  waits: RateLimitWaits = {},
): Promise<RawAnswer> {
  const built = buildRequest(operations[operationId], request);
  const query = built.query ? serializeQuery(built.query) : '';
  const init = {
    method: built.method,
    ...(built.body !== undefined && {
      body: JSON.stringify(built.body),
      headers: { 'content-type': 'application/json' },
    }),
  };
  for (let waited = 0; ; waited++) {
    try {
      const response = await client.fetchWithAuth(query ? `${built.path}?${query}` : built.path, init);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {} };
    } catch (error) {
      if (!isSiteKitError(error) || error.status === undefined) throw error;
      if (error.status != 429) return { status: error.status, body: { code: error.code } };
      const ms = error.retryAfterMs ?? DEFAULT_WAIT_MS;
      if (waited >= MAX_WAITS_PER_CALL || ms > MAX_RETRY_AFTER_MS)
        throw new Error(`the site keeps answering 429 (rate limited) to ${operationId}; try again later`);
      waits.onWait?.(ms);
      await (waits.sleep ?? wait)(ms);
    }
  }
}
