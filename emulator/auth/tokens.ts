/**
 * Access tokens (JWTs signed with the site's key pair, via jose) and rotating refresh tokens
 * (opaque, stored hashed). Grants are pluggable: part 2 adds the authorization-code grant.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { applicationError, unauthenticated } from '../errors.js';
import type { Caller, EmulatorContext, ServiceCall } from '../service.js';
import { SIGNING_ALGORITHM, type SiteIdentity } from '../site.js';
import type { ConfigStore } from '../config.js';
import type { Clock } from '../clock.js';
import type { Migration, Store } from '../store/store.js';

/** Whom a token pair is for. */
export interface TokenSubject {
  kind: 'visitor' | 'member';
  /** Stable for a browser: kept when a visitor signs in and across refreshes. */
  visitorId: string;
  memberId?: string;
  clientId: string;
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

/** Token issuing and checking, shared by every service. */
export interface TokenService {
  /** An access token and a new refresh token for `subject`. */
  issue(subject: TokenSubject): Promise<TokenResponse>;
  /** The caller an access token stands for; a missing, expired or forged token is a 401. */
  verify(accessToken: string): Promise<Caller>;
  /** Spends a refresh token (each works once) and returns whom it was for; a used, unknown or foreign one is refused. */
  spendRefreshToken(refreshToken: string, clientId: string): TokenSubject;
  /** Adds (or replaces) a grant type of `POST /oauth2/token`. */
  registerGrant(grantType: string, grant: Grant): void;
  /** The grant for a grant type, if any. */
  grant(grantType: string): Grant | undefined;
}

/** The refresh-token table. */
export const tokenMigrations: Migration[] = [
  {
    id: 'auth-001-refresh-tokens',
    sql: `CREATE TABLE refresh_tokens (
      token_hash TEXT PRIMARY KEY,
      kind TEXT NOT NULL,
      visitor_id TEXT NOT NULL,
      member_id TEXT,
      client_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      used_at TEXT
    )`,
  },
];

/** Claims of our access tokens. */
interface AccessClaims {
  role: 'visitor' | 'member';
  visitorId: string;
  memberId?: string;
  clientId: string;
}

const ISSUER = 'sitekit-emulator';
const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** An OAuth-style refusal of the token endpoint (400, code `INVALID_GRANT`). */
export const invalidGrant = (description: string) => applicationError(400, 'INVALID_GRANT', description);

/** Builds the token service of one emulator. */
export function createTokenService(store: Store, site: SiteIdentity, config: ConfigStore, clock: Clock): TokenService {
  const grants = new Map<string, Grant>();
  return {
    async issue(subject) {
      const lifetime = config.get<number>('tokenLifetimeSeconds');
      const claims: AccessClaims = { role: subject.kind, visitorId: subject.visitorId, clientId: subject.clientId };
      if (subject.memberId) claims.memberId = subject.memberId;
      const accessToken = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: SIGNING_ALGORITHM })
        .setIssuer(ISSUER)
        .setAudience(site.siteId)
        .setSubject(subject.memberId ?? subject.visitorId)
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .setExpirationTime(Math.floor(clock.now() / 1000) + lifetime)
        .sign(site.privateKey);
      const refreshToken = `${subject.kind}.${randomBytes(32).toString('base64url')}`;
      store.run(
        'INSERT INTO refresh_tokens (token_hash, kind, visitor_id, member_id, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        [hash(refreshToken), subject.kind, subject.visitorId, subject.memberId ?? null, subject.clientId, clock.iso()],
      );
      return { access_token: accessToken, expires_in: lifetime, refresh_token: refreshToken, token_type: 'Bearer' };
    },

    async verify(accessToken) {
      try {
        const { payload } = await jwtVerify<AccessClaims>(accessToken, site.publicKey, {
          issuer: ISSUER,
          audience: site.siteId,
          algorithms: [SIGNING_ALGORITHM],
          // Expiry is judged on the emulator's clock, which tests move.
          currentDate: clock.date(),
        });
        const caller: Caller = {
          kind: payload.role,
          visitorId: payload.visitorId,
          clientId: payload.clientId,
          authenticated: true,
        };
        if (payload.role == 'member' && payload.memberId) caller.memberId = payload.memberId;
        else if (payload.role != 'visitor') throw unauthenticated('The access token names no known role');
        return caller;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw unauthenticated('The access token has expired');
        if (error instanceof joseErrors.JOSEError) throw unauthenticated('The access token is not valid');
        throw error;
      }
    },

    spendRefreshToken(refreshToken, clientId) {
      return store.transaction(() => {
        const row = store.get<{
          kind: 'visitor' | 'member';
          visitor_id: string;
          member_id: string | null;
          client_id: string;
          used_at: string | null;
        }>('SELECT kind, visitor_id, member_id, client_id, used_at FROM refresh_tokens WHERE token_hash = ?', [
          hash(refreshToken),
        ]);
        if (!row) throw invalidGrant('Unknown refresh token');
        if (row.used_at) throw invalidGrant('This refresh token was already used; refresh tokens work once');
        if (row.client_id != clientId) throw invalidGrant('The refresh token was issued to another client');
        store.run('UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ?', [clock.iso(), hash(refreshToken)]);
        const subject: TokenSubject = { kind: row.kind, visitorId: row.visitor_id, clientId: row.client_id };
        if (row.member_id) subject.memberId = row.member_id;
        return subject;
      });
    },

    registerGrant: (grantType, grant) => void grants.set(grantType, grant),
    grant: (grantType) => grants.get(grantType),
  };
}
