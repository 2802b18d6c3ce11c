/**
 * The members service at its real paths (`/members/v1/members...`). A member acts on itself, an
 * elevated caller (API key) on anyone; visitors and other members see public, approved members
 * only, with the PUBLIC field set. Routes the operation table marks elevated are refused to others
 * before these handlers run. This file is the module's table; each concept has its file:
 * ./member-access.ts (who a call acts on, what it sees), ./member-changes.ts (creation, updates,
 * statuses, deletes), ./member-queries.ts (list, query, search, filter jobs), ./member-store.ts.
 */
import type { ServiceModule } from '../../../service.js';
import type { OperationCall } from '../../operation-input.js';
import { seedMembers } from './demo.js';
import { answer, callerMemberId, visibleMember } from './member-access.js';
import {
  changeMemberWithEvent,
  clearContactList,
  createMember,
  deleteMember,
  deleteMembers,
  setStatus,
  updateMember,
} from './member-changes.js';
import { emitMemberEvent } from './member-events.js';
import { forEachMatching, pageOfMembers, queryMembers } from './member-queries.js';
import { findMember, findMemberBySlug, memberMigrations, requireMember, requireSlug, setSlug } from './member-store.js';
import { memberEntities } from './entities.js';

/** The members module. */
export const membersService: ServiceModule = {
  name: 'members',
  entities: memberEntities,
  migrations: memberMigrations,
  seed: seedMembers,
  operations: {
    createMember,

    getMember(call: OperationCall<'getMember'>, context) {
      // `members/{id}` also takes a slug (the profile page's address), as the member pages look members up.
      const bySlug = findMember(context.store, call.input.id)
        ? undefined
        : findMemberBySlug(context.store, call.input.id);
      return answer(
        visibleMember(context, call.caller, bySlug?.id ?? call.input.id),
        call,
        call.input.fieldsets ?? ['PUBLIC'],
      );
    },

    getCurrentMember: (call: OperationCall<'getCurrentMember'>, context) =>
      answer(
        requireMember(context.store, callerMemberId(call.caller)),
        call,
        call.input.fieldsets ?? call.input.fieldSet ?? ['PUBLIC'],
      ),

    listMembers: (call: OperationCall<'listMembers'>, context) =>
      pageOfMembers(context, call, () => [], call.input.sorting, call.input.paging, call.input.fieldsets, 'sorting'),

    queryMembers,

    updateMember,

    updateCurrentMemberSlug: (call: OperationCall<'updateCurrentMemberSlug'>, context) => {
      const member = setSlug(context, callerMemberId(call.caller), requireSlug(call.input.slug));
      emitMemberEvent(call, 'updated', member);
      return answer(member, call);
    },
    updateMemberSlug: (call: OperationCall<'updateMemberSlug'>, context) => {
      requireMember(context.store, call.input.id);
      const member = setSlug(context, call.input.id, requireSlug(call.input.slug));
      emitMemberEvent(call, 'updated', member);
      return answer(member, call);
    },

    approveMember: (call: OperationCall<'approveMember'>, context) =>
      answer(setStatus(context, call, call.input.id, 'APPROVED'), call),
    blockMember: (call: OperationCall<'blockMember'>, context) =>
      answer(setStatus(context, call, call.input.id, 'BLOCKED'), call),
    disconnectMember: (call: OperationCall<'disconnectMember'>, context) =>
      answer(setStatus(context, call, call.input.id, 'OFFLINE'), call),
    muteMember: (call: OperationCall<'muteMember'>, context) =>
      answer(
        changeMemberWithEvent(
          context,
          call,
          requireMember(context.store, call.input.id).id,
          (member) => void (member.activityStatus = 'MUTED'),
        ),
        call,
      ),
    unmuteMember: (call: OperationCall<'unmuteMember'>, context) =>
      answer(
        changeMemberWithEvent(
          context,
          call,
          requireMember(context.store, call.input.id).id,
          (member) => void (member.activityStatus = 'ACTIVE'),
        ),
        call,
      ),

    joinCommunity: (call: OperationCall<'joinCommunity'>, context) =>
      answer(
        changeMemberWithEvent(
          context,
          call,
          callerMemberId(call.caller),
          (member) => void (member.privacyStatus = 'PUBLIC'),
        ),
        call,
      ),
    leaveCommunity: (call: OperationCall<'leaveCommunity'>, context) =>
      answer(
        changeMemberWithEvent(
          context,
          call,
          callerMemberId(call.caller),
          (member) => void (member.privacyStatus = 'PRIVATE'),
        ),
        call,
      ),

    deleteMember: (call: OperationCall<'deleteMember'>, context) => (deleteMember(context, call, call.input.id), {}),
    deleteMyMember(call: OperationCall<'deleteMyMember'>, context) {
      const memberId = callerMemberId(call.caller);
      const assignee = call.input.contentAssigneeId;
      if (assignee !== undefined && assignee != memberId) requireMember(context.store, assignee);
      deleteMember(context, call, memberId);
      return {};
    },

    bulkDeleteMembers: deleteMembers,
    bulkDeleteMembersByFilter: (call: OperationCall<'bulkDeleteMembersByFilter'>, context) =>
      forEachMatching(
        context,
        call.caller,
        call.input.filter,
        call.input.search,
        (memberId) => void deleteMember(context, call, memberId),
      ),
    bulkApproveMembers: (call: OperationCall<'bulkApproveMembers'>, context) =>
      forEachMatching(
        context,
        call.caller,
        call.input.filter,
        undefined,
        (memberId) => void setStatus(context, call, memberId, 'APPROVED'),
      ),
    bulkBlockMembers: (call: OperationCall<'bulkBlockMembers'>, context) =>
      forEachMatching(
        context,
        call.caller,
        call.input.filter,
        undefined,
        (memberId) => void setStatus(context, call, memberId, 'BLOCKED'),
      ),

    deleteMemberAddresses: clearContactList('addresses'),
    deleteMemberEmails: clearContactList('emails'),
    deleteMemberPhones: clearContactList('phones'),
  },
};
