/**
 * Who a members call acts on and what it may see: the caller's own member, members visible to
 * others (public, approved), a member shaped for the caller, and access ended for a member.
 */
import { permissionDenied } from '../../../errors.js';
import type { Caller, EmulatorContext, ServiceCall } from '../../../service.js';
import { revokeSecrets } from '../identity/secrets.js';
import {
  actsOn,
  isVisibleToOthers,
  memberNotFound,
  requireMember,
  shapeMember,
  widestFieldset,
  type Member,
} from './member-store.js';

/** The member a member-only route acts on: the caller's own. */
export function callerMemberId(caller: Caller): string {
  if (caller.kind != 'member' || !caller.memberId) throw permissionDenied('This call needs a signed-in member');
  return caller.memberId;
}

/** A member the caller may see: itself, anyone for elevated callers, else public approved members (else 404). */
export function visibleMember(context: EmulatorContext, caller: Caller, memberId: string): Member {
  const member = requireMember(context.store, memberId);
  if (!actsOn(caller, memberId) && !isVisibleToOthers(member)) throw memberNotFound(memberId);
  return member;
}

/**
 * The answer of a call that returns a member: the member in the widest field set asked for, as the
 * caller may see it. A contact in it has its lists, empty ones too, as the official types promise
 * of these answers (`member.contact.phones.length` works); listings leave empty lists out, as the
 * platform does.
 */
export const answer = (member: Member, call: ServiceCall<unknown>, fieldsets: unknown = ['FULL']) => {
  const shaped = shapeMember(member, widestFieldset(fieldsets), call.caller);
  const contact = shaped.contact as Record<string, unknown> | undefined;
  return { member: contact ? { ...shaped, contact: { phones: [], emails: [], addresses: [], ...contact } } : shaped };
};

/**
 * Ends a member's ways back in: sessions, codes, pending sign-ins and its token sessions (refresh
 * tokens and the access tokens issued with them stop working at once). For blocked, disconnected
 * and deleted members, and members an import or a seed re-declares.
 */
export function revokeAccess(context: EmulatorContext, memberId: string): void {
  revokeSecrets(context, memberId, ['session', 'state', 'recovery', 'authorization-code', 'browser-session']);
  context.tokens.revokeMemberSessions(memberId);
}
