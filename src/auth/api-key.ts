import { withReadyHeaders } from '../http/auth.js';
import { requireString } from '../input.js';
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
export interface ApiKeyAuth extends AuthStrategy {
  readonly elevated: true;
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
  const { siteId, accountId } = options;
  const headers: Record<string, string> = { Authorization: apiKey };
  if (siteId) headers['wix-site-id'] = siteId;
  if (accountId) headers['wix-account-id'] = accountId;
  // The same headers for every call: nothing allocated per call.
  Object.freeze(headers);
  const ready = Promise.resolve(headers);
  return {
    elevated: true,
    getAuthHeaders: withReadyHeaders(
      () => ready,
      () => headers,
    ),
  };
}
