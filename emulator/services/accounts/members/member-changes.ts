/**
 * Changes to members, each with its `member_updated`, `member_created` or `member_deleted` event:
 * creation, updates (a deep merge of the parts a caller may edit), statuses, deletes.
 */
import { EmulatorError, applicationError, invalidField, permissionDenied } from '../../../errors.js';
import type { components } from '../../../../generated/wire.js';
import type { Caller, EmulatorContext, ServiceCall } from '../../../service.js';
import { checkStoredValue, isRecord, ownValue } from '../../../untrusted-json.js';
import { deleteIdentity } from '../identity/identity-store.js';
import type { OperationCall } from '../../operation-input.js';
import { answer, revokeAccess, visibleMember } from './member-access.js';
import { emitMemberEvent } from './member-events.js';
import {
  actsOn,
  changeMember,
  findMemberByEmail,
  insertMember,
  isEmail,
  requireMember,
  requireSlug,
  setSlug,
  type Member,
} from './member-store.js';

type MemberChange = components['schemas']['Member'];

/** Deletes a member and its identity; returns the deleted member. */
export function deleteMember(context: EmulatorContext, call: ServiceCall<unknown>, memberId: string): Member {
  const member = requireMember(context.store, memberId);
  context.store.run('DELETE FROM members WHERE id = ?', [memberId]);
  deleteIdentity(context.store, memberId);
  revokeAccess(context, memberId);
  emitMemberEvent(call, 'deleted', member);
  return member;
}

/**
 * Deep merge of objects (arrays and values replaced), for partial updates. The change's keys were
 * checked (`checkStoredValue`), and only own properties of the target are merged into.
 */
function merge(target: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const result = { ...target };
  for (const [key, value] of Object.entries(change)) {
    const current = ownValue(result, key);
    result[key] = isRecord(value) && isRecord(current) ? merge(current, value) : value;
  }
  return result;
}

/** A member's stored JSON is level 1, so its contact and profile objects sit at level 2. */
const MEMBER_PART_DEPTH = 2;

/** Applies an update body to a member: the member edits its contact, profile and privacy; elevated callers also the login email. */
export function applyUpdate(context: EmulatorContext, caller: Caller, member: Member, change: MemberChange): void {
  if (change.contact !== undefined) {
    if (!isRecord(change.contact)) throw invalidField('member.contact', 'must be an object');
    checkStoredValue(change.contact, 'member.contact', MEMBER_PART_DEPTH);
    member.contact = merge(member.contact, change.contact);
  }
  if (change.profile !== undefined) {
    if (!isRecord(change.profile)) throw invalidField('member.profile', 'must be an object');
    checkStoredValue(change.profile, 'member.profile', MEMBER_PART_DEPTH);
    const { slug, ...profile } = change.profile;
    if (slug !== undefined && slug !== member.profile.slug)
      throw invalidField(
        'member.profile.slug',
        'is changed with the slug calls (members/{id}/slug, members/my/slug)',
        'FIELD_NOT_ALLOWED',
      );
    member.profile = merge(member.profile, profile) as Member['profile'];
  }
  if (change.privacyStatus !== undefined) {
    if (change.privacyStatus != 'PUBLIC' && change.privacyStatus != 'PRIVATE')
      throw invalidField('member.privacyStatus', 'must be PUBLIC or PRIVATE', 'INVALID_ENUM_VALUE');
    member.privacyStatus = change.privacyStatus;
  }
  if (change.loginEmail !== undefined && change.loginEmail !== member.loginEmail) {
    if (caller.kind != 'elevated') throw permissionDenied('Only an elevated client can change a login email');
    if (!isEmail(change.loginEmail)) throw invalidField('member.loginEmail', 'must be a valid email address', 'EMAIL');
    const holder = findMemberByEmail(context.store, change.loginEmail);
    if (holder && holder.id != member.id)
      throw applicationError(409, 'EMAIL_ALREADY_EXISTS', `Another member signs in with ${change.loginEmail}`);
    member.loginEmail = change.loginEmail.trim().toLowerCase();
    member.loginEmailVerified = false;
  }
}

/** Sets a member's status (approve, block, disconnect); emits `member_updated` when it changed. */
export function setStatus(
  context: EmulatorContext,
  call: ServiceCall<unknown>,
  memberId: string,
  status: Member['status'],
): Member {
  const before = requireMember(context.store, memberId);
  if (before.status == status) return before;
  const member = changeMember(context, memberId, (changed) => void (changed.status = status));
  if (status != 'APPROVED') revokeAccess(context, memberId);
  emitMemberEvent(call, 'updated', member);
  return member;
}

/** Changes one thing of a member and emits `member_updated`. */
export function changeMemberWithEvent(
  context: EmulatorContext,
  call: ServiceCall<unknown>,
  memberId: string,
  change: (member: Member) => void,
): Member {
  const member = changeMember(context, memberId, change);
  emitMemberEvent(call, 'updated', member);
  return member;
}

/** The handler that removes one list of a member's contact (`addresses`, `emails` or `phones`) and answers the member. */
export const clearContactList =
  (list: 'addresses' | 'emails' | 'phones') => (call: ServiceCall<{ id: string }>, context: EmulatorContext) =>
    answer(
      changeMemberWithEvent(
        context,
        call,
        requireMember(context.store, call.input.id).id,
        (member) => void delete member.contact[list],
      ),
      call,
    );

/** `createMember`: an approved member with the given email (unique), contact, profile and slug. */
export function createMember(call: OperationCall<'createMember'>, context: EmulatorContext) {
  const input = call.input.member ?? {};
  if (!input.loginEmail) throw invalidField('member.loginEmail', 'must not be empty', 'REQUIRED_FIELD');
  if (!isEmail(input.loginEmail)) throw invalidField('member.loginEmail', 'must be a valid email address', 'EMAIL');
  if (findMemberByEmail(context.store, input.loginEmail))
    throw applicationError(409, 'EMAIL_ALREADY_EXISTS', `A member with the email ${input.loginEmail} already exists`);
  // A given slug is set apart: checked and applied once the member exists (insertMember derives one).
  const { slug, ...profile } = input.profile ?? {};
  const member = insertMember(context, {
    loginEmail: input.loginEmail,
    status: 'APPROVED',
    contact: isRecord(input.contact) ? input.contact : {},
    profile,
    privacyStatus: input.privacyStatus == 'PRIVATE' ? 'PRIVATE' : 'PUBLIC',
  });
  const saved = slug !== undefined ? setSlug(context, member.id, requireSlug(slug, 'member.profile.slug')) : member;
  emitMemberEvent(call, 'created', saved);
  return answer(saved, call);
}

/** `bulkDeleteMembers`: up to 100 ids, each deleted or reported failed on its own. */
export function deleteMembers(call: OperationCall<'bulkDeleteMembers'>, context: EmulatorContext) {
  const ids: unknown[] = call.input.memberIds ?? [];
  if (ids.length > 100) throw invalidField('memberIds', 'must hold at most 100 ids', 'MAX_ITEMS');
  const results = ids.map((memberId, originalIndex) => {
    try {
      deleteMember(context, call, String(memberId));
      return { itemMetadata: { id: String(memberId), originalIndex, success: true } };
    } catch (error) {
      const failure = error instanceof EmulatorError ? error.body.details.applicationError : undefined;
      if (!failure) throw error;
      return { itemMetadata: { id: String(memberId), originalIndex, success: false, error: failure } };
    }
  });
  const successes = results.filter((result) => result.itemMetadata.success).length;
  return {
    results,
    bulkActionMetadata: {
      totalSuccesses: successes,
      totalFailures: results.length - successes,
      undetailedFailures: 0,
    },
  };
}

/** `updateMember`: a member updates itself, an elevated caller anyone (./member-changes.ts `applyUpdate`). */
export function updateMember(call: OperationCall<'updateMember'>, context: EmulatorContext) {
  const change = call.input.member ?? {};
  const memberId = change.id;
  if (typeof memberId != 'string' || !memberId) throw invalidField('member.id', 'must not be empty', 'REQUIRED_FIELD');
  if (!actsOn(call.caller, memberId)) {
    // Hidden members stay hidden: 404 rather than telling that they exist.
    visibleMember(context, call.caller, memberId);
    throw permissionDenied('A member can update only itself');
  }
  requireMember(context.store, memberId);
  return answer(
    changeMemberWithEvent(context, call, memberId, (member) => applyUpdate(context, call.caller, member, change)),
    call,
  );
}
