/**
 * Authorization codes and the `authorization_code` grant of `POST /oauth2/token`: a code works
 * once, within minutes, for the client and redirect URI it was issued to, and only with the PKCE
 * verifier whose S256 challenge the redirect session carried. A refused exchange spends nothing.
 */
import { createHash, randomUUID } from 'node:crypto';
import { invalidField } from '../../../errors.js';
import { invalidGrant } from '../../../auth/tokens.js';
import type { Grant } from '../../../service.js';
import type { EmulatorContext } from '../../../service.js';
import { readSecret, spendSecret, issueSecret } from '../identity/secrets.js';
import { findMember } from '../members/member-store.js';
import { requireClient, tokenField } from '../oauth.js';
import type { AuthorizationSession } from './redirect-sessions.js';

/** How long a code can be exchanged. */
const CODE_SECONDS = 5 * 60;

/** What a code remembers of its authorization request. */
interface CodeBinding {
  clientId: string;
  /** Absent when the authorization request named none: the exchange must then name none either. */
  redirectUri?: string;
  codeChallenge: string;
}

/** A code for `memberId`, bound to the session's client, redirect URI and PKCE challenge. */
export function issueAuthorizationCode(
  context: EmulatorContext,
  session: AuthorizationSession,
  memberId: string,
): string {
  const binding: CodeBinding = {
    clientId: session.clientId,
    ...(session.redirectUri ? { redirectUri: session.redirectUri } : {}),
    codeChallenge: session.codeChallenge,
  };
  return issueSecret(context, 'authorization-code', memberId, CODE_SECONDS, binding);
}

const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The S256 challenge of a verifier (RFC 7636). */
const challengeOf = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** The `authorization_code` grant. */
export const authorizationCodeGrant: Grant = (input, call, context) => {
  const clientId = requireClient(input, context);
  // Stryker disable all: the request schema of the grant already refuses a missing, empty or
  // malformed code or verifier (400 naming the field) before this runs: these checks keep the grant
  // safe on its own, and no request can tell them apart from their mutants ('code' is both names).
  const code = tokenField(input, 'code', 'code');
  if (!code) throw invalidField('code', 'must not be empty', 'REQUIRED_FIELD');
  const verifier = tokenField(input, 'codeVerifier', 'code_verifier');
  if (!verifier) throw invalidField('codeVerifier', 'must not be empty', 'REQUIRED_FIELD');
  if (!VERIFIER_PATTERN.test(verifier))
    throw invalidField('codeVerifier', 'must be 43 to 128 characters of letters, digits and - . _ ~', 'FORMAT');
  // Stryker restore all
  // An empty redirect URI is no redirect URI, on both sides.
  const redirectUri = tokenField(input, 'redirectUri', 'redirect_uri') || undefined;
  if (readSecret(context, 'authorization-code', code) == 'used') {
    // A replayed code may have been stolen: the tokens issued for it end too (RFC 6749 4.1.2).
    // Outside the transaction below, whose refusal would roll the revocation back.
    context.tokens.revokeCodeSessions(code);
    throw invalidGrant('This authorization code was already used; codes work once (its tokens are now revoked)');
  }
  return context.store.transaction(() => {
    const found = readSecret<CodeBinding>(context, 'authorization-code', code);
    if (found == 'unknown') throw invalidGrant('Unknown authorization code');
    // Stryker disable next-line all: checked just above, in the same synchronous turn (SQLite has no concurrent writer).
    if (found == 'used') throw invalidGrant('This authorization code was already used; codes work once');
    if (found == 'expired') throw invalidGrant('The authorization code has expired');
    // Stryker disable next-line all: requireClient accepts only the site's client, the only one a code is issued to.
    if (found.data.clientId != clientId) throw invalidGrant('The authorization code was issued to another client');
    if ((found.data.redirectUri || undefined) != redirectUri)
      throw invalidGrant('The redirect URI differs from the one of the authorization request');
    if (challengeOf(verifier) != found.data.codeChallenge)
      throw invalidGrant('The code verifier does not match the code challenge (PKCE)');
    // Stryker disable all: every way a member stops being approved (block, delete, an import) also
    // revokes its codes, which are refused above as used: this guard is reached by no request.
    if (findMember(context.store, found.memberId)?.status != 'APPROVED')
      throw invalidGrant('The member can no longer sign in');
    // Stryker restore all
    spendSecret(context, 'authorization-code', code);
    // A visitor who signs in keeps their visitor id.
    return {
      kind: 'member',
      visitorId: call.caller.visitorId ?? randomUUID(),
      memberId: found.memberId,
      clientId,
      authorizationCode: code,
    };
  });
};
