/**
 * The members service at its real paths (`/members/v1/members...`). A member acts on itself, an
 * elevated caller (API key) on anyone; visitors and other members see public, approved members
 * only, with the PUBLIC field set. Routes the operation table marks elevated are refused to others
 * before these handlers run.
 */
import { randomUUID } from 'node:crypto';
import { applicationError, EmulatorError, invalidField, permissionDenied } from '../../errors.js';
import type { components } from '../../../generated/wire.js';
import type { Caller, EmulatorContext, ServiceCall, ServiceModule } from '../../service.js';
import { filterToSql, type FieldRule, type SqlFragment } from '../data/items/filter-sql.js';
import { jsonPath } from '../data/items/json-path.js';
import { readingStoredJson } from '../data/items/readable-json.js';
import { orderBy, type Sorting } from '../data/items/paging-sql.js';
import { pageOffset, pageSize } from '../data/paging.js';
import { deleteIdentity } from '../identity/identity-store.js';
import { revokeSecrets } from '../identity/secrets.js';
import type { OperationCall } from '../operation-input.js';
import { checkStoredValue, isRecord, ownValue } from '../../untrusted-json.js';
import { seedMembers } from './demo.js';
import { emitMemberEvent } from './member-events.js';
import {
  MEMBER_JSON,
  actsOn,
  changeMember,
  findMember,
  findMemberByEmail,
  findMemberBySlug,
  insertMember,
  isEmail,
  isPublicMemberField,
  isVisibleToOthers,
  memberMigrations,
  memberNotFound,
  requireMember,
  requireSlug,
  setSlug,
  shapeMember,
  widestFieldset,
  type Member,
} from './member-store.js';

type MemberChange = components['schemas']['Member'];
type MemberSearch = components['schemas']['MemberSearch'];
type OffsetPaging = components['schemas']['Paging'];

/** The member a member-only route acts on: the caller's own. */
function callerMemberId(caller: Caller): string {
  if (caller.kind != 'member' || !caller.memberId) throw permissionDenied('This call needs a signed-in member');
  return caller.memberId;
}

/** A member the caller may see: itself, anyone for elevated callers, else public approved members (else 404). */
function visibleMember(context: EmulatorContext, caller: Caller, memberId: string): Member {
  const member = requireMember(context.store, memberId);
  if (!actsOn(caller, memberId) && !isVisibleToOthers(member)) throw memberNotFound(memberId);
  return member;
}

const answer = (member: Member, call: ServiceCall<unknown>, fieldsets: unknown = ['FULL']) => ({
  member: shapeMember(member, widestFieldset(fieldsets), call.caller),
});

/** The handler that removes one list of a member's contact (`addresses`, `emails` or `phones`) and answers the member. */
const clearContactList =
  (list: 'addresses' | 'emails' | 'phones') => (call: ServiceCall<{ id: string }>, context: EmulatorContext) =>
    answer(
      update(
        context,
        call,
        requireMember(context.store, call.input.id).id,
        (member) => void delete member.contact[list],
      ),
      call,
    );

/**
 * Ends a member's ways back in: sessions, codes, pending sign-ins and its token sessions (refresh
 * tokens and the access tokens issued with them stop working at once). For blocked, disconnected
 * and deleted members.
 */
function revokeAccess(context: EmulatorContext, memberId: string): void {
  revokeSecrets(context, memberId, ['session', 'state', 'recovery', 'authorization-code', 'browser-session']);
  context.tokens.revokeMemberSessions(memberId);
}

/** Deletes a member and its identity; returns the deleted member. */
function deleteMember(context: EmulatorContext, call: ServiceCall<unknown>, memberId: string): Member {
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
function applyUpdate(context: EmulatorContext, caller: Caller, member: Member, change: MemberChange): void {
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

/** SQL that keeps the members a caller may list (member JSON in `data`): all for elevated callers, else public approved ones. */
function visibilitySql(caller: Caller, data: string): SqlFragment {
  if (caller.kind == 'elevated') return { sql: '1', params: [] };
  return {
    sql: `(json_extract(${data}, '$.privacyStatus') = 'PUBLIC' AND json_extract(${data}, '$.status') = 'APPROVED')${caller.memberId ? ' OR id = ?' : ''}`,
    params: caller.memberId ? [caller.memberId] : [],
  };
}

const SEARCHABLE = new Set([
  'loginEmail',
  'contact.firstName',
  'contact.lastName',
  'profile.title',
  'profile.nickname',
  'profile.slug',
]);

/**
 * The fields a caller may filter, sort and search members on: those of the field set it may read
 * of other members. Elevated callers read every field; anyone else reads other members' PUBLIC set
 * only, so a filter on `loginEmail` (even `$startsWith`, one letter at a time) would tell what it
 * may not read. Its own member does not widen this: the condition runs over every visible member.
 */
function queryableFields(caller: Caller): FieldRule | undefined {
  if (caller.kind == 'elevated') return undefined;
  return (fieldName, requestField) => {
    if (!isPublicMemberField(fieldName))
      throw invalidField(
        requestField,
        `${fieldName} is not in the PUBLIC field set, the only one this caller may read of other members`,
        'FIELD_NOT_ALLOWED',
      );
  };
}

/** SQL of a free-text search (case-insensitive, over `profile.nickname` unless fields are named) over the member JSON in `data`. */
function searchSql(search: MemberSearch | undefined, fieldRule: FieldRule | undefined, data: string): SqlFragment {
  const expression = search?.expression;
  if (typeof expression != 'string' || !expression.trim()) return { sql: '1', params: [] };
  const fields: string[] =
    Array.isArray(search!.fields) && search!.fields.length ? search!.fields : ['profile.nickname'];
  fields.forEach((name, index) => {
    if (!SEARCHABLE.has(name))
      throw invalidField(
        `search.fields.${index}`,
        `must be one of ${[...SEARCHABLE].join(', ')}`,
        'INVALID_ENUM_VALUE',
      );
    fieldRule?.(name, `search.fields.${index}`);
  });
  const pattern = `%${expression
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return {
    sql: fields.map(() => `unicode_lower(json_extract(${data}, ?)) LIKE ? ESCAPE '\\'`).join(' OR '),
    params: fields.flatMap((name, index) => [jsonPath(name, `search.fields.${index}`), pattern]),
  };
}

/**
 * Members matching `where` (conditions over the member JSON in the column it is given), sorted
 * and paged, shaped for the caller; with `metadata`.
 */
function pageOfMembers(
  context: EmulatorContext,
  call: ServiceCall<unknown>,
  where: (data: string) => SqlFragment[],
  sort: Sorting[] | undefined,
  paging: OffsetPaging | undefined,
  fieldsets: unknown,
  sortField: string,
) {
  const limit = pageSize(paging?.limit);
  const offset = pageOffset(paging?.offset);
  const { rows, total } = readingStoredJson(MEMBER_JSON, (data) => {
    const condition = [visibilitySql(call.caller, data), ...where(data)];
    const whereSql = condition.map((part) => `(${part.sql})`).join(' AND ');
    const params = condition.flatMap((part) => part.params);
    const order = orderBy(sort, data, sortField, queryableFields(call.caller));
    const orderSql = order.sql ? `${order.sql}, created_at DESC, id` : 'created_at DESC, id';
    return {
      rows: context.store.all<{ data: string }>(
        `SELECT data FROM members WHERE ${whereSql} ORDER BY ${orderSql} LIMIT ? OFFSET ?`,
        [...params, ...order.params, limit, offset],
      ),
      total: context.store.get<{ total: number }>(`SELECT count(*) AS total FROM members WHERE ${whereSql}`, params)!
        .total,
    };
  });
  const fieldset = widestFieldset(fieldsets);
  const members = rows.map((row) => shapeMember(JSON.parse(row.data) as Member, fieldset, call.caller));
  return { members, metadata: { count: members.length, offset, total, tooManyToCount: false } };
}

/** Runs `action` on every member matching a filter (a "job" that is done before the answer). */
function forEachMatching(
  context: EmulatorContext,
  caller: Caller,
  filter: unknown,
  search: MemberSearch | undefined,
  action: (memberId: string) => void,
): { jobId: string } {
  const fieldRule = queryableFields(caller);
  const rows = readingStoredJson(MEMBER_JSON, (data) => {
    const where = [filterToSql(filter, data, 'filter', fieldRule), searchSql(search, fieldRule, data)];
    return context.store.all<{ id: string }>(
      `SELECT id FROM members WHERE ${where.map((part) => `(${part.sql})`).join(' AND ')}`,
      where.flatMap((part) => part.params),
    );
  });
  for (const row of rows) action(row.id);
  return { jobId: randomUUID() };
}

/** Sets a member's status (approve, block, disconnect); emits `member_updated` when it changed. */
function setStatus(
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
function update(
  context: EmulatorContext,
  call: ServiceCall<unknown>,
  memberId: string,
  change: (member: Member) => void,
): Member {
  const member = changeMember(context, memberId, change);
  emitMemberEvent(call, 'updated', member);
  return member;
}

/** The members module. */
export const membersService: ServiceModule = {
  name: 'members',
  migrations: memberMigrations,
  seed: seedMembers,
  operations: {
    createMember(call: OperationCall<'createMember'>, context) {
      const input = call.input.member ?? {};
      if (!input.loginEmail) throw invalidField('member.loginEmail', 'must not be empty', 'REQUIRED_FIELD');
      if (!isEmail(input.loginEmail)) throw invalidField('member.loginEmail', 'must be a valid email address', 'EMAIL');
      if (findMemberByEmail(context.store, input.loginEmail))
        throw applicationError(
          409,
          'EMAIL_ALREADY_EXISTS',
          `A member with the email ${input.loginEmail} already exists`,
        );
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
    },

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

    queryMembers: (call: OperationCall<'queryMembers'>, context) =>
      pageOfMembers(
        context,
        call,
        (data) => [
          filterToSql(call.input.query?.filter, data, 'query.filter', queryableFields(call.caller)),
          searchSql(call.input.search, queryableFields(call.caller), data),
        ],
        call.input.query?.sort,
        call.input.query?.paging,
        call.input.fieldsets,
        'query.sort',
      ),

    updateMember(call: OperationCall<'updateMember'>, context) {
      const change = call.input.member ?? {};
      const memberId = change.id;
      if (typeof memberId != 'string' || !memberId)
        throw invalidField('member.id', 'must not be empty', 'REQUIRED_FIELD');
      if (!actsOn(call.caller, memberId)) {
        // Hidden members stay hidden: 404 rather than telling that they exist.
        visibleMember(context, call.caller, memberId);
        throw permissionDenied('A member can update only itself');
      }
      requireMember(context.store, memberId);
      return answer(
        update(context, call, memberId, (member) => applyUpdate(context, call.caller, member, change)),
        call,
      );
    },

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
        update(
          context,
          call,
          requireMember(context.store, call.input.id).id,
          (member) => void (member.activityStatus = 'MUTED'),
        ),
        call,
      ),
    unmuteMember: (call: OperationCall<'unmuteMember'>, context) =>
      answer(
        update(
          context,
          call,
          requireMember(context.store, call.input.id).id,
          (member) => void (member.activityStatus = 'ACTIVE'),
        ),
        call,
      ),

    joinCommunity: (call: OperationCall<'joinCommunity'>, context) =>
      answer(
        update(context, call, callerMemberId(call.caller), (member) => void (member.privacyStatus = 'PUBLIC')),
        call,
      ),
    leaveCommunity: (call: OperationCall<'leaveCommunity'>, context) =>
      answer(
        update(context, call, callerMemberId(call.caller), (member) => void (member.privacyStatus = 'PRIVATE')),
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

    bulkDeleteMembers(call: OperationCall<'bulkDeleteMembers'>, context) {
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
    },
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
