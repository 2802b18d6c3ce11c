/**
 * The identity services at their real paths (`/_api/iam/authentication|recovery|verification`):
 * registration and login (v1 and v2 bodies), sign-on, the state machine, email verification,
 * password recovery and activation, change password, logout, identity-provider login. Emails
 * go to the outbox. The sign-in switches are settings of `/_emulator/config`.
 */
import { decodeJwt } from 'jose';
import { applicationError, invalidField, permissionDenied } from '../../../errors.js';
import type { EmulatorContext, ServiceModule } from '../../../service.js';
import { emitMemberEvent } from '../members/member-events.js';
import type { OperationCall, OperationInput } from '../../operation-input.js';
import {
  changeMember,
  findMember,
  findMemberByEmail,
  isEmail,
  requireMember,
  type Member,
} from '../members/member-store.js';
import { sendEmail, type EmailKind } from '../../outbox.js';
import { endBrowserSession } from '../sign-in/browser-session.js';
import { requireAllowedRedirect } from '../sign-in/redirect-uris.js';
import {
  emailVerificationCode,
  login,
  nextState,
  pendingState,
  register,
  requireSecret,
  requireState,
  signOnMember,
  startSession,
  verifyCode,
  type StateMachineResponse,
} from './authentication.js';
import { CAPTCHA_FAILING_TOKEN, CAPTCHA_PASSING_TOKEN } from './captcha.js';
import { findIdentity, identityMigrations, saveIdentity, wireIdentity } from './identity-store.js';
import { hashPassword, requireNewPassword } from './passwords.js';
import { issueSecret, revokeSecrets, secretMigrations, spendSecret, updateSecretData } from './secrets.js';
import { identityEntities } from './entities.js';

/** How long a recovery or activation link works. */
const RECOVERY_SECONDS = 60 * 60;

/** Emails a recovery (or activation) link for `member`, leading to `redirectUrl` or the console's reset page. */
function emailRecoveryLink(context: EmulatorContext, member: Member, redirectUrl: unknown, kind: EmailKind): void {
  const target = new URL(
    typeof redirectUrl == 'string' && redirectUrl
      ? requireAllowedRedirect(context, redirectUrl, 'redirect.url')
      : `${context.url()}/site/reset-password`,
  );
  target.searchParams.set('recoveryToken', issueSecret(context, 'recovery', member.id, RECOVERY_SECONDS));
  const activation = kind == 'account-activation';
  sendEmail(context, {
    to: member.loginEmail!,
    subject: activation ? 'Activate your account' : 'Reset your password',
    text: `${activation ? 'Set a password to activate your account' : 'Someone asked to reset the password of this account. If it was you, set a new one'}: ${target.href}\nThe link works once, for one hour.`,
    kind,
    link: target.href,
  });
}

/**
 * After a password change or reset: every other way in that the old password opened ends (token
 * sessions, browser sessions on the hosted pages, session tokens not yet exchanged, codes, recovery
 * links), so whoever knew the old password is signed out. `keepSessionId` is the token session
 * that changed it, which stays signed in.
 */
function endOtherSessions(context: EmulatorContext, memberId: string, keepSessionId?: string): void {
  revokeSecrets(context, memberId, ['session', 'recovery', 'authorization-code', 'browser-session']);
  context.tokens.revokeMemberSessions(memberId, keepSessionId);
}

/** Email of a login body: `loginId.email` (v2) or `identifier.email` (v1; a v2 body is a v1 body without `identifier`). */
const loginEmailOf = (input: OperationInput<'loginV1'>): unknown => input.loginId?.email ?? input.identifier?.email;

/** The email an identity provider's token parameters vouch for (`email`, or the `email` claim of `id_token`). */
function providerEmail(tokenParams: OperationInput<'loginWithTokenParams'>['tokenParams']): {
  email: string;
  subject: string;
} {
  let claims: Record<string, unknown> = {};
  if (typeof tokenParams.id_token == 'string') {
    try {
      claims = decodeJwt(tokenParams.id_token);
    } catch {
      throw invalidField('tokenParams.id_token', 'is not a JWT', 'FORMAT');
    }
  }
  const email = claims.email ?? tokenParams.email;
  if (!isEmail(email))
    throw invalidField(
      'tokenParams',
      'must carry the email (an id_token with an email claim, or email)',
      'REQUIRED_FIELD',
    );
  return { email, subject: String(claims.sub ?? email) };
}

/** Registration, v1 and v2 (same body). */
const registerCall = (call: OperationCall<'register' | 'registerV1'>, context: EmulatorContext) =>
  register(
    context,
    {
      email: call.input.loginId?.email,
      password: call.input.password,
      profile: call.input.profile,
      captchaTokens: call.input.captchaTokens,
    },
    call,
  );

/** Login, v1 (`identifier` or `loginId`) and v2 (`loginId`). */
const loginCall = (call: OperationCall<'login' | 'loginV1'>, context: EmulatorContext) =>
  login(context, {
    email: loginEmailOf(call.input),
    password: call.input.password,
    captchaTokens: call.input.captchaTokens,
  });

/** The identity module. */
export const identityService: ServiceModule = {
  name: 'identity',
  entities: identityEntities,
  migrations: [...secretMigrations, ...identityMigrations],
  config: {
    emailVerificationRequired: {
      default: false,
      description: 'New members confirm their email with a code (read it from the outbox) before signing in.',
    },
    ownerApprovalRequired: {
      default: false,
      description: 'New members stay PENDING until the site owner approves them (members/approve).',
    },
    captchaRequired: {
      default: false,
      description: `Login and registration need a captcha token: "${CAPTCHA_PASSING_TOKEN}" passes, any other (e.g. "${CAPTCHA_FAILING_TOKEN}") is refused with -19970, none with -19971.`,
    },
  },
  anonymousOperations: [
    'register',
    'registerV1',
    'login',
    'loginV1',
    'proceedToNextState',
    'verify',
    'resendVerification',
    'sendRecoveryEmail',
    'recover',
    'logout',
    'loginWithTokenParams',
  ],
  operations: {
    register: { manageTransactions: true, handle: registerCall },
    registerV1: { manageTransactions: true, handle: registerCall },
    login: { manageTransactions: true, handle: loginCall },
    loginV1: { manageTransactions: true, handle: loginCall },

    signOn(call: OperationCall<'signOn'>, context) {
      if (call.caller.kind != 'elevated') throw permissionDenied('signOn requires an elevated client (an API key)');
      const email = call.input.loginId?.email;
      if (!isEmail(email)) throw invalidField('loginId.email', 'must be a valid email address', 'EMAIL');
      const member = signOnMember(context, call, email.trim(), call.input.profile, call.input.verifyEmail === true);
      if (member.status != 'APPROVED')
        throw applicationError(403, 'MEMBER_NOT_ACTIVE', `Member ${member.id} is ${member.status} and cannot sign in`);
      const sessionToken = startSession(context, member.id);
      const identity = wireIdentity(
        requireMember(context.store, member.id),
        findIdentity(context.store, member.id),
        context.config.get('emailVerificationRequired'),
      );
      return { identity, sessionToken };
    },

    proceedToNextState(call: OperationCall<'proceedToNextState'>, context): StateMachineResponse {
      const pending = requireState(context, call.input.stateToken);
      const member = requireMember(context.store, pending.memberId);
      const waiting =
        pending.data.step == 'EMAIL_VERIFICATION' ? !member.loginEmailVerified : member.status == 'PENDING';
      if (waiting) {
        const identity = wireIdentity(
          member,
          findIdentity(context.store, member.id),
          context.config.get('emailVerificationRequired'),
        );
        return {
          identity,
          state: pending.data.step == 'EMAIL_VERIFICATION' ? 'REQUIRE_EMAIL_VERIFICATION' : 'REQUIRE_OWNER_APPROVAL',
          stateToken: call.input.stateToken,
        };
      }
      spendSecret(context, 'state', call.input.stateToken);
      return nextState(context, member.id);
    },

    startVerification(call: OperationCall<'startVerification'>, context) {
      const memberId = call.input.identityId;
      if (!(call.caller.kind == 'elevated' || call.caller.memberId == memberId))
        throw permissionDenied('Only the member itself or an elevated client can start a verification');
      const member = requireMember(context.store, memberId);
      if (!member.loginEmail) throw invalidField('identityId', 'names a member without a login email');
      return { verificationId: pendingState(context, member, 'EMAIL_VERIFICATION') };
    },

    verify: (call: OperationCall<'verify'>, context) => verifyCode(context, call.input.stateToken, call.input.code),

    resendVerification(call: OperationCall<'resendVerification'>, context) {
      const pending = requireState(context, call.input.stateToken, 'EMAIL_VERIFICATION');
      const codeHash = emailVerificationCode(context, requireMember(context.store, pending.memberId));
      updateSecretData(context, 'state', call.input.stateToken, { ...pending.data, codeHash });
      return {};
    },

    sendRecoveryEmail(call: OperationCall<'sendRecoveryEmail'>, context) {
      const email = call.input.email;
      if (!isEmail(email)) throw invalidField('email', 'must be a valid email address', 'EMAIL');
      const redirectUrl = call.input.redirect?.url;
      if (typeof redirectUrl == 'string' && redirectUrl) requireAllowedRedirect(context, redirectUrl, 'redirect.url');
      // An unknown address gets the same answer: the endpoint must not tell who has an account.
      const member = findMemberByEmail(context.store, email);
      if (member) emailRecoveryLink(context, member, redirectUrl, 'password-recovery');
      return {};
    },

    sendActivationEmail(call: OperationCall<'sendActivationEmail'>, context) {
      if (call.caller.kind != 'elevated')
        throw permissionDenied('sendActivationEmail requires an elevated client (an API key)');
      const member = requireMember(context.store, call.input.identityId);
      if (!member.loginEmail) throw invalidField('identityId', 'names a member without a login email');
      emailRecoveryLink(context, member, call.input.emailOptions?.redirect?.url, 'account-activation');
      return {};
    },

    recover: {
      manageTransactions: true,
      async handle(call: OperationCall<'recover'>, context) {
        const password = requireNewPassword(call.input.password);
        const check = () =>
          requireSecret(context, 'recovery', call.input.recoveryToken, 'INVALID_RECOVERY_TOKEN', 'recovery token');
        check();
        const passwordHash = await hashPassword(password);
        return context.store.transaction(() => {
          const recovery = check();
          spendSecret(context, 'recovery', call.input.recoveryToken);
          endOtherSessions(context, recovery.memberId);
          saveIdentity(context.store, {
            ...findIdentity(context.store, recovery.memberId),
            passwordHash,
            resetRequired: false,
          });
          // Following the emailed link proves the address.
          const member = changeMember(
            context,
            recovery.memberId,
            (changed) => void (changed.loginEmailVerified = true),
          );
          emitMemberEvent(call, 'updated', member);
          return nextState(context, member.id);
        });
      },
    },

    changePassword: {
      manageTransactions: true,
      async handle(call: OperationCall<'changePassword'>, context) {
        const memberId = call.caller.memberId;
        if (call.caller.kind != 'member' || !memberId)
          throw permissionDenied('changePassword needs a signed-in member');
        const passwordHash = await hashPassword(requireNewPassword(call.input.newPassword, 'newPassword'));
        context.store.transaction(() => {
          if (!findMember(context.store, memberId))
            throw applicationError(404, 'MEMBER_NOT_FOUND', `Member ${memberId} not found`);
          saveIdentity(context.store, { ...findIdentity(context.store, memberId), passwordHash, resetRequired: false });
          endOtherSessions(context, memberId, call.caller.sessionId);
        });
        return {};
      },
    },

    logout(call: OperationCall<'logout'>, context) {
      const target = call.input.postLogoutRedirectUri;
      if (typeof target == 'string' && target) requireAllowedRedirect(context, target, 'postLogoutRedirectUri');
      endBrowserSession(context, call.request, call.reply);
      if (call.caller.kind == 'member' && call.caller.sessionId) context.tokens.revokeSession(call.caller.sessionId);
      if (typeof target == 'string' && target) call.reply.code(302).header('location', target);
      return {};
    },

    loginWithTokenParams(call: OperationCall<'loginWithTokenParams'>, context): StateMachineResponse {
      const connectionId = call.input.idpConnectionId;
      if (typeof connectionId != 'string' || !connectionId)
        throw invalidField('idpConnectionId', 'must not be empty', 'REQUIRED_FIELD');
      const { email, subject } = providerEmail(call.input.tokenParams ?? {});
      // The provider vouches for the address, so it counts as verified.
      const member = signOnMember(context, call, email, undefined, true, {
        idpConnectionId: connectionId,
        idpUserId: subject,
      });
      return nextState(context, member.id);
    },
  },
};
