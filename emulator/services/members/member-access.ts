/** Ending a member's ways back in, for every change that must sign it out (block, delete, re-declaration). */
import type { EmulatorContext } from '../../service.js';
import { revokeSecrets } from '../identity/secrets.js';

/**
 * Ends a member's ways back in: sessions, codes, pending sign-ins and its token sessions (refresh
 * tokens and the access tokens issued with them stop working at once).
 */
export function revokeAccess(context: EmulatorContext, memberId: string): void {
  revokeSecrets(context, memberId, ['session', 'state', 'recovery', 'authorization-code', 'browser-session']);
  context.tokens.revokeMemberSessions(memberId);
}
