/**
 * Binds the official identity and redirect-session calls (./identity-calls.ts) to a strategy:
 * each loads that module on its first call (most pages never make one), over the strategy's
 * client transport. Both strategies carry them: a site's server calls `signOn` and
 * `sendActivationEmail` with its API key, a page calls `registerV2` as a visitor.
 */
import type { Transport } from '../http/transport.js';
import { lazyMethods, loadOnFirstUse } from '../lazy.js';
import type { IdentityCalls } from './identity-calls.js';

/** The official identity calls of a strategy whose client transport is `transport()`. */
export function bindIdentityCalls(transport: () => Transport): IdentityCalls {
  const load = loadOnFirstUse(async () => (await import('./identity-calls.js')).identityCalls(transport()));
  const calls = lazyMethods(load, [
    'registerV2',
    'loginV2',
    'signOn',
    'sendRecoveryEmail',
    'sendActivationEmail',
    'recover',
    'verifyDuringAuthentication',
    'createRedirectSession',
  ]);
  const verification = {
    ...lazyMethods(async () => (await load()).verification, ['start']),
    verifyDuringAuthentication: calls.verifyDuringAuthentication,
  };
  return { ...calls, verification };
}
