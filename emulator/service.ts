/**
 * What a service module is made of, and what its handlers receive. `README.md` in this folder
 * explains how to add one.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ConfigSetting, ConfigStore } from './config.js';
import type { EventHub, DomainEvent } from './events.js';
import type { SiteIdentity } from './site.js';
import type { Migration, Store } from './store/store.js';
import type { Clock } from './clock.js';
import type { SiteEntities } from './control/api.js';

/** Who is calling: from the `Authorization` header, resolved before any handler runs. */
export interface Caller {
  /** `visitor` (anonymous token), `member` (signed-in token) or `elevated` (API key, site owner). */
  kind: 'visitor' | 'member' | 'elevated';
  /** The member, for member tokens (and for elevated tokens issued for a member by an authorized client). */
  memberId?: string;
  /** The visitor, for visitor and member tokens (stable across refreshes). */
  visitorId?: string;
  /** The OAuth client the token was issued to. */
  clientId?: string;
  /** The token session of an access token (`refresh_tokens.session_id`): what logout and a password change end. */
  sessionId?: string;
  /** False only for the anonymous routes called without any `Authorization` header. */
  authenticated: boolean;
}

/* Token issuing and checking (implemented by auth/tokens.ts): here, beside the context that holds it, because a grant is given the context. */

/** Whom a token pair is for. */
export interface TokenSubject {
  kind: 'visitor' | 'member';
  /** Stable for a browser: kept when a visitor signs in and across refreshes. */
  visitorId: string;
  memberId?: string;
  clientId: string;
  /** The session a refresh continues (its id and refresh token); absent, a new session opens. */
  session?: { id: string; refreshToken: string };
  /** The authorization code the tokens are exchanged for: a replay of it ends the session. */
  authorizationCode?: string;
}

/** The body of a successful `POST /oauth2/token`. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_token: string;
  token_type: 'Bearer';
}

/** One grant type of the token endpoint: checks the request and says whom to issue tokens for. */
export type Grant = (
  input: Record<string, unknown>,
  call: ServiceCall,
  context: EmulatorContext,
) => TokenSubject | Promise<TokenSubject>;

/**
 * Whether a member may hold tokens: undefined when it may, else why not (`the member is BLOCKED`).
 * Checked whenever a member's access token is used and its refresh token renews it, so a member's
 * standing decides, however it changed (an import, a seed, a store edit), not only the routes that
 * end its sessions.
 */
export type MemberStanding = (memberId: string) => string | undefined;

/** Token issuing and checking, shared by every service. */
export interface TokenService {
  /** An access token for `subject`, in its session (a new one, with a new refresh token, unless it continues one). */
  issue(subject: TokenSubject): Promise<TokenResponse>;
  /** The caller an access token stands for; a missing, expired, forged or revoked token is a 401. */
  verify(accessToken: string): Promise<Caller>;
  /** Whom a refresh token is for, with its session to continue; an unknown, revoked or foreign one is refused. Reusable. */
  useRefreshToken(refreshToken: string, clientId: string): TokenSubject;
  /** Ends one session (logout). */
  revokeSession(sessionId: string): void;
  /** Ends every session of a member, but `keepSessionId` (the one that changed the password). */
  revokeMemberSessions(memberId: string, keepSessionId?: string): void;
  /** Ends the sessions opened with an authorization code (the code was replayed). */
  revokeCodeSessions(authorizationCode: string): void;
  /** Sets the check of a member's standing (the members service's: it exists and is approved). */
  registerMemberStanding(standing: MemberStanding): void;
  /** Adds (or replaces) a grant type of `POST /oauth2/token`. */
  registerGrant(grantType: string, grant: Grant): void;
  /** The grant for a grant type, if any. */
  grant(grantType: string): Grant | undefined;
}

/** One call of one operation, as a handler sees it. */
export interface ServiceCall<Input = Record<string, unknown>> {
  /** The request: the JSON body, or the query string (dotted keys and `.r` decoded), with the path parameters merged in. Already validated against the schema. */
  input: Input;
  caller: Caller;
  /** The `x-wix-request-id` of this request. */
  requestId: string;
  /** Queues a domain event; the event hub delivers it once the request's transaction has committed, never if it rolls back. */
  emit(event: DomainEvent): void;
  /** Raw access, for the rare handler that must set a header or read one. */
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What every handler can reach: the state of one site of the emulator (each site has its own). */
export interface EmulatorContext {
  store: Store;
  site: SiteIdentity;
  config: ConfigStore;
  events: EventHub;
  tokens: TokenService;
  /** The emulator's time (real time unless a test moved it): every expiry and timestamp reads it. */
  clock: Clock;
  /**
   * The base of the URLs this site hands out (download links, hosted pages): the emulator's own URL
   * (`http://127.0.0.1:4700`) for the default site, with the site's path after it for the others
   * (`http://127.0.0.1:4700/_sites/<siteId>`), so a link finds its site. Known once it listens.
   */
  url(): string;
  /** The site's data directory, or `null` with `--memory` (files then go to a temporary directory). */
  dataDir: string | null;
}

/**
 * The sites of one emulator, as the routes outside the route table reach them: the server resolves
 * the site of every request before any route runs (API key and `wix-site-id`, a token's site, a
 * client id, the `x-sitekit-site` header of control calls), and a route asks for it.
 */
export interface SiteDirectory {
  /** The context of the site `request` acts on. */
  of(request: FastifyRequest): EmulatorContext;
}

/** What a module's {@link ServiceModule.start} may hand back: undone when its site closes. */
export type SiteStop = () => void | Promise<void>;

/**
 * Handles one operation; returns the response body (an object) or throws an `EmulatorError`.
 * `Input` is the request type the handler expects (the schema validated it before the call).
 */
export type Handler<Input = Record<string, unknown>> = {
  // Method syntax on purpose: it lets a handler declare its own, narrower request type and still
  // be an `Operation` (method parameters are compared bivariantly).
  handle(call: ServiceCall<Input>, context: EmulatorContext): unknown;
}['handle'];

/**
 * An operation's implementation. A bare function is synchronous and runs inside one store
 * transaction (committed when it returns). The object form with `manageTransactions: true` may be
 * async (signing tokens, fetching a URL) and opens its own `store.transaction(...)` around its writes.
 */
export type Operation = Handler | { handle: Handler; manageTransactions: true };

/** A service: the operations it implements (by operationId of the generated route table), its tables, settings and extra routes. */
export interface ServiceModule {
  /** Short name, used in migration ids and logs. */
  name: string;
  /** Its schema changes, appended to the one list in `services/index.ts` order. */
  migrations?: Migration[];
  /** Implementations by `operationId` (`generated/routes.ts`). */
  operations?: Record<string, Operation>;
  /** Operations that accept a call without any `Authorization` header (the anonymous token grant...). */
  anonymousOperations?: string[];
  /** Settings it adds to `/_emulator/config`, with their defaults. */
  config?: Record<string, ConfigSetting>;
  /** Writes its demo data; runs once, on an empty store, inside a transaction. */
  seed?(context: EmulatorContext): void;
  /**
   * Registers routes outside the route table (hosted pages, upload endpoints), once per server;
   * a handler finds its site with `sites.of(request)`, never a context captured here.
   */
  routes?(app: FastifyInstance, sites: SiteDirectory): void | Promise<void>;
  /**
   * Sets up what a module keeps per site (grants, event subscriptions, a delivery queue) when a site
   * opens; what it answers runs when the site closes (deleted, or the emulator stops).
   */
  start?(context: EmulatorContext): SiteStop | undefined;
  /** Its sections of an export (version 2: the platform's wire entities), read from and written to its own tables. */
  entities?: EntitySections;
  /** Called by `POST /_emulator/reset` after the tables are emptied (forget in-memory caches). */
  reset?(context: EmulatorContext): void;
}

/**
 * A store's part of the export format (version 2): the entities it keeps, in the platform's wire
 * form, never its rows. The export joins every module's sections; an import empties the state and
 * hands each module the whole file, in module order (collections before their items).
 */
export interface EntitySections {
  /** Its sections, read from its tables. */
  export(context: EmulatorContext): Partial<SiteEntities>;
  /**
   * Writes its sections of an imported file into the emptied store, inside the import's
   * transaction; an entity it cannot keep is a validation error naming it (`items.Movies.3._id`).
   */
  import(context: EmulatorContext, entities: SiteEntities): void;
}

/** Tables the control API's reset, export and import leave alone (they are not the site's state). */
export const infrastructureTables = ['schema_migrations', 'site'];
