/**
 * The sign-in state machine (spec section 4), shared by the identity routes and the hosted
 * sign-in page: registration, password login, and the state that follows a proof of identity
 * (SUCCESS with a session token, REQUIRE_EMAIL_VERIFICATION with a state token and an emailed
 * code, REQUIRE_OWNER_APPROVAL, STATUS_CHECK for blocked or offline members).
 */
import { randomInt } from 'node:crypto';
import { applicationError, invalidField, validationError } from '../../../errors.js';
import type { DomainEvent } from '../../../events.js';
import type { Caller, EmulatorContext } from '../../../service.js';
import { sendEmail } from '../../outbox.js';
import { emitMemberEvent } from '../members/member-events.js';
import {
  changeMember,
  findMemberByEmail,
  insertMember,
  isEmail,
  requireMember,
  type Member,
} from '../members/member-store.js';
import { checkCaptcha } from './captcha.js';
import { findIdentity, saveIdentity, wireIdentity } from './identity-store.js';
import { hashPassword, requireNewPassword, verifyPassword } from './passwords.js';
import { memberFieldsOf } from './profile.js';
import {
  hashSecret,
  issueSecret,
  readSecret,
  spendSecret,
  type SecretPurpose,
  type SecretProblem,
  type StoredSecret,
} from './secrets.js';

/** Code of a registration whose email already belongs to a member. */
export const EMAIL_EXISTS = '-19995';
/** Code of a login with the wrong password. */
export const INVALID_PASSWORD = '-19976';
/** Code of a login while the password must be reset first. */
export const RESET_PASSWORD = '-19973';

/** How long the session token of a successful login can be turned into member tokens. */
const SESSION_TOKEN_SECONDS = 10 * 60;
/** How long a pending authentication (verification, approval) can be continued. */
const STATE_TOKEN_SECONDS = 60 * 60;

/** A state-machine answer (`StateMachineResponse` of the schema). */
export interface StateMachineResponse {
  identity: Record<string, unknown>;
  state: 'SUCCESS' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_OWNER_APPROVAL' | 'STATUS_CHECK';
  sessionToken?: string;
  stateToken?: string;
}

/** What a pending authentication's state token remembers. */
export interface PendingState {
  step: 'EMAIL_VERIFICATION' | 'OWNER_APPROVAL';
  /** Hash of the emailed verification code (EMAIL_VERIFICATION only). */
  codeHash?: string;
}

/** Who acts (for events) and where events go once the transaction commits. */
export interface Actor {
  caller: Caller;
  emit(event: DomainEvent): void;
}

const newCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

/** Emails a fresh verification code to the member; returns the code's hash. */
export function emailVerificationCode(context: EmulatorContext, member: Member): string {
  const code = newCode();
  sendEmail(context, {
    to: member.loginEmail!,
    subject: 'Your verification code',
    text: `Your verification code is ${code}.\nEnter it where you signed up to confirm this email address.`,
    kind: 'verification-code',
    code,
  });
  return hashSecret(code);
}

/** A state token for a pending step (emailing the code for email verification). */
export function pendingState(context: EmulatorContext, member: Member, step: PendingState['step']): string {
  const data: PendingState =
    step == 'EMAIL_VERIFICATION' ? { step, codeHash: emailVerificationCode(context, member) } : { step };
  return issueSecret(context, 'state', member.id, STATE_TOKEN_SECONDS, data);
}

/**
 * The state after a member proved who they are (password, emailed code, recovery link). Runs
 * inside the caller's transaction: it may email a code and issues the token of the state.
 */
export function nextState(context: EmulatorContext, memberId: string): StateMachineResponse {
  const store = context.store;
  let member = requireMember(store, memberId);
  const verificationRequired = context.config.get<boolean>('emailVerificationRequired');
  const identity = () => wireIdentity(member, findIdentity(store, member.id), verificationRequired);
  if (member.status == 'BLOCKED' || member.status == 'OFFLINE') return { identity: identity(), state: 'STATUS_CHECK' };
  if (verificationRequired && !member.loginEmailVerified) {
    return {
      identity: identity(),
      state: 'REQUIRE_EMAIL_VERIFICATION',
      stateToken: pendingState(context, member, 'EMAIL_VERIFICATION'),
    };
  }
  if (member.status == 'PENDING')
    return {
      identity: identity(),
      state: 'REQUIRE_OWNER_APPROVAL',
      stateToken: pendingState(context, member, 'OWNER_APPROVAL'),
    };
  const sessionToken = startSession(context, member.id);
  member = requireMember(store, member.id);
  return { identity: identity(), state: 'SUCCESS', sessionToken };
}

/** A session token for a member who signed in (its last login is now). */
export function startSession(context: EmulatorContext, memberId: string): string {
  changeMember(context, memberId, (member) => void (member.lastLoginDate = context.clock.iso()));
  return issueSecret(context, 'session', memberId, SESSION_TOKEN_SECONDS);
}

const SECRET_PROBLEMS: Record<SecretProblem, string> = {
  unknown: 'is not known',
  used: 'was already used',
  expired: 'has expired',
};

/** The pending authentication of a state token, or the platform's refusal. */
export function requireState(
  context: EmulatorContext,
  stateToken: unknown,
  step?: PendingState['step'],
): StoredSecret<PendingState> {
  const pending = readSecret<PendingState>(context, 'state', stateToken);
  if (typeof pending == 'string')
    throw applicationError(400, 'INVALID_STATE_TOKEN', `The state token ${SECRET_PROBLEMS[pending]}`);
  if (step && pending.data.step != step)
    throw applicationError(
      400,
      'INVALID_STATE_TOKEN',
      `The state token is not waiting for ${step.toLowerCase().replace('_', ' ')}`,
    );
  return pending;
}

/** A usable secret of `purpose`, or a 400 with `code` saying why not. */
export function requireSecret<Data>(
  context: EmulatorContext,
  purpose: SecretPurpose,
  secret: unknown,
  code: string,
  name: string,
): StoredSecret<Data> {
  const found = readSecret<Data>(context, purpose, secret);
  if (typeof found == 'string') throw applicationError(400, code, `The ${name} ${SECRET_PROBLEMS[found]}`);
  return found;
}

/** Checks the emailed code of a pending email verification; the email is then verified and the flow goes on. */
export function verifyCode(context: EmulatorContext, stateToken: unknown, code: unknown): StateMachineResponse {
  const pending = requireState(context, stateToken, 'EMAIL_VERIFICATION');
  if (typeof code != 'string' || hashSecret(code.trim()) != pending.data.codeHash) {
    throw applicationError(
      400,
      'INVALID_VERIFICATION_CODE',
      'The verification code is wrong; the latest emailed code is the one that works',
    );
  }
  spendSecret(context, 'state', stateToken as string);
  changeMember(context, pending.memberId, (member) => void (member.loginEmailVerified = true));
  return nextState(context, pending.memberId);
}

/** An identity-provider connection of an identity. */
export interface ProviderConnection {
  idpConnectionId: string;
  idpUserId: string;
}

/**
 * Whether a provider sign-in is one of the connection's own: the provider and its user id as the
 * emulated provider recorded them when it created the member. Its tokens are not verified (`alg:
 * none` id_tokens, a typed email on the page), so anything looser would let anyone sign in as any
 * member by naming their email.
 */
const isSameConnection = (known: readonly ProviderConnection[], connection: ProviderConnection): boolean =>
  known.some((entry) => entry.idpConnectionId == connection.idpConnectionId && entry.idpUserId == connection.idpUserId);

/**
 * Signs a member on without a password (sign-on, identity providers), creating it when needed
 * (PENDING when the owner must approve). `verified`: the caller vouches for the email.
 */
export function signOnMember(
  context: EmulatorContext,
  actor: Actor,
  email: string,
  profile: Record<string, unknown> | undefined,
  verified: boolean,
  connection?: ProviderConnection,
): Member {
  let member = findMemberByEmail(context.store, email);
  if (member && connection && !isSameConnection(findIdentity(context.store, member.id).connections, connection))
    throw applicationError(
      403,
      'IDP_ACCOUNT_NOT_LINKED',
      `The emulated identity provider signs in only the members it created; ${email} has an account of its own (a password or another provider): sign in with that. The emulator links no accounts by email, because it cannot verify a provider's token.`,
    );
  if (!member) {
    member = insertMember(context, {
      ...memberFieldsOf(profile),
      loginEmail: email,
      loginEmailVerified: verified,
      status: context.config.get<boolean>('ownerApprovalRequired') ? 'PENDING' : 'APPROVED',
    });
    emitMemberEvent(actor, 'created', member);
    if (connection) {
      const identity = findIdentity(context.store, member.id);
      saveIdentity(context.store, { ...identity, connections: [...identity.connections, connection] });
    }
  } else if (verified && !member.loginEmailVerified) {
    member = changeMember(context, member.id, (changed) => void (changed.loginEmailVerified = true));
  }
  return member;
}

/** What registration takes (v1 and v2 bodies). */
export interface Registration {
  email: unknown;
  password: unknown;
  profile?: Record<string, unknown>;
  captchaTokens?: unknown;
}

/** Checks a registration's email: an address, and free. */
function requireFreeEmail(context: EmulatorContext, email: unknown): string {
  if (typeof email != 'string' || !email.trim())
    throw invalidField('loginId.email', 'must not be empty', 'REQUIRED_FIELD');
  if (!isEmail(email))
    throw validationError([
      {
        field: 'loginId.email',
        description: 'must be a valid email address',
        violatedRule: 'EMAIL',
        data: { type: 'EMAIL' },
      },
    ]);
  if (findMemberByEmail(context.store, email))
    throw applicationError(409, EMAIL_EXISTS, `A member with the email ${email.trim()} already exists`);
  return email.trim();
}

/**
 * Registers a member: captcha, email, password checked before anything is written; the member is
 * PENDING when the owner must approve, else APPROVED; then the state that follows.
 */
export async function register(
  context: EmulatorContext,
  registration: Registration,
  actor: Actor,
): Promise<StateMachineResponse> {
  checkCaptcha(context, registration.captchaTokens);
  requireFreeEmail(context, registration.email);
  const password = requireNewPassword(registration.password);
  const passwordHash = await hashPassword(password);
  return context.store.transaction(() => {
    // Checked again inside the transaction: another registration may have taken the email meanwhile.
    const email = requireFreeEmail(context, registration.email);
    const member = insertMember(context, {
      ...memberFieldsOf(registration.profile),
      loginEmail: email,
      status: context.config.get<boolean>('ownerApprovalRequired') ? 'PENDING' : 'APPROVED',
    });
    saveIdentity(context.store, {
      memberId: member.id,
      passwordHash,
      resetRequired: false,
      connections: [],
      revision: 1,
    });
    emitMemberEvent(actor, 'created', member);
    return nextState(context, member.id);
  });
}

/** What a password login takes. */
export interface PasswordLogin {
  email: unknown;
  password: unknown;
  captchaTokens?: unknown;
}

/** The member whose email and password these are; the platform's error otherwise. Writes nothing. */
export async function checkPassword(context: EmulatorContext, login: PasswordLogin): Promise<Member> {
  checkCaptcha(context, login.captchaTokens);
  if (typeof login.email != 'string' || !login.email.trim())
    throw invalidField('loginId.email', 'must not be empty', 'REQUIRED_FIELD');
  if (typeof login.password != 'string' || !login.password)
    throw invalidField('password', 'must not be empty', 'REQUIRED_FIELD');
  const member = findMemberByEmail(context.store, login.email);
  if (!member)
    throw applicationError(404, 'IDENTITY_NOT_FOUND', `No member signs in with the email ${login.email.trim()}`);
  const identity = findIdentity(context.store, member.id);
  if (!identity.passwordHash || identity.resetRequired)
    throw applicationError(400, RESET_PASSWORD, 'The password must be reset before signing in');
  if (!(await verifyPassword(login.password, identity.passwordHash)))
    throw applicationError(400, INVALID_PASSWORD, 'Wrong email or password');
  return member;
}

/** Logs a member in with email and password: the state that follows. */
export async function login(context: EmulatorContext, credentials: PasswordLogin): Promise<StateMachineResponse> {
  const member = await checkPassword(context, credentials);
  return context.store.transaction(() => nextState(context, member.id));
}
