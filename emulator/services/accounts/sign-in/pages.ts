/**
 * The hosted sign-in and logout pages behind a redirect session's `fullUrl`:
 * - `GET /_pages/auth/:id`: the sign-in form (or, with `prompt=none`, an answer at once from the
 *   session token or the emulator's own session cookie, else `error=login_required`);
 * - `POST /_pages/auth/:id`: sign in, register, enter the emailed code, or continue with an
 *   (emulated) identity provider;
 * - `GET /_pages/logout/:id`: signs the browser out and returns to the post-flow URL.
 * A completed sign-in answers the client's redirect URI with `code` and `state` in the fragment
 * or the query, or posts them to the opener/parent frame (`web_message`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EmulatorError } from '../../../errors.js';
import type { DomainEvent } from '../../../events.js';
import type { EmulatorContext, SiteDirectory } from '../../../service.js';
import { CAPTCHA_PASSING_TOKEN } from '../identity/captcha.js';
import {
  login,
  nextState,
  register,
  signOnMember,
  verifyCode,
  type Actor,
  type StateMachineResponse,
} from '../identity/authentication.js';
import { readSecret, spendSecret } from '../identity/secrets.js';
import { ANONYMOUS } from '../../../auth/caller.js';
import { issueAuthorizationCode } from './authorization-codes.js';
import { endBrowserSession, signedInMember, startBrowserSession } from './browser-session.js';
import { alert, escapeHtml, field, form, hidden, page, postMessagePage } from './html.js';
import { LANDING_PAGE } from './redirect-uris.js';
import { sitePath } from '../../../sites/site-path.js';
import {
  findRedirectSession,
  IDENTITY_PROVIDERS,
  saveRedirectSession,
  type AuthorizationSession,
  type HostedPageState,
} from './redirect-sessions.js';

type FormBody = Record<string, string | undefined>;

/** What a page shows besides its form: an error, and what was typed before. */
type PageState = Omit<HostedPageState, 'view'>;

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    // Never cached: every page shows the current state (and may carry a state token).
    .header('cache-control', 'no-store')
    .send(body);

/**
 * Sends the authorization response to the client: redirect with fragment or query, or a posted
 * message. Without a redirect URI: the emulator's landing page, or the asking page's origin.
 */
function answer(
  context: EmulatorContext,
  reply: FastifyReply,
  session: AuthorizationSession,
  parameters: Record<string, string>,
): FastifyReply {
  const values = { ...parameters, state: session.state };
  if (session.responseMode == 'web_message') {
    // A session without either was refused when it was created; no target means no message.
    const targetOrigin = session.redirectUri ? new URL(session.redirectUri).origin : session.messageOrigin;
    if (!targetOrigin)
      return html(reply, 400, messagePage('Cannot sign in', 'This sign-in request names no page to answer.'));
    return html(reply, 200, postMessagePage(values, targetOrigin));
  }
  const target = new URL(session.redirectUri ?? `${context.url()}${LANDING_PAGE}`);
  const encoded = new URLSearchParams(values).toString();
  if (session.responseMode == 'query') {
    for (const [name, value] of Object.entries(values)) target.searchParams.set(name, value);
  } else {
    target.hash = encoded;
  }
  return reply.code(302).header('location', target.href).header('cache-control', 'no-store').send();
}

/**
 * Signs the browser in as `memberId` and answers the client with a fresh code (a `login` session:
 * returns the browser to its post-flow URL, with no code); the session token that proved the
 * sign-in, if any, is spent in the same transaction.
 */
function complete(
  context: EmulatorContext,
  reply: FastifyReply,
  session: AuthorizationSession,
  memberId: string,
  sessionToken?: string,
): FastifyReply {
  const code = context.store.transaction(() => {
    if (sessionToken) spendSecret(context, 'session', sessionToken);
    startBrowserSession(context, reply, memberId);
    // The page is spent: Back to it shows that, never a form whose code nobody waits for.
    if (session.prompt != 'none') saveRedirectSession(context, { ...session, completed: true, page: undefined });
    return session.afterLogin ? undefined : issueAuthorizationCode(context, session, memberId);
  });
  if (session.afterLogin)
    return reply.code(302).header('location', session.afterLogin).header('cache-control', 'no-store').send();
  return answer(context, reply, session, { code: code! });
}

/** The app's start page: the origin the code goes to (nothing for the emulator's own landing page). */
function appHome(session: AuthorizationSession): string | undefined {
  const origin = session.redirectUri ? new URL(session.redirectUri).origin : session.messageOrigin;
  return origin ? `${origin}/` : undefined;
}

/** The way back to the app, under every hosted page (when the sign-in names an app). */
const backToApp = (session: AuthorizationSession): string => {
  const home = appHome(session);
  return home ? `<p class="note"><a href="${escapeHtml(home)}">Back to the app</a></p>` : '';
};

/**
 * Forgotten passwords are reset on the emulator's console (its recovery page sends the email, read
 * in the outbox, whose link sets the new password); then the person signs in here again.
 */
const FORGOT_PASSWORD = '<a href="/site/recover" target="_blank" rel="noopener">Forgot your password?</a>';

const captchaField = (context: EmulatorContext) =>
  context.config.get<boolean>('captchaRequired')
    ? `${field('captcha', 'Captcha token', 'text')}<p class="note">Captcha is required on this emulator: "${CAPTCHA_PASSING_TOKEN}" passes.</p>`
    : '';

/** The path of a sign-in session's page, under its site's path. */
const pagePath = (context: EmulatorContext, session: AuthorizationSession) =>
  `${sitePath(context)}/_pages/auth/${session.id}`;

function signInPage(context: EmulatorContext, session: AuthorizationSession, state: PageState = {}): string {
  const action = pagePath(context, session);
  const content = `${hidden('action', 'login')}${field('email', 'Email', 'email', state.email ?? '', 'autocomplete="username" required')}${field('password', 'Password', 'password', '', 'autocomplete="current-password" required')}${captchaField(context)}`;
  return page(
    'Sign in',
    `${alert(state.error, state.code)}${form(action, 'Sign in', content, 'Sign in')}<p class="note">${FORGOT_PASSWORD}</p><p class="note">New here? <a href="${action}?view=register">Create an account</a></p>${backToApp(session)}`,
  );
}

function registerPage(context: EmulatorContext, session: AuthorizationSession, state: PageState = {}): string {
  const action = pagePath(context, session);
  const content = `${hidden('action', 'register')}${field('email', 'Email', 'email', state.email ?? '', 'autocomplete="username" required')}${field('password', 'Password', 'password', '', 'autocomplete="new-password" required')}${field('nickname', 'Nickname (optional)', 'text', state.nickname ?? '')}${captchaField(context)}`;
  return page(
    'Create an account',
    `${alert(state.error, state.code)}${form(action, 'Create an account', content, 'Create account')}<p class="note">Already a member? <a href="${action}?view=sign-in">Sign in</a></p>${backToApp(session)}`,
  );
}

function verifyPage(
  context: EmulatorContext,
  session: AuthorizationSession,
  stateToken: string,
  state: PageState = {},
): string {
  const content = `${hidden('action', 'verify')}${hidden('stateToken', stateToken)}${field('code', 'Verification code', 'text', '', 'inputmode="numeric" autocomplete="one-time-code" required')}`;
  return page(
    'Check your email',
    `${alert(state.error, state.code)}<p class="note">We emailed you a code (the emulator's outbox: <code>/_emulator/outbox</code>).</p>${form(pagePath(context, session), 'Verify your email', content, 'Verify')}${backToApp(session)}`,
  );
}

function providerPage(context: EmulatorContext, session: AuthorizationSession, state: PageState = {}): string {
  const provider = IDENTITY_PROVIDERS[session.idp!]!;
  const content = `${hidden('action', 'provider')}${field('email', `${provider} account email`, 'email', state.email ?? '', 'required')}`;
  return page(
    `Continue with ${provider}`,
    `${alert(state.error, state.code)}<p class="note">An emulated ${escapeHtml(provider)} sign-in: the emulator trusts the address you enter.</p>${form(pagePath(context, session), `Continue with ${provider}`, content, 'Continue')}${backToApp(session)}`,
  );
}

const messagePage = (title: string, text: string) => page(title, `<p>${escapeHtml(text)}</p>`);

/** A 303 to the session's page: the browser GETs it, so Back and reload never resubmit a form. */
const toPage = (context: EmulatorContext, reply: FastifyReply, session: AuthorizationSession): FastifyReply =>
  reply.code(303).header('location', pagePath(context, session)).header('cache-control', 'no-store').send();

/**
 * Post-redirect-get: a submission that does not end the sign-in stores what the page shows next
 * and answers with a redirect to the page.
 */
function showNext(
  context: EmulatorContext,
  reply: FastifyReply,
  session: AuthorizationSession,
  page: HostedPageState,
): FastifyReply {
  saveRedirectSession(context, { ...session, page });
  return toPage(context, reply, session);
}

/** What the page does with a state-machine answer. */
function afterState(
  context: EmulatorContext,
  reply: FastifyReply,
  session: AuthorizationSession,
  response: StateMachineResponse,
): FastifyReply {
  switch (response.state) {
    case 'SUCCESS':
      return complete(context, reply, session, String(response.identity.id), response.sessionToken);
    case 'REQUIRE_EMAIL_VERIFICATION':
      return showNext(context, reply, session, { view: 'verify', stateToken: response.stateToken! });
    case 'REQUIRE_OWNER_APPROVAL':
      return showNext(context, reply, session, { view: 'approval' });
    default:
      return showNext(context, reply, session, { view: 'blocked' });
  }
}

/** The page a GET shows: the stored view of the last submission, with its problem (shown once). */
function storedPage(
  context: EmulatorContext,
  reply: FastifyReply,
  session: AuthorizationSession,
  requestedView: string | undefined,
): FastifyReply {
  if (session.completed)
    return html(
      reply,
      200,
      page(
        'You are signed in',
        `<p>This sign-in is complete: you are signed in.</p>${backToApp(session) || '<p class="note">You can close this page.</p>'}`,
      ),
    );
  // A link to another view (register, sign in) starts that view afresh.
  const state: HostedPageState =
    requestedView == 'register' || requestedView == 'sign-in'
      ? { view: requestedView }
      : (session.page ?? { view: session.idp ? 'provider' : 'sign-in' });
  // The problem is shown once: a reload shows the form as it is, without the old error.
  if (session.page && (session.page.error || state !== session.page)) {
    const { error: _error, code: _code, ...rest } = state;
    saveRedirectSession(context, { ...session, page: rest });
  }
  switch (state.view) {
    case 'register':
      return html(reply, 200, registerPage(context, session, state));
    case 'verify':
      return html(reply, 200, verifyPage(context, session, state.stateToken ?? '', state));
    case 'provider':
      return html(
        reply,
        200,
        session.idp ? providerPage(context, session, state) : signInPage(context, session, state),
      );
    case 'approval':
      return html(
        reply,
        200,
        page(
          'Waiting for approval',
          `<p>Your account waits for the site owner to approve it. Try again once it is approved.</p>${backToApp(session)}`,
        ),
      );
    case 'blocked':
      return html(
        reply,
        403,
        page('Cannot sign in', `<p>This account cannot sign in (it is blocked or offline).</p>${backToApp(session)}`),
      );
    default:
      return html(reply, 200, signInPage(context, session, state));
  }
}

/** The authorization session of a page URL, or an error page. */
function authSession(
  context: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
): AuthorizationSession | undefined {
  const session = findRedirectSession(context, (request.params as { id: string }).id);
  if (session?.kind == 'auth') return session;
  html(
    reply,
    404,
    messagePage(
      'Sign-in link expired',
      'This sign-in link is unknown or has expired. Go back to the site and start again.',
    ),
  );
  return undefined;
}

/** Registers the hosted pages (with a form-body parser of their own). */
export async function registerHostedPages(app: FastifyInstance, sites: SiteDirectory): Promise<void> {
  await app.register(async (pages) => {
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    pages.get('/_pages/auth/:id', async (request, reply) => {
      const context = sites.of(request);
      const session = authSession(context, request, reply);
      if (!session) return reply;
      // A HEAD (a prefetch, a link checker) must not spend a session token or issue a code.
      if (request.method == 'HEAD') return html(reply, 200, '');
      if (session.prompt == 'none') {
        if (session.sessionToken) {
          const secret = readSecret(context, 'session', session.sessionToken);
          if (typeof secret == 'string')
            return answer(context, reply, session, {
              error: 'login_required',
              error_description: `The session token ${secret == 'used' ? 'was already used' : secret == 'expired' ? 'has expired' : 'is not known'}`,
            });
          return complete(context, reply, session, secret.memberId, session.sessionToken);
        }
        const memberId = signedInMember(context, request);
        if (!memberId)
          return answer(context, reply, session, {
            error: 'login_required',
            error_description: 'No member is signed in on the emulator in this browser',
          });
        return complete(context, reply, session, memberId);
      }
      return storedPage(context, reply, session, (request.query as { view?: string }).view);
    });

    pages.post('/_pages/auth/:id', async (request, reply) => {
      const context = sites.of(request);
      const session = authSession(context, request, reply);
      if (!session) return reply;
      // The form of a spent page (an old tab): the page says the sign-in is complete.
      if (session.completed) return toPage(context, reply, session);
      const body = (request.body ?? {}) as FormBody;
      const events: DomainEvent[] = [];
      const actor: Actor = { caller: ANONYMOUS, emit: (event) => events.push(event) };
      const captchaTokens = body.captcha ? [{ Recaptcha: body.captcha }] : undefined;
      const typed: PageState = { email: body.email ?? '', nickname: body.nickname ?? '' };
      try {
        let response: StateMachineResponse;
        switch (body.action) {
          case 'register':
            response = await register(
              context,
              {
                email: body.email,
                password: body.password,
                profile: body.nickname ? { nickname: body.nickname } : undefined,
                captchaTokens,
              },
              actor,
            );
            break;
          case 'verify':
            response = context.store.transaction(() => verifyCode(context, body.stateToken, body.code));
            break;
          case 'provider':
            if (!session.idp)
              return showNext(context, reply, session, {
                view: 'sign-in',
                error: 'This sign-in does not go through an identity provider',
              });
            response = context.store.transaction(() => {
              const connection = {
                idpConnectionId: session.idp!,
                idpUserId: String(body.email ?? '')
                  .trim()
                  .toLowerCase(),
              };
              const member = signOnMember(context, actor, String(body.email ?? '').trim(), undefined, true, connection);
              return nextState(context, member.id);
            });
            break;
          default:
            response = await login(context, { email: body.email, password: body.password, captchaTokens });
        }
        // The state's own writes are committed by now: events can go out before the answer.
        if (events.length) context.events.publish(events);
        return afterState(context, reply, session, response);
      } catch (error) {
        if (!(error instanceof EmulatorError)) throw error;
        const problem: PageState = {
          ...typed,
          error: error.message,
          ...(error.body.details.applicationError ? { code: error.body.details.applicationError.code } : {}),
        };
        const view: HostedPageState['view'] =
          body.action == 'verify'
            ? 'verify'
            : body.action == 'register'
              ? 'register'
              : body.action == 'provider' && session.idp
                ? 'provider'
                : 'sign-in';
        return showNext(context, reply, session, {
          view,
          ...problem,
          ...(view == 'verify' ? { stateToken: body.stateToken ?? '' } : {}),
        });
      }
    });

    // The default landing page: the code (query or fragment) is for the app that reads the
    // redirect; the page itself only says how the sign-in ended.
    pages.get(LANDING_PAGE, async (request, reply) => {
      const { error, error_description: description } = request.query as { error?: string; error_description?: string };
      if (error) return html(reply, 200, page('Not signed in', alert(description ?? error, error)));
      return html(
        reply,
        200,
        messagePage('Signed in', 'You are signed in. You can close this page and go back to the app.'),
      );
    });

    pages.get('/_pages/logout/:id', async (request, reply) => {
      const context = sites.of(request);
      const session = findRedirectSession(context, (request.params as { id: string }).id);
      if (session?.kind != 'logout')
        return html(reply, 404, messagePage('Logout link expired', 'This logout link is unknown or has expired.'));
      context.store.transaction(() => endBrowserSession(context, request, reply));
      if (session.postFlowUrl)
        return reply.code(302).header('location', session.postFlowUrl).header('cache-control', 'no-store').send();
      return html(reply, 200, messagePage('Signed out', 'You are signed out of the site.'));
    });
  });
}
