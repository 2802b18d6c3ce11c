/**
 * Member sign-in through the demo OAuth client: redirect sessions, the hosted sign-in and logout
 * pages, authorization codes with PKCE (the `authorization_code` grant of `/oauth2/token`).
 */
import type { ServiceModule } from '../../../service.js';
import type { OperationCall } from '../../operation-input.js';
import { authorizationCodeGrant } from './authorization-codes.js';
import { registerFramingPolicy } from './framing.js';
import { registerHostedPages } from './pages.js';
import { createRedirectSession, redirectSessionMigrations } from './redirect-sessions.js';

/** The sign-in module. */
export const signInService: ServiceModule = {
  name: 'sign-in',
  migrations: redirectSessionMigrations,
  config: {
    allowedRedirectOrigins: {
      default: [],
      description:
        'Origins (e.g. "https://app.example") the demo OAuth client may redirect to, besides localhost, 127.0.0.1, [::1] (any port) and the emulator itself.',
      check: (value) =>
        (value as string[]).every(
          (origin) => URL.canParse(origin) && new URL(origin).origin == origin.replace(/\/+$/, ''),
        )
          ? undefined
          : 'must be a list of origins like "https://app.example"',
    },
  },
  anonymousOperations: ['createRedirectSession'],
  operations: {
    createRedirectSession(call: OperationCall<'createRedirectSession'>, context) {
      const answer = createRedirectSession(context, call.input, call.request);
      // A member's logout (the client sends its token with the request, then drops it) ends that
      // token session: its refresh token and access tokens stop working at once.
      if (call.input.logout && call.caller.kind == 'member' && call.caller.sessionId)
        context.tokens.revokeSession(call.caller.sessionId);
      return answer;
    },
  },
  start(context) {
    context.tokens.registerGrant('authorization_code', authorizationCodeGrant);
    return undefined;
  },
  async routes(app, sites) {
    registerFramingPolicy(app, sites);
    await registerHostedPages(app, sites);
  },
};
