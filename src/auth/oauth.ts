/**
 * The OAuth strategy: visitor and member tokens with single-flight renewal, the hosted-page
 * redirect flow (PKCE), the silent flow (hidden iframe in browsers, a manual-redirect read
 * elsewhere), direct login and registration, verification, recovery and logout.
 */
import { withReadyHeaders } from '../http/auth.js';
import { Transport, type CallSettings } from '../http/transport.js';
import { requireString } from '../input.js';
import { lazyMethods, loadOnFirstUse } from '../lazy.js';
import type { Operation } from '../operation.js';
import { parseFromUrl } from './callback.js';
import type { OAuthAuth, OAuthOptions } from './oauth-auth.js';
import { bindIdentityCalls } from './identity.js';
import { memoryTokenStorage } from './storage.js';
import { isUsable, noTokens, TokenLifecycle } from './token-lifecycle.js';
import {
  CAPTCHA_INVISIBLE_SITE_KEY,
  CAPTCHA_VISIBLE_SITE_KEY,
  type SilentOptions,
  type StateMachine,
  type Tokens,
} from './types.js';

// The redirect flow, with PKCE, loads on first use: most page loads never sign in.
const loadRedirectFlow = loadOnFirstUse(() => import('./redirect-flow.js'));

/**
 * A PKCE pair: a verifier of `length` characters (a whole number from 43 to 128, default 43) and
 * its S256 challenge. Its code loads on the first call, with the redirect flow.
 *
 * @example
 * ```ts
 * const { codeVerifier, codeChallenge } = await generatePKCE(64);
 * ```
 */
export async function generatePKCE(length?: number): Promise<{ codeVerifier: string; codeChallenge: string }> {
  return (await loadRedirectFlow()).generatePKCE(length);
}

/**
 * Authenticates visitors and members of a site through an OAuth app (headless client). The token
 * lifecycle, the redirect flow and the silent flow are separate parts (./token-lifecycle.ts,
 * ./redirect-flow.ts, ./silent-flow.ts); the sign-in state machine loads on first use.
 *
 * @example
 * ```ts
 * const client = createClient({ auth: OAuthStrategy({ clientId, storage: localStorageTokenStorage() }) });
 * const items = await client.items.query('Movies').find(); // as a visitor, tokens fetched on demand
 * ```
 */
export function OAuthStrategy(options: OAuthOptions): OAuthAuth {
  const clientId = requireString(options?.clientId, 'clientId', 'OAuthStrategy');
  const storage = options.storage ?? options.tokenStorage ?? memoryTokenStorage();
  if (options.tokens) storage.setTokens(options.tokens);
  let clientTransport: Transport | undefined;
  // Used without createClient, the strategy talks to the default host itself.
  const transport = () => (clientTransport ??= new Transport({ auth: strategy }));
  const send = (operation: Operation, body: object, settings?: CallSettings): Promise<unknown> =>
    transport().send(operation, body, settings);

  const tokens = new TokenLifecycle({ clientId, storage, transport });
  // The redirect and silent flows load on first use: most page loads never sign in.
  const redirectFlow = loadOnFirstUse(async () => new (await loadRedirectFlow()).RedirectFlow(clientId, tokens, send));
  const loadSilentFlow = loadOnFirstUse(() => import('./silent-flow.js'));
  const silentSignIn = async (silentOptions?: SilentOptions, sessionToken?: string) => {
    const [{ silentSignIn: signInSilently }, redirect] = await Promise.all([loadSilentFlow(), redirectFlow()]);
    const fetchRaw = (url: string, init: RequestInit) => transport().fetchRaw(url, init);
    return signInSilently({ redirect, frameHost: options.frameHost, fetchRaw }, silentOptions, sessionToken);
  };

  // The sign-in state machine (login, registration, verification, recovery) loads on first use.
  const signInState = { flow: { loginState: 'INITIAL' } as StateMachine };
  const loadSignIn = loadOnFirstUse(async () =>
    (await import('./sign-in.js')).signInFlows(send, clientId, signInState),
  );

  /** The access token of the stored tokens, renewed first when needed. */
  const accessToken = async () => (await tokens.usable()).accessToken.value;
  // External logins (servers only) load on first use.
  const loadExternalLogins = loadOnFirstUse(async () =>
    (await import('./external-login.js')).externalLogins(tokens, transport),
  );

  const strategy: OAuthAuth = {
    elevated: false,
    captchaInvisibleSiteKey: CAPTCHA_INVISIBLE_SITE_KEY,
    captchaVisibleSiteKey: CAPTCHA_VISIBLE_SITE_KEY,
    attach: (client) => void (clientTransport = client),
    getAuthHeaders: withReadyHeaders(
      async () => ({ headers: { Authorization: await accessToken() } }),
      () => {
        const ready = tokens.ready();
        return ready && { Authorization: ready.accessToken.value };
      },
    ),
    // A 401 means the access token is no good whatever its expiry says: renew once, replay once.
    onUnauthorized: () =>
      Promise.resolve(tokens.usable(true)).then(
        () => true,
        () => false,
      ),
    generateVisitorTokens: async (given, call) =>
      given?.refreshToken?.value && isUsable(given)
        ? (given as Tokens)
        : (await tokens.obtain(given?.refreshToken, false, call)).tokens,
    renewToken: async (refreshToken, call) => {
      requireString(refreshToken?.value, 'value', 'renewToken');
      return (await tokens.renew(refreshToken, call)).tokens;
    },
    generateOAuthData: async (redirectUri, originalUri) =>
      (await loadRedirectFlow()).createOAuthData(redirectUri, originalUri),
    getAuthUrl: async (oauthData, authUrlOptions) => (await redirectFlow()).authUrl(oauthData, authUrlOptions),
    parseFromUrl,
    getMemberTokens: async (code, state, oauthData, call) =>
      (await redirectFlow()).exchangeCode(code, state, oauthData, call),
    getMemberTokensForDirectLogin: (sessionToken, silentOptions) => silentSignIn(silentOptions, sessionToken),
    getMemberTokensSilently: (silentOptions) => silentSignIn(silentOptions),
    ...lazyMethods(loadSignIn, [
      'login',
      'register',
      'processVerification',
      'resendVerificationCode',
      'sendPasswordResetEmail',
      'changePassword',
    ]),
    getMemberTokensForExternalLogin: async (memberId, apiKey, call) =>
      (await loadExternalLogins()).forMember(memberId, apiKey, call),
    getMemberTokensForExternalLoginWithSession: async (email, apiKey, options) =>
      (await loadExternalLogins()).withSession(email, apiKey, options),
    // Signed out locally even when the hosted logout could not be prepared.
    logout: async (originalUrl, call) => {
      try {
        return await (await redirectFlow()).logoutUrl(originalUrl, call);
      } finally {
        tokens.store(noTokens());
      }
    },
    loggedIn: () => tokens.current().refreshToken.role === 'member',
    getTokens: () => tokens.current(),
    getActiveToken: () => tokens.current().accessToken.value,
    setTokens: (given) => void tokens.store(given),
    subscribe: (listener) => tokens.subscribe(listener),
    ...bindIdentityCalls(transport),
  };
  return strategy;
}
