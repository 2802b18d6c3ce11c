/**
 * The direct sign-in state machine: login, registration, email verification, recovery and password
 * change. Loaded by OAuthStrategy on first use of any of these (sign-in pages need it; most page
 * loads do not).
 */
import * as ops from '../../generated/operations.js';
import type { CallOptions } from '../types.js';
import type { Operation } from '../operation.js';
import { toWire } from '../wire/index.js';
import { fail } from './fail.js';
import type { OAuthAuth } from './oauth.js';
import type { CaptchaTokens, LoginErrorCode, RegisterParams, StateMachine } from './types.js';

/** Wire JSON read defensively (every field optional-chained). */
type Json = any;

/** The methods of `client.auth` that this module implements. */
export type SignInFlows = Pick<OAuthAuth, 'login' | 'register' | 'processVerification' | 'resendVerificationCode' | 'sendPasswordResetEmail' | 'recover' | 'changePassword'>;

const VERIFY = 'EMAIL_VERIFICATION_REQUIRED';
const UNKNOWN = 'Unknown _state';
const INVALID_EMAIL = 'invalidEmail';
const failure = (error: string, errorCode?: LoginErrorCode): StateMachine => ({ loginState: 'FAILURE', error, ...(errorCode && { errorCode }) });
// Maps, not object literals: a server code such as `toString` must not find Object.prototype.
const CAPTCHA_CODES: [string, LoginErrorCode][] = [['-19971', 'missingCaptchaToken'], ['-19970', 'invalidCaptchaToken']];
const LOGIN_CODES = new Map<string, LoginErrorCode>([...CAPTCHA_CODES, ['-19976', 'invalidPassword'], ['-19973', 'resetPassword']]);
const REGISTER_CODES = new Map<string, LoginErrorCode>([...CAPTCHA_CODES, ['-19995', 'emailAlreadyExists']]);

/** Captcha answers as the service takes them: `[{Recaptcha}]` and/or `[{InvisibleRecaptcha}]`. */
const captcha = (c: CaptchaTokens = {}, list = [{ Recaptcha: c.recaptcha ?? c.recaptchaToken }, { InvisibleRecaptcha: c.invisibleRecaptcha ?? c.invisibleRecaptchaToken }].filter((t) => Object.values(t)[0])) =>
  list[0] && list;

/**
 * The sign-in methods over the strategy's `send`. `state.flow` is the last outcome, shared with the
 * strategy so `processVerification` continues from it.
 */
export function signInFlows(send: (op: Operation, body: object, c?: CallOptions) => Promise<Json>, clientId: string, state: { flow: StateMachine }): SignInFlows {
  /** The outcome of a state-machine answer; remembered for `processVerification`. */
  const outcome = (r: Json): StateMachine => {
    const s = r?.state;
    return (state.flow =
      s === 'SUCCESS'
        ? { loginState: s, data: { sessionToken: r.sessionToken } }
        : s === 'REQUIRE_OWNER_APPROVAL'
          ? { loginState: 'OWNER_APPROVAL_REQUIRED' }
          : s === 'REQUIRE_EMAIL_VERIFICATION'
            ? { loginState: VERIFY, data: { stateToken: r.stateToken } }
            : failure(UNKNOWN));
  };

  /**
   * Login and registration. A refusal by the service (4xx) is a FAILURE outcome with the error
   * codes of the specification; a transport failure (network, time-out, 5xx) is thrown.
   */
  const signIn = async (op: Operation, params: RegisterParams, codes: Map<string, LoginErrorCode>, register?: 1): Promise<StateMachine> => {
    const { email, password, captchaTokens, profile, ...c } = (params ?? {}) as RegisterParams;
    return send(op, toWire({ loginId: { email }, password, profile, captchaTokens: captcha(captchaTokens ?? undefined) }, op.request) as object, c).then(outcome, (e) => {
      const { status, code, details } = e;
      if (!status || status >= 500) throw e;
      // The violations when there are any, else the server's own words; never our request-id
      // suffix or status line.
      const own = typeof details?.message == 'string' && details.message;
      const message: string = (e.violations?.length ? e.message : own || e.description || e.message).replace(/ \(request id: [^)]*\)$/, '').replace(`${e.operation}: `, '');
      const violations = details?.details?.validationError?.fieldViolations;
      // A registration rejected for its email (a violation of rule or type EMAIL) says why.
      const email = register && Array.isArray(violations) && violations.find((v) => v?.violatedRule === 'EMAIL' || v?.data?.type === 'EMAIL');
      return (state.flow = email ? failure(String(email.description ?? message), INVALID_EMAIL) : failure(message, codes.get(code) ?? (register ? undefined : INVALID_EMAIL)));
    });
  };

  return {
    login: (params) => signIn(ops.login, params, LOGIN_CODES),
    register: (params) => signIn(ops.register, params, REGISTER_CODES, 1),
    processVerification: async (inputs, s, c) =>
      (s ??= state.flow).loginState == VERIFY ? outcome(await send(ops.verify, { code: inputs?.verificationCode ?? inputs?.code, stateToken: s.data!.stateToken }, c)) : failure(UNKNOWN),
    resendVerificationCode: async (s, c) => {
      if ((s ??= state.flow).loginState != VERIFY) throw fail(UNKNOWN);
      await send(ops.resendVerification, { stateToken: s.data!.stateToken }, c);
    },
    sendPasswordResetEmail: async (email, redirectUri, c) => void (await send(ops.sendRecoveryEmail, { email, redirect: { url: redirectUri, clientId } }, c)),
    recover: (recoveryToken, password, c) => send(ops.recover, { recoveryToken, password }, c).then(outcome),
    changePassword: async (newPassword, c) => void (await send(ops.changePassword, { newPassword }, c)),
  };
}
