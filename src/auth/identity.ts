/**
 * Binds the official identity and redirect-session calls (./identity-calls.ts) to a strategy:
 * each loads that module on its first call (most pages never make one), over the strategy's
 * client transport. Both strategies carry them: a site's server calls `signOn` and
 * `sendActivationEmail` with its API key, a page calls `registerV2` as a visitor.
 */
import type { Transport } from '../http/transport.js';
import { loadOnFirstUse } from '../lazy.js';
import type { IdentityCalls } from './identity-calls.js';

/** The official identity calls of a strategy whose client transport is `transport()`. */
export function bindIdentityCalls(transport: () => Transport): IdentityCalls {
  const load = loadOnFirstUse(async () => (await import('./identity-calls.js')).identityCalls(transport()));
  const bind =
    <K extends Exclude<keyof IdentityCalls, 'verification'>>(name: K) =>
    async (...args: Parameters<IdentityCalls[K]>): Promise<Awaited<ReturnType<IdentityCalls[K]>>> =>
      (
        (await load())[name] as (
          ...args: Parameters<IdentityCalls[K]>
        ) => Promise<Awaited<ReturnType<IdentityCalls[K]>>>
      )(...args);
  const verifyDuringAuthentication = bind('verifyDuringAuthentication');
  return {
    registerV2: bind('registerV2'),
    loginV2: bind('loginV2'),
    signOn: bind('signOn'),
    sendRecoveryEmail: bind('sendRecoveryEmail'),
    sendActivationEmail: bind('sendActivationEmail'),
    recover: bind('recover'),
    verification: {
      start: async (options) => (await load()).verification.start(options),
      verifyDuringAuthentication,
    },
    verifyDuringAuthentication,
    createRedirectSession: bind('createRedirectSession'),
  };
}
