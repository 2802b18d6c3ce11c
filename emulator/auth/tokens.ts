/**
 * Access tokens (JWTs signed with the site's key pair, via jose) and refresh tokens (opaque,
 * stored hashed). Grants are pluggable: part 2 adds the authorization-code grant.
 *
 * Every token response opens a session: one row of `refresh_tokens`, named by its `session_id`,
 * which the access tokens carry (`sid`). As on the platform, a refresh token is long-lived and
 * reusable: a refresh answers a new access token of the same session and the same refresh token
 * (the official client keeps the first one it got and sends it at every renewal). Ending the
 * session ends them all: its refresh token is refused and its access tokens answer 401 before
 * their expiry. Sessions end on logout, when a member is blocked or deleted, when the password
 * changes (the member's other sessions), when a member is re-declared (an import, a seed), and when
 * the authorization code they came from is replayed (RFC 6749 4.1.2). A member's token is also
 * refused, and its refresh too, once the member may no longer sign in however that came about
 * ({@link MemberStanding}), or once its session is no longer in the state (a reset, an import).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { applicationError, unauthenticated } from '../errors.js';
import type { Caller, Grant, MemberStanding, TokenService, TokenSubject } from '../service.js';
import { SIGNING_ALGORITHM, type SiteIdentity } from '../site.js';
import type { ConfigStore } from '../config.js';
import type { Clock } from '../clock.js';
import type { Migration, Store } from '../store/store.js';

/** The refresh-token (session) table. */
export const tokenMigrations: Migration[] = [
  {
    // Stryker disable next-line StringLiteral: an id only names the migration in schema_migrations, where any unique one works.
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
  {
    // Each row becomes a session: refresh tokens are reusable, access tokens name their session.
    // \`used_at\` keeps its name (exports of older versions import as they are) and now means: revoked at.
    // Stryker disable next-line StringLiteral: an id only names the migration in schema_migrations, where any unique one works.
    id: 'auth-002-token-sessions',
    sql: `ALTER TABLE refresh_tokens ADD COLUMN session_id TEXT;
    ALTER TABLE refresh_tokens ADD COLUMN authorization_code_hash TEXT;
    UPDATE refresh_tokens SET session_id = token_hash;
    CREATE UNIQUE INDEX refresh_tokens_by_session ON refresh_tokens (session_id);
    CREATE INDEX refresh_tokens_by_member ON refresh_tokens (member_id);
    CREATE INDEX refresh_tokens_by_code ON refresh_tokens (authorization_code_hash)`,
  },
];

/** Claims of our access tokens. */
interface AccessClaims {
  role: 'visitor' | 'member';
  visitorId: string;
  memberId?: string;
  clientId: string;
  /** The session (absent from tokens issued before sessions existed). */
  sid?: string;
}

const ISSUER = 'sitekit-emulator';
// Stryker disable next-line StringLiteral: any fixed encoding works, the stored hash is only compared with itself.
const hash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** An OAuth-style refusal of the token endpoint (400, code `INVALID_GRANT`). */
export const invalidGrant = (description: string) => applicationError(400, 'INVALID_GRANT', description);

/** A session row, as the token service reads it. */
interface SessionRow {
  kind: 'visitor' | 'member';
  visitor_id: string;
  member_id: string | null;
  client_id: string;
  session_id: string | null;
  used_at: string | null;
}

/** Builds the token service of one emulator. */
export function createTokenService(store: Store, site: SiteIdentity, config: ConfigStore, clock: Clock): TokenService {
  const grants = new Map<string, Grant>();
  let memberStanding: MemberStanding = () => undefined;
  /** Opens a session for `subject`; answers its id and its refresh token (the only time it exists in clear). */
  const openSession = (subject: TokenSubject): { id: string; refreshToken: string } => {
    const session = { id: randomUUID(), refreshToken: `${subject.kind}.${randomBytes(32).toString('base64url')}` };
    store.run(
      `INSERT INTO refresh_tokens (token_hash, kind, visitor_id, member_id, client_id, created_at, session_id, authorization_code_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        hash(session.refreshToken),
        subject.kind,
        subject.visitorId,
        subject.memberId ?? null,
        subject.clientId,
        clock.iso(),
        session.id,
        subject.authorizationCode ? hash(subject.authorizationCode) : null,
      ],
    );
    return session;
  };
  return {
    async issue(subject) {
      const lifetime = config.get<number>('tokenLifetimeSeconds');
      const session = subject.session ?? openSession(subject);
      const claims: AccessClaims = {
        role: subject.kind,
        visitorId: subject.visitorId,
        clientId: subject.clientId,
        sid: session.id,
      };
      // Stryker disable next-line ConditionalExpression: (`true`) an undefined claim is left out of the token anyway.
      if (subject.memberId) claims.memberId = subject.memberId;
      const accessToken = await new SignJWT({ ...claims })
        .setProtectedHeader({ alg: SIGNING_ALGORITHM })
        .setIssuer(ISSUER)
        .setAudience(site.siteId)
        .setSubject(subject.memberId ?? subject.visitorId)
        // Two renewals within a second are still two tokens.
        .setJti(randomUUID())
        .setIssuedAt(Math.floor(clock.now() / 1000))
        .setExpirationTime(Math.floor(clock.now() / 1000) + lifetime)
        .sign(site.privateKey);
      return {
        access_token: accessToken,
        expires_in: lifetime,
        refresh_token: session.refreshToken,
        token_type: 'Bearer',
      };
    },

    async verify(accessToken) {
      let payload: AccessClaims;
      try {
        ({ payload } = await jwtVerify<AccessClaims>(accessToken, site.publicKey, {
          issuer: ISSUER,
          audience: site.siteId,
          algorithms: [SIGNING_ALGORITHM],
          // Expiry is judged on the emulator's clock, which tests move.
          currentDate: clock.date(),
        }));
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw unauthenticated('The access token has expired');
        // Stryker disable next-line ConditionalExpression: jwtVerify of a string throws JOSE errors only.
        if (error instanceof joseErrors.JOSEError) throw unauthenticated('The access token is not valid');
        throw error;
      }
      const caller: Caller = {
        kind: payload.role,
        visitorId: payload.visitorId,
        clientId: payload.clientId,
        authenticated: true,
      };
      if (payload.role == 'member' && payload.memberId) caller.memberId = payload.memberId;
      else if (payload.role != 'visitor') throw unauthenticated('The access token names no known role');
      const session = payload.sid
        ? store.get<{ used_at: string | null }>('SELECT used_at FROM refresh_tokens WHERE session_id = ?', [
            payload.sid,
          ])
        : undefined;
      if (session?.used_at)
        throw unauthenticated(
          'The session of this access token has ended (logout, password change, blocked or deleted member)',
        );
      if (caller.memberId) {
        // A visitor's token whose session a reset or an import forgot names no one and lives to its
        // expiry; a member's is refused, as the state that let the member in is gone.
        if (!session)
          throw unauthenticated(
            "The session of this access token is not in the emulator's state (reset or imported since): sign in again",
          );
        const problem = memberStanding(caller.memberId);
        if (problem) throw unauthenticated(`This access token's member cannot use it: ${problem}`);
      }
      // Stryker disable next-line ConditionalExpression: (`true`) an undefined sessionId is no session id either.
      if (payload.sid) caller.sessionId = payload.sid;
      return caller;
    },

    useRefreshToken(refreshToken, clientId) {
      const row = store.get<SessionRow>(
        'SELECT kind, visitor_id, member_id, client_id, session_id, used_at FROM refresh_tokens WHERE token_hash = ?',
        [hash(refreshToken)],
      );
      if (!row) throw invalidGrant('Unknown refresh token');
      if (row.used_at)
        throw invalidGrant('This refresh token was revoked (logout, password change, blocked or deleted member)');
      if (row.client_id != clientId) throw invalidGrant('The refresh token was issued to another client');
      const problem = row.member_id ? memberStanding(row.member_id) : undefined;
      if (problem) throw invalidGrant(`This refresh token's member cannot sign in: ${problem}`);
      // Rows of older versions have no session id: their token hash names the session.
      const sessionId = row.session_id ?? hash(refreshToken);
      if (!row.session_id)
        store.run('UPDATE refresh_tokens SET session_id = ? WHERE token_hash = ?', [sessionId, hash(refreshToken)]);
      const subject: TokenSubject = {
        kind: row.kind,
        visitorId: row.visitor_id,
        clientId: row.client_id,
        session: { id: sessionId, refreshToken },
      };
      // Stryker disable next-line ConditionalExpression: (`true`) a visitor's null member id names no one, as none does.
      if (row.member_id) subject.memberId = row.member_id;
      return subject;
    },

    revokeSession(sessionId) {
      store.run('UPDATE refresh_tokens SET used_at = ? WHERE session_id = ? AND used_at IS NULL', [
        clock.iso(),
        sessionId,
      ]);
    },
    revokeMemberSessions(memberId, keepSessionId) {
      store.run(
        'UPDATE refresh_tokens SET used_at = ? WHERE member_id = ? AND used_at IS NULL AND (? IS NULL OR session_id IS NOT ?)',
        [clock.iso(), memberId, keepSessionId ?? null, keepSessionId ?? null],
      );
    },
    revokeCodeSessions(authorizationCode) {
      store.run('UPDATE refresh_tokens SET used_at = ? WHERE authorization_code_hash = ? AND used_at IS NULL', [
        clock.iso(),
        hash(authorizationCode),
      ]);
    },

    registerMemberStanding: (standing) => void (memberStanding = standing),
    registerGrant: (grantType, grant) => void grants.set(grantType, grant),
    grant: (grantType) => grants.get(grantType),
  };
}
