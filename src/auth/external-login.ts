/**
 * External login: member tokens that a trusted server obtains with its API key, for a member ID
 * (`getMemberTokensForExternalLogin`) or for a login email, signed on first and bound to the new
 * session (`getMemberTokensForExternalLoginWithSession`). Servers only, so loaded on first use.
 * Both send `Authorization: <visitor access token>,<API key>`; the tokens are returned, not stored.
 */
import { signOn } from '../../generated/operations/signOn.js';
import type * as M from '../../generated/models.js';
import type { CallSettings, Transport } from '../http/transport.js';
import { optionsObject, requireString } from '../input.js';
import { send } from '../invoke.js';
import type { CallOptions } from '../types.js';
import { toWire } from '../wire/index.js';
import type { SignOnOptions } from './identity-calls.js';
import type { TokenLifecycle } from './token-lifecycle.js';
import type { Tokens } from './types.js';

/** The external logins of one OAuth client, over its token lifecycle. */
export function externalLogins(tokens: TokenLifecycle, transport: () => Transport) {
  /** The call's settings with the visitor's access token and the API key beside it. */
  const withApiKey = async (apiKey: unknown, call: CallOptions | undefined, method: string): Promise<CallSettings> => ({
    ...call,
    headers: {
      Authorization: `${(await tokens.usable()).accessToken.value},${requireString(apiKey, 'apiKey', method)}`,
    },
  });
  return {
    async forMember(memberId: string, apiKey: string, call?: CallOptions): Promise<Tokens> {
      const body = { grant_type: 'authorized_client', scope: 'offline_access', member_id: memberId };
      return (await tokens.grant(body, 'member', await withApiKey(apiKey, call, 'getMemberTokensForExternalLogin')))
        .tokens;
    },
    async withSession(email: string, apiKey: string, options?: SignOnOptions): Promise<Tokens> {
      const { signal, timeoutMs, ...rest } = optionsObject(options, 'options', 'signOn') as SignOnOptions;
      const method = 'getMemberTokensForExternalLoginWithSession';
      // The sign-on runs with the API key beside the visitor's token; so does the grant of its session.
      const call = await withApiKey(apiKey, { signal, timeoutMs }, method);
      const loginId = { email: requireString(email, 'email', method) };
      const request = toWire({ ...rest, loginId }, signOn.request) as object;
      const { sessionToken, identity } = (await send(transport(), signOn, request, call)) as M.SignOnResponse;
      const body = { grant_type: 'authorized_client', member_id: identity?._id, session_token: sessionToken };
      return (await tokens.grant(body, 'member', call)).tokens;
    },
  };
}
