import { withReadyHeaders } from '../http/auth.js';
import { Transport } from '../http/transport.js';
import { requireString } from '../input.js';
import { bindIdentityCalls } from './identity.js';
import type { IdentityCalls } from './identity-calls.js';
import type { AuthStrategy } from './strategy.js';

/** Options of {@link ApiKeyStrategy}. */
export interface ApiKeyOptions {
  /** The API key; sent as the bare `Authorization` header. Never put it in a browser bundle. */
  apiKey: string;
  /** Sent as `wix-site-id`: the site the calls act on. */
  siteId?: string;
  /** Sent as `wix-account-id`: for account-level calls. */
  accountId?: string;
}

/** The strategy returned by {@link ApiKeyStrategy}. */
export interface ApiKeyAuth extends AuthStrategy, IdentityCalls {
  readonly elevated: true;
  /** Sets (or, without an ID, clears) the `wix-site-id` header of the calls that follow. */
  setSiteId(siteId?: string): void;
  /** Sets (or, without an ID, clears) the `wix-account-id` header of the calls that follow. */
  setAccountId(accountId?: string): void;
}

/** A site or account ID: a non-empty string, or nothing. */
const optionalId = (id: unknown, name: string): string | undefined =>
  id == null ? undefined : requireString(id, name, 'ApiKeyStrategy');

/**
 * Authenticates with an API key: an elevated client, allowed to call site-owner operations.
 *
 * @example
 * ```ts
 * const admin = createClient({ auth: ApiKeyStrategy({ apiKey: process.env.API_KEY!, siteId }) });
 * await admin.members.approveMember(memberId);
 * ```
 */
export function ApiKeyStrategy(options: ApiKeyOptions): ApiKeyAuth {
  const apiKey = requireString(options?.apiKey, 'apiKey', 'ApiKeyStrategy');
  const ids = { siteId: optionalId(options.siteId, 'siteId'), accountId: optionalId(options.accountId, 'accountId') };
  // The same headers for every call until an ID changes: nothing allocated per call.
  let headers: Readonly<Record<string, string>> = {};
  let ready = Promise.resolve({ headers });
  const assemble = () => {
    headers = Object.freeze({
      Authorization: apiKey,
      ...(ids.siteId ? { 'wix-site-id': ids.siteId } : {}),
      ...(ids.accountId ? { 'wix-account-id': ids.accountId } : {}),
    });
    ready = Promise.resolve({ headers });
  };
  assemble();
  let clientTransport: Transport | undefined;
  // Used without createClient, the strategy talks to the default host itself.
  const transport = () => (clientTransport ??= new Transport({ auth: strategy }));
  const strategy: ApiKeyAuth = {
    elevated: true,
    attach: (client) => void (clientTransport = client),
    getAuthHeaders: withReadyHeaders(
      () => ready,
      () => headers,
    ),
    setSiteId: (siteId) => {
      ids.siteId = optionalId(siteId, 'siteId');
      assemble();
    },
    setAccountId: (accountId) => {
      ids.accountId = optionalId(accountId, 'accountId');
      assemble();
    },
    ...bindIdentityCalls(transport),
  };
  return strategy;
}
