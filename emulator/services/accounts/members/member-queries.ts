/**
 * Listing, querying and searching members in SQL over their stored JSON: what a caller may see
 * (visibility) and filter, sort and search on (the PUBLIC field set unless elevated), pages, and
 * the filter "jobs" of the bulk calls.
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/wire.js';
import { invalidField } from '../../../errors.js';
import type { Caller, EmulatorContext, ServiceCall } from '../../../service.js';
import { filterToSql, type FieldRule, type SqlFragment } from '../../data/items/filter-sql.js';
import { jsonPath } from '../../data/items/json-path.js';
import { orderBy, type Sorting } from '../../data/items/paging-sql.js';
import { readingStoredJson } from '../../data/items/readable-json.js';
import { pageOffset, pageSize } from '../../data/paging.js';
import type { OperationCall } from '../../operation-input.js';
import { MEMBER_JSON, isPublicMemberField, shapeMember, widestFieldset, type Member } from './member-store.js';

type MemberSearch = components['schemas']['MemberSearch'];
type OffsetPaging = components['schemas']['Paging'];

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
export function queryableFields(caller: Caller): FieldRule | undefined {
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
export function searchSql(
  search: MemberSearch | undefined,
  fieldRule: FieldRule | undefined,
  data: string,
): SqlFragment {
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
export function pageOfMembers(
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
export function forEachMatching(
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

/** `queryMembers`: a filter and a free-text search on the fields the caller may read, sorted and paged. */
export const queryMembers = (call: OperationCall<'queryMembers'>, context: EmulatorContext) =>
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
  );
