/**
 * The direct sign-in state machine: login, registration, email verification, the recovery email
 * and password change. Loaded by OAuthStrategy on first use of any of these (sign-in pages need it; most page
 * loads do not).
 */
import { changePassword } from '../../generated/operations/changePassword.js';
import { login } from '../../generated/operations/login.js';
import { register } from '../../generated/operations/register.js';
import { resendVerification } from '../../generated/operations/resendVerification.js';
import { sendRecoveryEmail } from '../../generated/operations/sendRecoveryEmail.js';
import { verify } from '../../generated/operations/verify.js';
import { AuthError, isSiteKitError, isValidationError, type SiteKitError } from '../errors/index.js';
import type { Operation } from '../operation.js';
import type { CallOptions } from '../types.js';
import { toWire } from '../wire/index.js';
import type { OAuthAuth } from './oauth-auth.js';
import type { CaptchaTokens, LoginErrorCode, LoginFailure, RegisterParams, StateMachine } from './types.js';

/** The methods of `client.auth` that this module implements. */
export type SignInFlows = Pick<
  OAuthAuth,
  'login' | 'register' | 'processVerification' | 'resendVerificationCode' | 'sendPasswordResetEmail' | 'changePassword'
>;

/** The answer of the login, registration, verification and recovery endpoints (read defensively). */
interface StateAnswer {
  state?: string;
  sessionToken?: string;
  stateToken?: string;
  identity?: { status?: { name?: unknown } };
}

/** A field violation of a refused registration, as the service details it. */
interface Violation {
  description?: string;
  violatedRule?: string;
  data?: { type?: string };
}

const VERIFICATION_REQUIRED = 'EMAIL_VERIFICATION_REQUIRED';
const UNKNOWN_STATE = 'Unknown _state';
const INVALID_EMAIL = 'invalidEmail';

/** A FAILURE outcome. */
const failure = (error: string, errorCode?: LoginFailure['errorCode']): StateMachine => ({
  loginState: 'FAILURE',
  error,
  ...(errorCode && { errorCode }),
});

/**
 * The specification's FAILURE for a state it does not name, carrying what the server said (its
 * state, e.g. `STATUS_CHECK` for a blocked account, and the identity's status) so an app can tell
 * a blocked or pending account from a wrong password.
 */
const unknownState = (serverState: unknown, identityStatus: unknown): StateMachine => ({
  ...failure(UNKNOWN_STATE, typeof serverState === 'string' && serverState ? serverState : undefined),
  ...(typeof identityStatus === 'string' && identityStatus && { identityStatus }),
});

// Maps, not object literals: a server code such as `toString` must not find Object.prototype.
const CAPTCHA_CODES: [string, LoginErrorCode][] = [
  ['-19971', 'missingCaptchaToken'],
  ['-19970', 'invalidCaptchaToken'],
];
const LOGIN_CODES = new Map<string, LoginErrorCode>([
  ...CAPTCHA_CODES,
  ['-19976', 'invalidPassword'],
  ['-19973', 'resetPassword'],
]);
const REGISTER_CODES = new Map<string, LoginErrorCode>([...CAPTCHA_CODES, ['-19995', 'emailAlreadyExists']]);

/** Captcha answers as the service takes them: `[{Recaptcha}]` and/or `[{InvisibleRecaptcha}]`; none when there are none. */
function captchaAnswers(tokens: CaptchaTokens = {}): object[] | undefined {
  const visible = tokens.recaptcha ?? tokens.recaptchaToken;
  const invisible = tokens.invisibleRecaptcha ?? tokens.invisibleRecaptchaToken;
  const answers = [
    ...(visible ? [{ Recaptcha: visible }] : []),
    ...(invisible ? [{ InvisibleRecaptcha: invisible }] : []),
  ];
  return answers.length > 0 ? answers : undefined;
}

/** What login and registration differ in: their operation, their error codes, and whether a refused email is reported as such. */
interface SignInKind {
  readonly operation: Operation;
  readonly codes: ReadonlyMap<string, LoginErrorCode>;
  readonly registration: boolean;
}

const LOGIN: SignInKind = { operation: login, codes: LOGIN_CODES, registration: false };
const REGISTRATION: SignInKind = { operation: register, codes: REGISTER_CODES, registration: true };

/** The server's own words for a refusal: the violations when there are any, else its message; never our request-id suffix or operation prefix. */
function refusalMessage(error: SiteKitError & { description?: string; operation?: string }): string {
  const details = error.details as { message?: unknown } | undefined;
  const serverMessage = typeof details?.message === 'string' && details.message ? details.message : undefined;
  const message =
    isValidationError(error) && error.violations.length > 0
      ? error.message
      : (serverMessage ?? error.description ?? error.message);
  return message.replace(/ \(request id: [^)]*\)$/, '').replace(`${error.operation}: `, '');
}

/**
 * The sign-in methods over the strategy's `send`. `state.flow` is the last outcome, shared with the
 * strategy so `processVerification` continues from it.
 */
export function signInFlows(
  send: (operation: Operation, body: object, options?: CallOptions) => Promise<unknown>,
  clientId: string,
  state: { flow: StateMachine },
): SignInFlows {
  /** The outcome of a state-machine answer; remembered for `processVerification`. */
  const outcome = (answer: unknown): StateMachine => {
    const { state: next, sessionToken, stateToken, identity } = (answer ?? {}) as StateAnswer;
    return (state.flow =
      next === 'SUCCESS'
        ? { loginState: 'SUCCESS', data: { sessionToken: sessionToken! } }
        : next === 'REQUIRE_OWNER_APPROVAL'
          ? { loginState: 'OWNER_APPROVAL_REQUIRED' }
          : next === 'REQUIRE_EMAIL_VERIFICATION'
            ? { loginState: VERIFICATION_REQUIRED, data: { stateToken: stateToken! } }
            : unknownState(next, identity?.status?.name));
  };

  /**
   * Login and registration. A refusal by the service (4xx) is a FAILURE outcome with the error
   * codes of the specification; a transport failure (network, time-out, 5xx) is thrown.
   */
  const signIn = async (kind: SignInKind, params: RegisterParams): Promise<StateMachine> => {
    const { email, password, captchaTokens, profile, ...call } = (params ?? {}) as RegisterParams;
    const body = toWire(
      { loginId: { email }, password, profile, captchaTokens: captchaAnswers(captchaTokens ?? undefined) },
      kind.operation.request,
    ) as object;
    try {
      return outcome(await send(kind.operation, body, call));
    } catch (error) {
      if (!isSiteKitError(error) || !error.status || error.status >= 500) throw error;
      const message = refusalMessage(error);
      const violations = (
        error.details as { details?: { validationError?: { fieldViolations?: Violation[] } } } | undefined
      )?.details?.validationError?.fieldViolations;
      // A registration rejected for its email (a violation of rule or type EMAIL) says why.
      const emailViolation =
        kind.registration && Array.isArray(violations)
          ? violations.find((violation) => violation?.violatedRule === 'EMAIL' || violation?.data?.type === 'EMAIL')
          : undefined;
      if (emailViolation) return (state.flow = failure(String(emailViolation.description ?? message), INVALID_EMAIL));
      return (state.flow = failure(
        message,
        kind.codes.get(error.code) ?? (kind.registration ? undefined : INVALID_EMAIL),
      ));
    }
  };

  /** The verification step in progress: the given state, else the last outcome. */
  const pendingVerification = (given?: StateMachine) => {
    const current = given ?? state.flow;
    return current.loginState === VERIFICATION_REQUIRED ? current : undefined;
  };

  return {
    login: (params) => signIn(LOGIN, params),
    register: (params) => signIn(REGISTRATION, params),
    processVerification: async (inputs, given, call) => {
      const pending = pendingVerification(given);
      if (!pending) return failure(UNKNOWN_STATE);
      return outcome(
        await send(
          verify,
          { code: inputs?.verificationCode ?? inputs?.code, stateToken: pending.data.stateToken },
          call,
        ),
      );
    },
    resendVerificationCode: async (given, call) => {
      const pending = pendingVerification(given);
      if (!pending) throw new AuthError(UNKNOWN_STATE, { code: 'UNKNOWN_STATE' });
      await send(resendVerification, { stateToken: pending.data.stateToken }, call);
    },
    sendPasswordResetEmail: async (email, redirectUri, call) =>
      void (await send(sendRecoveryEmail, { email, redirect: { url: redirectUri, clientId } }, call)),
    changePassword: async (newPassword, call) => void (await send(changePassword, { newPassword }, call)),
  };
}
