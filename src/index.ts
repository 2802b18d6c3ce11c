/**
 * sitekit: a typed client for the platform's headless APIs (data, media, members, sign-in).
 * The public surface, listed explicitly.
 */
export { createClient } from './client.js';
export type { Client, ClientOptions, GraphQLResult } from './client.js';
export {
  OAuthStrategy,
  ApiKeyStrategy,
  memoryTokenStorage,
  localStorageTokenStorage,
  cookieTokenStorage,
  browserFrameHost,
  parseFromUrl,
  generatePKCE,
  LoginState,
  TokenRole,
  CAPTCHA_INVISIBLE_SITE_KEY,
  CAPTCHA_VISIBLE_SITE_KEY,
} from './auth/index.js';
export type {
  OAuthAuth,
  OAuthOptions,
  ApiKeyAuth,
  ApiKeyOptions,
  AuthStrategy,
  CookieStorageOptions,
  WebStorage,
  AccessToken,
  RefreshToken,
  Tokens,
  TokenStorage,
  StateMachine,
  LoginErrorCode,
  LoginParams,
  RegisterParams,
  CaptchaTokens,
  OAuthData,
  OAuthCallback,
  AuthUrlOptions,
  IdentityProvider,
  SilentOptions,
  AuthEvent,
  FrameHost,
} from './auth/index.js';
export type { RetryOptions } from './http/retry.js';
export type { FetchWithAuthOptions } from './http/transport.js';
export type { TransportAuth } from './http/auth.js';
export {
  SiteKitError,
  type SiteKitErrorInit,
  type ErrorContext,
  type ValidationErrorInit,
  type FieldViolation,
  type ApplicationErrorInit,
  type HttpErrorInit,
  type NetworkErrorInit,
  type RequestErrorInit,
  ValidationError,
  ApplicationError,
  HttpError,
  NetworkError,
  TimeoutError,
  AbortedError,
  ElevationRequiredError,
  RequestError,
  AuthError,
  WebhookError,
  isSiteKitError,
  isValidationError,
  isApplicationError,
  isHttpError,
  isNetworkError,
  isTimeoutError,
  isAbortedError,
  isElevationRequiredError,
  isRequestError,
  isAuthError,
  isWebhookError,
  type WebhookErrorCode,
} from './errors/index.js';
export type { ItemsApi } from './data/items.js';
export type { CollectionsApi } from './data/collections.js';
export type {
  AggregateBuilder,
  AggregateOptions,
  AggregateRow,
  BulkError,
  BulkOptions,
  BulkResult,
  CountOptions,
  DataItemOf,
  DistinctOptions,
  DistinctRequest,
  ElementOf,
  FieldPath,
  FieldValue,
  FilterBuilder,
  FilterLike,
  FilterObject,
  FilterOperators,
  FindOptions,
  GroupedFields,
  ResultField,
  ItemInput,
  ItemRef,
  ItemsQueryBuilder,
  ItemsQueryRequest,
  ItemsQueryResponse,
  PagedResult,
  PagingOperators,
  PatchBuilder,
  PatchOptions,
  QueryReferencedOptions,
  SystemFields,
} from './data/types.js';
export type { MembersApi, MembersQueryBuilder, QueryMembersOptions } from './members/members.js';
export { RESUMABLE_THRESHOLD } from './media/media.js';
export type { MediaApi, UploadData, UploadOptions, UploadProgress } from './media/media.js';
export type {
  WebhookOptions,
  Webhooks,
  ProcessOptions,
  ProcessedEvent,
  EventHandler,
  Unsubscribe,
  EventMetadata,
  EventIdentity,
  EntityCreatedEvent,
  EntityUpdatedEvent,
  EntityDeletedEvent,
  ActionEvent,
  WithCollectionId,
  DomainEvent,
  CollectionsEvents,
  ItemsEvents,
  MediaEvents,
  MembersEvents,
} from './events/index.js';
export type { CallOptions, Item, Entity } from './types.js';
export type { CollectionsOperations, ItemsOperations, MediaOperations, MembersOperations } from '../generated/namespaces.js';
export type * from '../generated/models.js';
export type * from '../generated/io.js';
