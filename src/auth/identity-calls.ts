/**
 * The official identity and redirect-session calls (`@wix/identity`'s authentication, recovery and
 * verification modules, `@wix/redirects`), under their official names and argument orders, on
 * `client.auth`: ported code that called them on the official client calls them here unchanged.
 * They resolve the services' answers in public form (`identity._id`, dates as `Date`), as the
 * official ones do. Loaded with the sign-in flows (./sign-in.ts), the feature they belong to.
 */
import { createRedirectSession } from '../../generated/operations/createRedirectSession.js';
import { login } from '../../generated/operations/login.js';
import { recover } from '../../generated/operations/recover.js';
import { register } from '../../generated/operations/register.js';
import { sendActivationEmail } from '../../generated/operations/sendActivationEmail.js';
import { sendRecoveryEmail } from '../../generated/operations/sendRecoveryEmail.js';
import { signOn } from '../../generated/operations/signOn.js';
import { startVerification } from '../../generated/operations/startVerification.js';
import { verify } from '../../generated/operations/verify.js';
import type * as M from '../../generated/models.js';
import type { Transport } from '../http/transport.js';
import { optionsObject, requireObject, requireString } from '../input.js';
import { sendPublic } from '../invoke.js';
import type { Operation } from '../operation.js';
import type { CallOptions } from '../types.js';

/** Options of `registerV2`: everything of the request but the login ID. */
export type RegisterV2Options = Omit<M.RegisterRequest, 'loginId'> & CallOptions;
/** Options of `loginV2`: everything of the request but the login ID. */
export type LoginV2Options = Omit<M.LoginRequest, 'loginId'> & CallOptions;
/** Options of `signOn`: everything of the request but the login ID. */
export type SignOnOptions = Omit<M.SignOnRequest, 'loginId'> & CallOptions;

/** `client.auth.verification`: the official verification module's calls. */
export interface VerificationCalls {
  /** Starts verifying an identity's email (`{identityId, target: 'EMAIL'}`); a code is emailed. */
  start(options?: M.StartVerificationRequest & CallOptions): Promise<M.StartVerificationResponse>;
  /** Sends the emailed code of a sign-in that requires verification, with its `stateToken`. */
  verifyDuringAuthentication(
    code: string,
    options: { stateToken: string } & CallOptions,
  ): Promise<M.StateMachineResponse>;
}

/** The official identity and redirect-session calls on `client.auth`. */
export interface IdentityCalls {
  /** Registers an identity (`@wix/identity` authentication.registerV2): the service's state, not a login outcome. */
  registerV2(loginId: M.LoginId, options?: RegisterV2Options): Promise<M.StateMachineResponse>;
  /** Logs an identity in (`@wix/identity` authentication.loginV2): the service's state, not a login outcome. */
  loginV2(loginId: M.LoginId, options?: LoginV2Options): Promise<M.StateMachineResponse>;
  /** Signs a member on without a password, creating it when needed: a session token (API-key clients). */
  signOn(loginId: M.LoginId, options?: SignOnOptions): Promise<M.SignOnResponse>;
  /** Emails a password-recovery link (`redirect: {url, clientId}` says where it leads). */
  sendRecoveryEmail(email: string, options?: Omit<M.SendRecoveryEmailRequest, 'email'> & CallOptions): Promise<void>;
  /** Emails an activation link to an identity without a password. */
  sendActivationEmail(
    identityId: string,
    options?: Omit<M.SendActivationEmailRequest, 'identityId'> & CallOptions,
  ): Promise<void>;
  /** Sets a new password (`options.password`) with the token of a recovery link: the service's state. */
  recover(recoveryToken: string, options?: { password?: string } & CallOptions): Promise<M.StateMachineResponse>;
  /** The official verification module's calls. */
  readonly verification: VerificationCalls;
  /** Sends the emailed code of a sign-in that requires verification (also `verification.verifyDuringAuthentication`). */
  verifyDuringAuthentication: VerificationCalls['verifyDuringAuthentication'];
  /** Creates a redirect session to a hosted page (`auth`, `login` or `logout`): its `fullUrl` and `shortUrl`. */
  createRedirectSession(options?: M.RedirectSessionRequest & CallOptions): Promise<M.RedirectSessionResponse>;
}

/** The calls over the strategy's transport. */
export function identityCalls(transport: Transport): IdentityCalls {
  /** Sends `operation` with `request` (public form) merged over the caller's options. */
  const call = <T>(operation: Operation, request: Record<string, unknown>, options?: unknown): Promise<T> =>
    sendPublic(transport, operation, request, optionsObject(options, 'options', operation.id)) as Promise<T>;
  /** The login ID argument, checked: an object naming the email. */
  const loginIdOf = (loginId: unknown, method: string) => {
    requireString(requireObject(loginId, 'loginId', method).email, 'loginId.email', method);
    return loginId as M.LoginId;
  };
  const verifyDuringAuthentication: VerificationCalls['verifyDuringAuthentication'] = (code, options) =>
    call(verify, { code: requireString(code, 'code', 'verifyDuringAuthentication') }, options);
  return {
    registerV2: (loginId, options) => call(register, { loginId: loginIdOf(loginId, 'registerV2') }, options),
    loginV2: (loginId, options) => call(login, { loginId: loginIdOf(loginId, 'loginV2') }, options),
    signOn: (loginId, options) => call(signOn, { loginId: loginIdOf(loginId, 'signOn') }, options),
    sendRecoveryEmail: async (email, options) =>
      void (await call(sendRecoveryEmail, { email: requireString(email, 'email', 'sendRecoveryEmail') }, options)),
    sendActivationEmail: async (identityId, options) =>
      void (await call(
        sendActivationEmail,
        { identityId: requireString(identityId, 'identityId', 'sendActivationEmail') },
        options,
      )),
    recover: (recoveryToken, options) =>
      call(recover, { recoveryToken: requireString(recoveryToken, 'recoveryToken', 'recover') }, options),
    verification: { start: (options) => call(startVerification, {}, options), verifyDuringAuthentication },
    verifyDuringAuthentication,
    createRedirectSession: (options) => call(createRedirectSession, {}, options),
  };
}
