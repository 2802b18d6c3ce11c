/**
 * sitekit/react: React bindings for a sitekit client. A provider and `useClient`, the sign-in
 * state and actions (`useAuth`), the signed-in member (`useCurrentMember`), uploads with
 * progress (`useUpload`), and TanStack Query options for sitekit queries and writes. React 18 or
 * 19 is a peer; TanStack Query is an optional peer (these options are plain objects).
 *
 * The built entry starts with `'use client'` (added by the build: bundlers drop module-level
 * directives), and nothing here touches `window` or `document` when imported.
 */
export { SiteKitProvider, useClient } from './context.js';
export type { SiteKitProviderProps, OAuthDataStorage } from './context.js';
export { useAuth } from './use-auth.js';
export type { AuthState, AuthAction, LogoutOptions } from './use-auth.js';
export type { AuthSnapshot } from './auth-store.js';
export { OAUTH_DATA_KEY } from './redirect.js';
export type { LoginWithRedirectOptions, RedirectCallbackOptions, RedirectCallbackResult } from './redirect.js';
export { useCurrentMember } from './use-current-member.js';
export type { CurrentMemberState, CurrentMemberOptions } from './use-current-member.js';
export { useUpload } from './use-upload.js';
export type { UploadState, UploadStatus } from './use-upload.js';
export { queryOptions, infiniteQueryOptions, mutationOptions, QUERY_KEY_ROOT } from './query.js';
export type {
  SiteKitQueryKey,
  SiteKitQueryOptions,
  SiteKitInfiniteQueryOptions,
  SiteKitMutationOptions,
  MutationInvalidation,
  MutationCallContext,
  InvalidatingQueryClient,
  QueryCall,
  QueryCallContext,
  PageData,
  SiteKitQueryBuilder,
  QueryResultOf,
  QueryRequestArguments,
} from './query.js';
