/**
 * `POST /oauth2/token`: the anonymous (visitor), refresh-token and authorized-client grants.
 * Part 2 registers `authorization_code` through `context.tokens.registerGrant`.
 */
import { randomUUID } from 'node:crypto';
import { invalidField, permissionDenied } from '../../errors.js';
import { invalidGrant } from '../../auth/tokens.js';
import { atLeast } from '../../config.js';
import type { EmulatorContext, Grant, ServiceModule, TokenSubject } from '../../service.js';
import { requireSecret } from './identity/authentication.js';
import { spendSecret } from './identity/secrets.js';
import { findMember, memberNotFound } from './members/member-store.js';
import type { OperationCall } from '../operation-input.js';

/** Reads a string field of the token request, camelCase or snake_case (real clients send both). */
export const tokenField = (input: Record<string, unknown>, camel: string, snake: string): string | undefined => {
  const value = input[camel] ?? input[snake];
  return typeof value == 'string' && value ? value : undefined;
};

/** The client id of a token request, which must name a client of the site. */
export function requireClient(input: Record<string, unknown>, context: EmulatorContext): string {
  const clientId = tokenField(input, 'clientId', 'client_id');
  if (!clientId) throw invalidField('clientId', 'must not be empty', 'REQUIRED_FIELD');
  if (clientId != context.site.clientId) throw invalidGrant(`Unknown OAuth client ${clientId}`);
  return clientId;
}

const anonymous: Grant = (input, _call, context) => ({
  kind: 'visitor',
  visitorId: randomUUID(),
  clientId: requireClient(input, context),
});

const refresh: Grant = (input, _call, context) => {
  const clientId = requireClient(input, context);
  const refreshToken = tokenField(input, 'refreshToken', 'refresh_token');
  if (!refreshToken) throw invalidField('refreshToken', 'must not be empty', 'REQUIRED_FIELD');
  return context.tokens.useRefreshToken(refreshToken, clientId);
};

// External login: a trusted backend (holding the API key) signs a member in by id; with the
// `session_token` of a sign-on of that member, the tokens belong to that session (which is spent).
const authorizedClient: Grant = (input, call, context) => {
  if (call.caller.kind != 'elevated')
    throw permissionDenied('The authorized_client grant needs the API key in the Authorization header');
  const memberId = tokenField(input, 'memberId', 'member_id');
  if (!memberId) throw invalidField('member_id', 'must not be empty', 'REQUIRED_FIELD');
  const sessionToken = tokenField(input, 'sessionToken', 'session_token');
  if (sessionToken) {
    const session = requireSecret(context, 'session', sessionToken, 'INVALID_SESSION_TOKEN', 'session token');
    if (session.memberId != memberId)
      throw invalidGrant(`The session token belongs to another member than ${memberId}`);
    spendSecret(context, 'session', sessionToken);
  }
  // Only a member who could sign in themselves gets tokens: not an unknown, blocked or pending one.
  const member = findMember(context.store, memberId);
  if (!member) throw memberNotFound(memberId);
  if (member.status != 'APPROVED')
    throw invalidGrant(`Member ${memberId} cannot sign in: its status is ${member.status}`);
  const subject: TokenSubject = {
    kind: 'member',
    visitorId: randomUUID(),
    memberId,
    clientId: tokenField(input, 'clientId', 'client_id') ?? context.site.clientId,
  };
  return subject;
};

/** The token endpoint and the token lifetime setting. */
export const oauthService: ServiceModule = {
  name: 'oauth',
  anonymousOperations: ['token'],
  config: {
    tokenLifetimeSeconds: {
      default: 14_400,
      description: 'Lifetime of access tokens, in seconds (expires_in).',
      check: atLeast(1),
    },
  },
  start(context) {
    // A member holds tokens while it may sign in: approved, and still there.
    context.tokens.registerMemberStanding((memberId) => {
      const member = findMember(context.store, memberId);
      if (!member) return 'the member no longer exists';
      return member.status == 'APPROVED' ? undefined : `the member is ${member.status}`;
    });
    context.tokens.registerGrant('anonymous', anonymous);
    context.tokens.registerGrant('refresh_token', refresh);
    context.tokens.registerGrant('authorized_client', authorizedClient);
    // Nothing to stop: the grants go with the site's token service.
    return undefined;
  },
  operations: {
    token: {
      manageTransactions: true,
      async handle(call: OperationCall<'token'>, context) {
        // One of the four grant bodies (the schema's oneOf); grants read their fields by either spelling.
        const input: Record<string, unknown> = call.input;
        const grantType = tokenField(input, 'grantType', 'grant_type');
        if (!grantType) throw invalidField('grantType', 'must not be empty', 'REQUIRED_FIELD');
        const grant = context.tokens.grant(grantType);
        if (!grant) throw invalidField('grantType', `unsupported grant type ${grantType}`, 'INVALID_ENUM_VALUE');
        const subject = await grant(input, call, context);
        return context.tokens.issue(subject);
      },
    },
  },
};
