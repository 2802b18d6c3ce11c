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
  // The same frozen headers for every call, replaced (never changed) when an ID is set: nothing
  // is allocated per call, and no caller can change what later calls send.
  let headers: Readonly<Record<string, string>> = { Authorization: apiKey };
  let ready = Promise.resolve({ headers });
  /** Sets header `name` to the ID given as `field` (a non-empty string), or removes it without one. */
  const setId = (name: string, id: unknown, field: string) => {
    const { [name]: _replaced, ...others } = headers;
    headers = Object.freeze(
      id == null || id === '' ? others : { ...others, [name]: requireString(id, field, 'ApiKeyStrategy') },
    );
    ready = Promise.resolve({ headers });
  };
  setId('wix-site-id', options.siteId, 'siteId');
  setId('wix-account-id', options.accountId, 'accountId');
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
    setSiteId: (siteId) => setId('wix-site-id', siteId, 'siteId'),
    setAccountId: (accountId) => setId('wix-account-id', accountId, 'accountId'),
    ...bindIdentityCalls(transport),
  };
  return strategy;
}
