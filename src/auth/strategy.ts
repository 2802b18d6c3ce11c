import { RequestError } from '../errors/index.js';
import type { Transport } from '../http/transport.js';

/**
 * What the transport needs from an authentication strategy. `OAuthStrategy` and `ApiKeyStrategy`
 * implement it; any object of this shape can be passed as `createClient({auth})`.
 */
export interface AuthStrategy {
  /** True for elevated (API-key) clients, which may call the operations the schema marks elevated. */
  readonly elevated: boolean;
  /**
   * Headers that authenticate one request (`Authorization: <token>`, site/account ids). May renew
   * tokens first. Called before every attempt, so a retry carries fresh credentials.
   */
  getAuthHeaders(): Promise<Record<string, string>>;
  /**
   * Called once when a call is answered 401. Resolve true when credentials were renewed and one
   * replay of the call may succeed.
   */
  onUnauthorized?(): Promise<boolean>;
  /**
   * @internal Called by createClient with the client's transport, before any call: strategies that
   * talk to the service themselves (token grants, redirect sessions) send through it.
   */
  attach?(transport: Transport): void;
}

/** A strategy that sends no credentials (public endpoints, or tests). */
export const noAuth: AuthStrategy = { elevated: false, getAuthHeaders: async () => ({}) };

/** @internal Throws the RequestError `<who>: <key> must be a non-empty string` unless `options[key]` is one. */
export const need = (options: any, key: string, who: string) => {
  if (typeof options?.[key] != 'string' || !options[key]) throw new RequestError(`${who}: ${key} must be a non-empty string`, { field: key });
};
