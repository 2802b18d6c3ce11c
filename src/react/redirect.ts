/**
 * The two halves of the redirect sign-in, around the hosted page: leaving with the OAuth data
 * kept in (session) storage, and finishing on return. Finishing is done once per return URL and
 * strategy, however many times it is asked for: React's StrictMode runs effects twice, and an
 * authorization code can be exchanged only once.
 */
import {
  AuthError,
  type AuthUrlOptions,
  type CallOptions,
  type OAuthAuth,
  type OAuthData,
  type Tokens,
} from '../index.js';
import type { OAuthDataStorage } from './context.js';

/** The storage key of the OAuth data between `loginWithRedirect` and `handleRedirectCallback`. */
export const OAUTH_DATA_KEY = 'sitekit.oauth';

/** Options of `loginWithRedirect`: those of `getAuthUrl`, and where to go back to afterwards. */
export interface LoginWithRedirectOptions extends AuthUrlOptions {
  /** The page to return to once signed in, handed back by `handleRedirectCallback`. Default: the current page. */
  originalUri?: string;
}

/** Options of `handleRedirectCallback`. */
export interface RedirectCallbackOptions extends CallOptions {
  /** The return URL holding the code. Default: the current page's address. */
  url?: string;
  /** Where the code is: `fragment` (the default, as `loginWithRedirect` asks for) or `query`. */
  responseMode?: 'fragment' | 'query';
}

/** What `handleRedirectCallback` resolves with. */
export interface RedirectCallbackResult {
  /** The member's tokens, now stored by the client. */
  tokens: Tokens;
  /** The page the user was on when the sign-in started (`originalUri` of `loginWithRedirect`). */
  originalUri: string;
}

const currentAddress = () => globalThis.location?.href ?? '';

/**
 * Starts a redirect sign-in: makes and keeps the PKCE data, asks for the hosted page's URL and
 * leaves for it.
 */
export async function startRedirectLogin(
  auth: OAuthAuth,
  storage: OAuthDataStorage,
  navigate: (url: string) => void,
  redirectUri: string,
  { originalUri = currentAddress(), ...urlOptions }: LoginWithRedirectOptions = {},
): Promise<void> {
  const data = await auth.generateOAuthData(redirectUri, originalUri);
  const { authUrl } = await auth.getAuthUrl(data, urlOptions);
  // Kept only once the URL exists, so a failed start leaves no stale data behind.
  storage.setItem(OAUTH_DATA_KEY, JSON.stringify(data));
  navigate(authUrl);
}

const finishing = new WeakMap<OAuthAuth, Map<string, Promise<RedirectCallbackResult>>>();

/** Finishes a redirect sign-in on the return page: once per URL, later calls share the first one's outcome. */
export function finishRedirectLogin(
  auth: OAuthAuth,
  storage: OAuthDataStorage,
  options: RedirectCallbackOptions = {},
): Promise<RedirectCallbackResult> {
  const { url = currentAddress(), responseMode, ...call } = options;
  let byUrl = finishing.get(auth);
  if (!byUrl) finishing.set(auth, (byUrl = new Map()));
  let result = byUrl.get(url);
  if (!result) byUrl.set(url, (result = exchange(auth, storage, url, responseMode, call)));
  return result;
}

async function exchange(
  auth: OAuthAuth,
  storage: OAuthDataStorage,
  url: string,
  responseMode: 'fragment' | 'query' | undefined,
  call: CallOptions,
): Promise<RedirectCallbackResult> {
  const reply = auth.parseFromUrl(url, responseMode);
  try {
    // The hosted page's own words (`access_denied`, `login_required`...), as an AuthError.
    if (reply.error)
      throw new AuthError(reply.errorDescription || reply.error, { code: reply.error.toUpperCase(), details: reply });
    const data = readOAuthData(storage);
    const tokens = await auth.getMemberTokens(reply.code, reply.state, data, call);
    return { tokens, originalUri: data.originalUri };
  } finally {
    // A code is good for one exchange: whatever happened, this sign-in attempt is over.
    storage.removeItem(OAUTH_DATA_KEY);
  }
}

/** The kept OAuth data, or an AuthError saying why there is none to use. */
function readOAuthData(storage: OAuthDataStorage): OAuthData {
  const kept = storage.getItem(OAUTH_DATA_KEY);
  if (!kept)
    throw new AuthError('No redirect sign-in in progress in this tab (call loginWithRedirect first)', {
      code: 'NO_OAUTH_DATA',
    });
  try {
    const data = JSON.parse(kept) as Partial<OAuthData> | null;
    if (data && typeof data.state === 'string' && typeof data.codeVerifier === 'string')
      return { redirectUri: '', originalUri: '', codeChallenge: '', ...data } as OAuthData;
  } catch {
    // reported below
  }
  throw new AuthError('The kept redirect sign-in data is unreadable; start the sign-in again', {
    code: 'NO_OAUTH_DATA',
  });
}
