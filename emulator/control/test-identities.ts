/**
 * Test identities: members a seed or import file declares with fixed ids, emails, passwords,
 * statuses and verification (`members: [...]` next to `tables`), and `POST /_emulator/sign-in-as`,
 * which hands out a member's tokens in the SDK's `Tokens` shape without going through sign-in.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { applicationError, invalidField, validationError, type FieldViolation } from '../errors.js';
import type { EmulatorContext, SiteDirectory } from '../service.js';
import { deleteIdentity, saveIdentity } from '../services/accounts/identity/identity-store.js';
import { hashPasswordSync } from '../services/accounts/identity/passwords.js';
import { revokeAccess } from '../services/accounts/members/member-access.js';
import { startBrowserSession } from '../services/accounts/sign-in/browser-session.js';
import {
  findMember,
  findMemberByEmail,
  insertMember,
  normalEmail,
  isEmail,
  type Member,
} from '../services/accounts/members/member-store.js';
import { controlRoute } from './register.js';
import { entityIdProblem } from './state-rows.js';
import { isRecord } from '../untrusted-json.js';

/** One member a seed file declares. */
export interface TestMember {
  /** A fixed id; default a fresh one. */
  id?: string;
  email: string;
  /** Lets the member sign in with email and password; absent: no password (sign in with `sign-in-as`). */
  password?: string;
  /** Default `APPROVED`. */
  status?: 'PENDING' | 'APPROVED' | 'BLOCKED';
  /** Whether the login email is verified. Default true. */
  verified?: boolean;
  nickname?: string;
}

/** The SDK's `Tokens` (what `OAuthStrategy({tokens})` and `client.auth.setTokens` take). */
export interface MemberTokens {
  accessToken: { value: string; expiresAt: number };
  refreshToken: { value: string; role: 'member' };
}

const STATUSES = ['PENDING', 'APPROVED', 'BLOCKED'];
/** Checks a `members` list; returns it typed, or throws a validation error naming every problem. */
export function checkTestMembers(members: unknown): TestMember[] {
  if (!Array.isArray(members)) throw invalidField('members', 'must be a list of members');
  const violations: FieldViolation[] = [];
  const seen = new Set<string>();
  members.forEach((member, index) => {
    const problem = (field: string, description: string, violatedRule = 'VALIDATION') =>
      void violations.push({ field: `members.${index}${field ? `.${field}` : ''}`, description, violatedRule });
    if (!isRecord(member)) {
      problem('', 'must be an object');
      return;
    }
    for (const key of Object.keys(member))
      if (!['id', 'email', 'password', 'status', 'verified', 'nickname'].includes(key))
        problem(key, 'is not a field of a test member', 'FIELD_NOT_ALLOWED');
    if (!isEmail(member.email)) problem('email', 'must be an email address', 'FORMAT');
    else if (seen.has(normalEmail(member.email))) problem('email', 'is declared twice', 'DUPLICATE');
    else seen.add(normalEmail(member.email));
    const idProblem = typeof member.id == 'string' ? entityIdProblem(member.id) : 'must be a string';
    if (member.id !== undefined && idProblem) problem('id', `must be an id: ${idProblem}`);
    else if (typeof member.id == 'string' && seen.has(`id:${member.id}`))
      problem('id', 'is declared twice', 'DUPLICATE');
    else if (typeof member.id == 'string') seen.add(`id:${member.id}`);
    if (member.password !== undefined && (typeof member.password != 'string' || !member.password))
      problem('password', 'must be a non-empty string');
    if (member.status !== undefined && !STATUSES.includes(member.status as string))
      problem('status', `must be one of ${STATUSES.join(', ')}`, 'INVALID_ENUM_VALUE');
    if (member.verified !== undefined && typeof member.verified != 'boolean') problem('verified', 'must be a boolean');
    if (member.nickname !== undefined && typeof member.nickname != 'string') problem('nickname', 'must be a string');
  });
  if (violations.length) throw validationError(violations.slice(0, 50));
  return members as TestMember[];
}

/**
 * Writes declared members (call inside a transaction); one with the same id or email is replaced,
 * and signed out: its sessions, tokens and codes end, whatever changed (a status, a password).
 */
export function writeTestMembers(context: EmulatorContext, members: readonly TestMember[]): Member[] {
  const { store } = context;
  return members.map((declared) => {
    for (const existing of [declared.id && findMember(store, declared.id), findMemberByEmail(store, declared.email)]) {
      if (!existing) continue;
      deleteIdentity(store, existing.id);
      store.run('DELETE FROM members WHERE id = ?', [existing.id]);
      revokeAccess(context, existing.id);
    }
    const member = insertMember(context, {
      ...(declared.id ? { id: declared.id } : {}),
      loginEmail: declared.email,
      loginEmailVerified: declared.verified ?? true,
      status: declared.status ?? 'APPROVED',
      ...(declared.nickname ? { profile: { nickname: declared.nickname } } : {}),
    });
    saveIdentity(store, {
      memberId: member.id,
      passwordHash: declared.password ? hashPasswordSync(declared.password) : null,
      resetRequired: false,
      connections: [],
      revision: 1,
    });
    return member;
  });
}

/** The member a `sign-in-as` request names by `memberId` or `email` (its schema has typed them); only an approved member signs in. */
export function memberToSignIn(context: EmulatorContext, body: { memberId?: string; email?: string }): Member {
  const { memberId, email } = body;
  if ((memberId === undefined) == (email === undefined))
    throw invalidField('memberId', 'name the member by exactly one of memberId and email', 'REQUIRED_FIELD');
  if (email !== undefined && !isEmail(email)) throw invalidField('email', 'must be an email address', 'FORMAT');
  const member =
    typeof memberId == 'string'
      ? findMember(context.store, memberId)
      : findMemberByEmail(context.store, email as string);
  if (!member) throw applicationError(404, 'MEMBER_NOT_FOUND', `No member ${memberId ?? email}`);
  if (member.status != 'APPROVED')
    throw applicationError(
      409,
      'MEMBER_CANNOT_SIGN_IN',
      `Member ${member.id} is ${member.status}: only an approved member can sign in (approve it first)`,
    );
  return member;
}

/** A member's tokens, issued as the token endpoint would for a sign-in through the demo OAuth client. */
export async function signInTokens(context: EmulatorContext, member: Member): Promise<MemberTokens> {
  const issued = await context.tokens.issue({
    kind: 'member',
    visitorId: randomUUID(),
    memberId: member.id,
    clientId: context.site.clientId,
  });
  return {
    // The SDK compares expiries with its own (real) clock, not the emulator's.
    accessToken: { value: issued.access_token, expiresAt: Math.floor(Date.now() / 1000) + issued.expires_in },
    refreshToken: { value: issued.refresh_token, role: 'member' },
  };
}

/**
 * Registers `POST /_emulator/sign-in-as` (`{memberId | email, browserSession?}` → `Tokens`).
 * With `browserSession: true` the answer also sets the emulator's sign-in cookie, so a browser
 * (the console, an app's silent sign-in) is signed in as the member too.
 */
export function registerSignInAsRoute(app: FastifyInstance, sites: SiteDirectory): void {
  controlRoute(app, 'signInAs', ({ body, reply, request }) => {
    const context = sites.of(request);
    const member = memberToSignIn(context, body);
    if (body.browserSession) context.store.transaction(() => startBrowserSession(context, reply, member.id));
    return signInTokens(context, member);
  });
}
