/**
 * The redirect flow of an OAuth client: the PKCE data a sign-in keeps (./pkce.ts), the hosted
 * sign-in page's URL, the code exchange when the user comes back, and the hosted logout page.
 * Loaded on first use: most page loads never sign in.
 */
import { createRedirectSession } from '../../generated/operations/createRedirectSession.js';
import { AuthError } from '../errors/index.js';
import { invalid, requireString } from '../input.js';
import type { Operation } from '../operation.js';
import type { CallOptions } from '../types.js';
import type { TokenLifecycle } from './token-lifecycle.js';
import type { AuthUrl, AuthUrlOptions, IdentityProvider, OAuthData, Tokens } from './types.js';

export { createOAuthData, generatePKCE } from './pkce.js';

/** The scope every authorization request asks for (a refresh token comes with the access token). */
const OFFLINE_ACCESS = 'offline_access';

/** The connection ids of the identity providers the platform names. */
const IDENTITY_PROVIDER_CONNECTIONS = {
  google: '0e6a50f5-b523-4e29-990d-f37fa2ffdd69',
  facebook: '3ecad13f-52c3-483d-911f-31dbcf2a6d23',
} as const;

/** The connection id sent as `idp`: a named provider's fixed id, or the connection id given. */
function connectionIdOf(idp: IdentityProvider | undefined): string | undefined {
  if (idp === undefined) return undefined;
  if (typeof idp === 'object') return requireString(idp?.connectionId, 'idp.connectionId', 'getAuthUrl');
  return Object.hasOwn(IDENTITY_PROVIDER_CONNECTIONS, idp)
    ? IDENTITY_PROVIDER_CONNECTIONS[idp as keyof typeof IDENTITY_PROVIDER_CONNECTIONS]
    : idp;
}

/**
 * Refuses a promise given as `oauthData`: `generateOAuthData` resolves (WebCrypto's digest is a
 * promise), and JavaScript written for a synchronous one passes the promise itself, which would
 * otherwise fail later on a missing field (or as an invalid state) without saying why.
 */
function requireAwaited(oauthData: unknown, method: string): void {
  if (typeof (oauthData as PromiseLike<unknown> | null)?.then === 'function')
    invalid('oauthData', 'what generateOAuthData resolves to (await it), not a promise', method);
}

/** The redirect flow of one client. */
export class RedirectFlow {
  constructor(
    private readonly clientId: string,
    private readonly tokens: TokenLifecycle,
    private readonly send: (operation: Operation, body: object, options?: CallOptions) => Promise<unknown>,
  ) {}

  /** A redirect session: its URL, the page's address without the query, and its session token. */
  private async session(body: object, options?: CallOptions): Promise<AuthUrl> {
    const response = (await this.send(createRedirectSession, body, options)) as
      | { redirectSession?: { fullUrl?: string; urlDetails?: { endpoint?: string }; sessionToken?: string | null } }
      | undefined;
    const session = response?.redirectSession;
    const url = session?.fullUrl;
    if (!url) throw new AuthError('Redirect session without a URL', { code: 'REDIRECT_SESSION_WITHOUT_A_URL' });
    return {
      authUrl: url,
      authorizationEndpoint: session.urlDetails?.endpoint ?? url.split('?')[0]!,
      ...(session.sessionToken ? { sessionToken: session.sessionToken } : {}),
    };
  }

  /** The hosted sign-in page's URL for `oauthData` (prompt `login`, response mode `fragment` by default). */
  async authUrl(oauthData: Partial<OAuthData>, options?: AuthUrlOptions | null): Promise<AuthUrl> {
    requireAwaited(oauthData, 'getAuthUrl');
    requireString(oauthData?.codeChallenge, 'codeChallenge', 'getAuthUrl');
    const { prompt = 'login', responseMode = 'fragment', sessionToken, idp, ...call } = options ?? {};
    const authRequest = {
      redirectUri: oauthData.redirectUri,
      clientId: this.clientId,
      codeChallenge: oauthData.codeChallenge,
      codeChallengeMethod: 'S256',
      responseMode,
      responseType: 'code',
      scope: OFFLINE_ACCESS,
      state: oauthData.state,
      sessionToken,
      idp: connectionIdOf(idp),
    };
    return this.session({ auth: { authRequest, prompt } }, call);
  }

  /** Exchanges the returned code for member tokens; stores and returns them. */
  async exchangeCode(
    code: string | null | undefined,
    state: string | null | undefined,
    oauthData: Partial<OAuthData>,
    options?: CallOptions,
  ): Promise<Tokens> {
    requireAwaited(oauthData, 'getMemberTokens');
    if (!code || !state) throw new AuthError('Missing code or _state', { code: 'MISSING_CODE_OR_STATE' });
    if (state !== oauthData?.state) throw new AuthError('Invalid _state', { code: 'INVALID_STATE' });
    const body = {
      clientId: this.clientId,
      grantType: 'authorization_code',
      redirectUri: oauthData.redirectUri,
      code,
      codeVerifier: oauthData.codeVerifier,
    };
    const { tokens, lifetimeSeconds } = await this.tokens.grant(body, 'member', options);
    return this.tokens.store(tokens, lifetimeSeconds);
  }

  /** The hosted logout page's URL (returning to `originalUrl`). */
  async logoutUrl(originalUrl: string, options?: CallOptions): Promise<{ logoutUrl: string }> {
    return {
      logoutUrl: (
        await this.session({ logout: { clientId: this.clientId }, callbacks: { postFlowUrl: originalUrl } }, options)
      ).authUrl,
    };
  }
}
