/**
 * `useAuth()`: the sign-in state of the provider's client, read with `useSyncExternalStore` (every
 * subscriber re-renders on a token change; a server render gets the stored tokens and never
 * throws), and the sign-in actions with their pending and error states.
 */
import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import {
  AuthError,
  isSiteKitError,
  type CallOptions,
  type LoginParams,
  type OAuthAuth,
  type RegisterParams,
  type SilentOptions,
  type SiteKitError,
  type StateMachine,
  type Tokens,
} from '../index.js';
import { authStore, requireOAuth, type AuthSnapshot } from './auth-store.js';
import { useSiteKitContext, type SiteKitContextValue } from './context.js';
import {
  finishRedirectLogin,
  startRedirectLogin,
  type LoginWithRedirectOptions,
  type RedirectCallbackOptions,
  type RedirectCallbackResult,
} from './redirect.js';

/** The names of the actions of {@link useAuth}, as `pending` reports them. */
export type AuthAction =
  | 'login'
  | 'register'
  | 'processVerification'
  | 'loginWithRedirect'
  | 'handleRedirectCallback'
  | 'signInSilently'
  | 'logout';

/** Options of `logout`. */
export interface LogoutOptions extends CallOptions {
  /** Where the hosted logout page sends the user back to. Default: the current page. */
  originalUrl?: string;
  /**
   * Whether to go to the hosted logout page (ending the session on the site's domain too). Default
   * `true`; with `false` only the tokens are cleared and `logoutUrl` is returned.
   */
  redirect?: boolean;
}

/** What {@link useAuth} returns: the sign-in state, the actions, and how the last action went. */
export interface AuthState extends AuthSnapshot {
  /** The action running now (the latest one started), or `null`. */
  pending: AuthAction | null;
  /**
   * Why the latest action failed, or `null`: a thrown error, or for a FAILURE outcome of
   * login/register/verification an `AuthError` with code `LOGIN_FAILURE` and the server's words.
   */
  error: SiteKitError | null;
  /**
   * Signs in with email and password; on SUCCESS also turns the session into member tokens, so
   * the member is signed in when it resolves. Other outcomes (verification, captcha, approval,
   * FAILURE) are returned as they are.
   */
  login(params: LoginParams, options?: SilentOptions): Promise<StateMachine>;
  /** Registers a member; on SUCCESS signs them in, like `login`. */
  register(params: RegisterParams, options?: SilentOptions): Promise<StateMachine>;
  /** Sends the emailed code of an `EMAIL_VERIFICATION_REQUIRED` outcome; on SUCCESS signs in, like `login`. */
  processVerification(inputs: { verificationCode: string }, options?: SilentOptions): Promise<StateMachine>;
  /**
   * Leaves for the hosted sign-in page (PKCE), keeping the OAuth data in session storage until
   * `handleRedirectCallback` runs on `redirectUri`.
   */
  loginWithRedirect(redirectUri: string, options?: LoginWithRedirectOptions): Promise<void>;
  /**
   * On the page at `redirectUri`: exchanges the returned code for member tokens (stored by the
   * client) and resolves with them and the page the sign-in started from. Runs once per return
   * URL, so calling it from an effect is safe under StrictMode.
   */
  handleRedirectCallback(options?: RedirectCallbackOptions): Promise<RedirectCallbackResult>;
  /** Signs in a member who already has a session on the site's domain, without a visible redirect. */
  signInSilently(options?: SilentOptions): Promise<Tokens>;
  /** Clears the tokens and (by default) goes to the hosted logout page. */
  logout(options?: LogoutOptions): Promise<{ logoutUrl: string }>;
}

/** The last action's pending and error state of one component. */
interface ActionStatus {
  pending: AuthAction | null;
  error: SiteKitError | null;
}

const IDLE: ActionStatus = { pending: null, error: null };

/** The error an action leaves in `error`: the SDK's errors as they are, anything else as an AuthError. */
const asSiteKitError = (action: AuthAction, e: unknown): SiteKitError =>
  isSiteKitError(e)
    ? e
    : new AuthError(`${action} failed: ${(e as Error)?.message ?? String(e)}`, {
        code: 'AUTH_ACTION_FAILED',
        cause: e,
      });

/** A FAILURE outcome as the `error` it leaves; `null` for the other outcomes. */
const failureOf = (outcome: StateMachine): SiteKitError | null =>
  outcome.loginState === 'FAILURE' ? new AuthError(outcome.error, { code: 'LOGIN_FAILURE', details: outcome }) : null;

/**
 * The sign-in state of the provider's client and its actions. The client must use `OAuthStrategy`.
 *
 * @example
 * ```tsx
 * function Account() {
 *   const { loggedIn, login, logout, pending, error } = useAuth();
 *   if (loggedIn) return <button onClick={() => logout()}>Sign out</button>;
 *   return (
 *     <form onSubmit={(e) => { e.preventDefault(); void login({ email, password }).catch(() => {}); }}>
 *       ...
 *       <button disabled={pending === 'login'}>Sign in</button>
 *       {error && <p role="alert">{error.message}</p>}
 *     </form>
 *   );
 * }
 * ```
 */
export function useAuth(): AuthState {
  const context = useSiteKitContext('useAuth');
  const auth = requireOAuth(context.client.auth, 'useAuth');
  const store = authStore(auth);
  // The same reader on the server: the stored tokens (e.g. from a cookie), or none.
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const [status, setStatus] = useState<ActionStatus>(IDLE);
  const latest = useRef(0);
  const actions = useMemo(() => authActions(auth, context, setStatus, latest), [auth, context]);
  return { ...snapshot, ...status, ...actions };
}

type Actions = Omit<AuthState, keyof AuthSnapshot | keyof ActionStatus>;

function authActions(
  auth: OAuthAuth,
  context: SiteKitContextValue,
  setStatus: (status: ActionStatus) => void,
  latest: { current: number },
): Actions {
  /** Runs an action, reporting it in `pending` and its failure in `error` (only the latest action reports). */
  const run = async <T>(
    action: AuthAction,
    work: () => Promise<T>,
    errorOf: (result: T) => SiteKitError | null = () => null,
  ): Promise<T> => {
    const id = ++latest.current;
    setStatus({ pending: action, error: null });
    try {
      const result = await work();
      if (id === latest.current) setStatus({ pending: null, error: errorOf(result) });
      return result;
    } catch (e) {
      const error = asSiteKitError(action, e);
      if (id === latest.current) setStatus({ pending: null, error });
      throw error;
    }
  };
  /** After a SUCCESS outcome, the session token becomes member tokens before the action resolves. */
  const signIn = (action: AuthAction, start: () => Promise<StateMachine>, options?: SilentOptions) =>
    run(
      action,
      async () => {
        const outcome = await start();
        if (outcome.loginState === 'SUCCESS')
          await auth.getMemberTokensForDirectLogin(outcome.data.sessionToken, options);
        return outcome;
      },
      failureOf,
    );
  return {
    login: (params, options) => signIn('login', () => auth.login(params), options),
    register: (params, options) => signIn('register', () => auth.register(params), options),
    processVerification: (inputs, options) =>
      signIn('processVerification', () => auth.processVerification(inputs), options),
    loginWithRedirect: (redirectUri, options) =>
      run('loginWithRedirect', () =>
        startRedirectLogin(auth, context.oauthDataStorage(), context.navigate, redirectUri, options),
      ),
    handleRedirectCallback: (options) =>
      run('handleRedirectCallback', () => finishRedirectLogin(auth, context.oauthDataStorage(), options)),
    signInSilently: (options) => run('signInSilently', () => auth.getMemberTokensSilently(options)),
    logout: ({ originalUrl = globalThis.location?.href ?? '', redirect = true, ...call } = {}) =>
      run('logout', async () => {
        const result = await auth.logout(originalUrl, call);
        if (redirect) context.navigate(result.logoutUrl);
        return result;
      }),
  };
}
