/** The public auth surface: OAuth and API-key strategies, token storage, PKCE and the shared types. */
export { generatePKCE, OAuthStrategy } from './oauth.js';
export type { OAuthAuth, OAuthOptions } from './oauth-auth.js';
export { ApiKeyStrategy, type ApiKeyAuth, type ApiKeyOptions } from './api-key.js';
export type { AuthStrategy } from './strategy.js';
export {
  memoryTokenStorage,
  localStorageTokenStorage,
  cookieTokenStorage,
  type CookieStorageOptions,
  type WebStorage,
} from './storage.js';
export { browserFrameHost } from './frames.js';
export { parseFromUrl } from './callback.js';
export {
  LoginState,
  TokenRole,
  CAPTCHA_INVISIBLE_SITE_KEY,
  CAPTCHA_VISIBLE_SITE_KEY,
  type AccessToken,
  type RefreshToken,
  type Tokens,
  type TokenStorage,
  type StateMachine,
  type LoginErrorCode,
  type LoginFailure,
  type LoginParams,
  type RegisterParams,
  type CaptchaTokens,
  type OAuthData,
  type OAuthCallback,
  type AuthUrl,
  type AuthUrlOptions,
  type IdentityProvider,
  type SilentOptions,
  type AuthEvent,
  type FrameHost,
} from './types.js';
