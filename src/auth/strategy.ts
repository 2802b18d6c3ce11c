import type { TransportAuth } from '../http/auth.js';
import type { Transport } from '../http/transport.js';

/**
 * An authentication strategy: what the transport needs (`TransportAuth`), plus the hook that
 * gives strategies that talk to the service themselves the client's transport. `OAuthStrategy`
 * and `ApiKeyStrategy` implement it; any object of this shape can be passed as `createClient({auth})`.
 */
export interface AuthStrategy extends TransportAuth {
  /**
   * @internal Called by createClient with the client's transport, before any call: strategies that
   * talk to the service themselves (token grants, redirect sessions) send through it.
   */
  attach?(transport: Transport): void;
}

/** A strategy that sends no credentials (public endpoints, or tests). */
export const noAuth: AuthStrategy = { elevated: false, getAuthHeaders: async () => ({ headers: {} }) };
