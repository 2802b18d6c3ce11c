/** Item reads: get, query, count, distinct values and aggregations, all filtered and paged in SQL. */
import { invalidField } from '../../../errors.js';
import type { SqlValue } from '../../../store/store.js';
import { fieldPathSegments, isRecord } from '../../../untrusted-json.js';
import type { PagingMetadata } from '../paging.js';
import { scopeFor, scopeSql, type ItemAccess } from './access.js';
import { filterToSql, type SqlFragment } from './filter-sql.js';
import { requireItem, wireItem, type ItemData, type WireItem } from './item-store.js';
import { jsonPath } from './json-path.js';
import { orderBy, requestAndWindow, runPage, type PagingInput, type Sorting } from './paging-sql.js';
import { requireInScope } from './permissions.js';
import { readingStoredJson } from './readable-json.js';
import { expandReferences, includedReferences, readCheckFor } from './references.js';

/** Keeps only the requested fields (and `_id`) of each item. */
function project(items: ItemData[], fields: unknown, at: string): ItemData[] {
  if (fields === undefined || fields === null || (Array.isArray(fields) && !fields.length)) return items;
  if (!Array.isArray(fields) || fields.some((field) => typeof field != 'string'))
    throw invalidField(at, 'must be an array of field names');
  return items.map((item) => {
    const kept: ItemData = { _id: item._id };
    // Own fields only: `constructor` or `toString` must not pick up what every object inherits.
    for (const field of fields as string[]) if (Object.hasOwn(item, field)) kept[field] = item[field];
    return kept;
  });
}

/** `GET /items/{id}`: one item (its included references resolved, as a query resolves them), or `WDE0073`. */
export function getItem(
  access: ItemAccess,
  input: { dataItemId: string; fields?: unknown; includeReferences?: unknown },
): { dataItem: WireItem } {
  const scope = scopeFor(access, 'read');
  const { store } = access.context;
  const include = includedReferences(input.includeReferences);
  const item = requireItem(store, access.collection.id, input.dataItemId);
  requireInScope(access.collection, scope, 'read', item);
  // Most reads include no reference: no read check (a map and a closure) is made for them.
  const [expanded] = include.length
    ? expandReferences(store, access.collection, [item], include, readCheckFor(store, access.call.caller))
    : [item];
  return { dataItem: wireItem(access.collection.id, project([expanded!], input.fields, 'fields')[0]!) };
}

/** The `WHERE` of a filtered read in the caller's scope, over the item JSON in `data`. */
function whereOf(access: ItemAccess, data: string, filter: unknown, at: string): SqlFragment {
  const scope = scopeSql(access.collection.id, scopeFor(access, 'read'));
  const condition = filterToSql(filter, data, at);
  return { sql: `${scope.sql} AND (${condition.sql})`, params: [...scope.params, ...condition.params] };
}

/** The body of a query (`query` of the request), as saved in its cursor. */
interface QueryRequest {
  filter?: unknown;
  sort?: Sorting[];
  fields?: unknown;
  includeReferences?: unknown;
  returnTotalCount?: boolean;
}

const isOptional = (value: unknown, type: 'boolean' | 'string') => value === undefined || typeof value == type;
const isOptionalList = (value: unknown) => value === undefined || Array.isArray(value);

/**
 * The shape of a query cursor's saved request. The translators check what is inside the filter,
 * the sort keys, the fields and the references, as they do for a request's own.
 */
const isQueryRequest = (request: unknown): request is QueryRequest =>
  isRecord(request) && isOptionalList(request.sort) && isOptional(request.returnTotalCount, 'boolean');

/** `POST /items/query` (and `GET ?.r=`): filter, sort, offset or cursor paging, fields, references. */
export const queryItems = (
  access: ItemAccess,
  input: { query?: QueryRequest & PagingInput; includeReferences?: unknown; returnTotalCount?: boolean },
) => readingStoredJson('items.data', (data) => queryItemsOver(data, access, input));

function queryItemsOver(
  data: string,
  access: ItemAccess,
  input: { query?: QueryRequest & PagingInput; includeReferences?: unknown; returnTotalCount?: boolean },
): { dataItems: WireItem[]; pagingMetadata: PagingMetadata } {
  const query = input.query ?? {};
  const { request, window } = requestAndWindow<QueryRequest>(
    query,
    {
      filter: query.filter,
      sort: query.sort,
      fields: query.fields,
      includeReferences: input.includeReferences,
      returnTotalCount: input.returnTotalCount,
    },
    { kind: 'query', collectionId: access.collection.id, isRequest: isQueryRequest },
    'query.',
  );
  const where = whereOf(access, data, request.filter, 'query.filter');
  const sort = orderBy(request.sort, data, 'query.sort');
  // Without a sort: newest first, ties by id (documented in README); with one, ties by id too.
  const order = sort.sql ? `${sort.sql}, items.id ASC` : 'items.created_date DESC, items.id ASC';
  const include = includedReferences(request.includeReferences);
  const page = runPage<{ data: string }, QueryRequest>(
    access.context.store,
    {
      select: {
        sql: `SELECT items.data FROM items WHERE ${where.sql} ORDER BY ${order}`,
        params: [...where.params, ...sort.params],
      },
      count: { sql: `SELECT COUNT(*) AS total FROM items WHERE ${where.sql}`, params: where.params },
    },
    window,
    {
      returnTotalCount: request.returnTotalCount,
      cursor: { kind: 'query', collectionId: access.collection.id, request },
    },
  );
  const items = expandReferences(
    access.context.store,
    access.collection,
    page.rows.map((row) => JSON.parse(row.data) as ItemData),
    include,
    readCheckFor(access.context.store, access.call.caller),
  );
  return {
    dataItems: project(items, request.fields, 'query.fields').map((item) => wireItem(access.collection.id, item)),
    pagingMetadata: page.pagingMetadata,
  };
}

/** `POST /items/count`. */
export const countItems = (access: ItemAccess, input: { filter?: unknown }): { totalCount: number } =>
  readingStoredJson('items.data', (data) => {
    const where = whereOf(access, data, input.filter, 'filter');
    return {
      totalCount: access.context.store.get<{ total: number }>(
        `SELECT COUNT(*) AS total FROM items WHERE ${where.sql}`,
        where.params,
      )!.total,
    };
  });

interface DistinctRequest {
  fieldName: string;
  filter?: unknown;
  order?: 'ASC' | 'DESC';
  returnTotalCount?: boolean;
}

/** The shape of a distinct-values cursor's saved request. */
const isDistinctRequest = (request: unknown): request is DistinctRequest =>
  isRecord(request) &&
  typeof request.fieldName == 'string' &&
  isOptional(request.order, 'string') &&
  isOptional(request.returnTotalCount, 'boolean');

/**
 * `POST /items/query-distinct-values`: the distinct non-null values of a field (the elements of
 * array fields), ordered by value.
 */
export const distinctValues = (access: ItemAccess, input: DistinctRequest & PagingInput) =>
  readingStoredJson('items.data', (data) => distinctValuesOver(data, access, input));

function distinctValuesOver(
  data: string,
  access: ItemAccess,
  input: DistinctRequest & PagingInput,
): { distinctValues: unknown[]; pagingMetadata: PagingMetadata } {
  const { request, window } = requestAndWindow<DistinctRequest>(
    input,
    {
      fieldName: input.fieldName,
      filter: input.filter,
      order: input.order,
      returnTotalCount: input.returnTotalCount,
    },
    { kind: 'distinct', collectionId: access.collection.id, isRequest: isDistinctRequest },
    '',
  );
  const order = request.order ?? 'ASC';
  if (order != 'ASC' && order != 'DESC') throw invalidField('order', 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
  const path = jsonPath(request.fieldName, 'fieldName');
  const where = whereOf(access, data, request.filter, 'filter');
  // Each value as JSON text (so 5 and "5" stay apart), with its SQL value to order by.
  const values = `SELECT ${data} -> element.fullkey AS value_json, element.value AS sort_value FROM items, json_each(${data}, ?) AS element
      WHERE ${where.sql} AND json_type(${data}, ?) = 'array' AND element.type != 'null'
    UNION ALL
    SELECT ${data} -> ?, json_extract(${data}, ?) FROM items WHERE ${where.sql} AND json_type(${data}, ?) NOT IN ('array', 'null')`;
  const valueParams: SqlValue[] = [path, ...where.params, path, path, path, ...where.params, path];
  const grouped = `SELECT value_json, MIN(sort_value) AS sort_value FROM (${values}) GROUP BY value_json`;
  const page = runPage<{ value_json: string }, DistinctRequest>(
    access.context.store,
    {
      select: { sql: `${grouped} ORDER BY sort_value ${order}, value_json ${order}`, params: valueParams },
      count: { sql: `SELECT COUNT(*) AS total FROM (${grouped})`, params: valueParams },
    },
    window,
    {
      returnTotalCount: request.returnTotalCount,
      cursor: { kind: 'distinct', collectionId: access.collection.id, request },
    },
  );
  return { distinctValues: page.rows.map((row) => JSON.parse(row.value_json)), pagingMetadata: page.pagingMetadata };
}

/** One aggregation operation of the request. */
interface AggregationOperation {
  resultFieldName: string;
  average?: { itemFieldName: string };
  sum?: { itemFieldName: string };
  min?: { itemFieldName: string };
  max?: { itemFieldName: string };
  itemCount?: object;
}

interface AggregateRequest {
  initialFilter?: unknown;
  aggregation?: { groupingFields?: string[]; operations?: AggregationOperation[] };
  finalFilter?: unknown;
  sort?: Sorting[];
  returnTotalCount?: boolean;
}

/** The shape of an aggregation cursor's saved request (the operations are checked one by one as a request's). */
const isAggregateRequest = (request: unknown): request is AggregateRequest =>
  isRecord(request) &&
  (request.aggregation === undefined || isRecord(request.aggregation)) &&
  isOptionalList(request.sort) &&
  isOptional(request.returnTotalCount, 'boolean');

/** The SQL of one aggregation operation over the item JSON in `data`. */
function operationSql(operation: AggregationOperation, data: string, at: string): SqlFragment {
  if (!isRecord(operation)) throw invalidField(at, 'must be an aggregation operation');
  const kinds = (['average', 'sum', 'min', 'max', 'itemCount'] as const).filter(
    (kind) => operation[kind] !== undefined,
  );
  if (kinds.length != 1)
    throw invalidField(at, 'must hold exactly one of average, sum, min, max, itemCount', 'ONE_OF_ALIGNMENT');
  const kind = kinds[0]!;
  if (kind == 'itemCount') return { sql: 'COUNT(*)', params: [] };
  const path = jsonPath(operation[kind]?.itemFieldName, `${at}.${kind}.itemFieldName`);
  // min and max work on any comparable value; sum and average on numbers only (others are skipped).
  if (kind == 'min' || kind == 'max') return { sql: `${kind.toUpperCase()}(json_extract(${data}, ?))`, params: [path] };
  const numbers = `CASE WHEN json_type(${data}, ?) IN ('integer', 'real') THEN json_extract(${data}, ?) END`;
  return { sql: `${kind == 'sum' ? 'TOTAL' : 'AVG'}(${numbers})`, params: [path, path] };
}

/** Most grouping fields plus operations of one aggregation (each is a column of the result rows). */
const MAX_AGGREGATE_FIELDS = 100;

/**
 * A result row as the service sends it: the group's values wrapped in `_id` (`{_id: {year: 1975},
 * count: 3}`; the official client unwraps a one-field `_id` itself, `unwrapAggregationId` in
 * `@wix/wix-data-items-common`), then the operations' results.
 */
function groupedResult(row: Record<string, unknown>, groups: readonly string[]): Record<string, unknown> {
  if (!groups.length) return row;
  const result: Record<string, unknown> = { _id: Object.fromEntries(groups.map((field) => [field, row[field]])) };
  for (const [key, value] of Object.entries(row)) if (!groups.includes(key)) result[key] = value;
  return result;
}

/**
 * `POST /items/aggregate`: groups (by `groupingFields`) and operations computed by SQLite; each
 * row is first a JSON object `{<group field>: value, <resultFieldName>: number}`, which
 * `finalFilter` and `sort` apply to as to items, then is sent as {@link groupedResult} shapes it.
 */
export const aggregateItems = (access: ItemAccess, input: AggregateRequest & PagingInput) =>
  readingStoredJson('items.data', (data) => aggregateItemsOver(data, access, input));

function aggregateItemsOver(
  data: string,
  access: ItemAccess,
  input: AggregateRequest & PagingInput,
): { results: Record<string, unknown>[]; pagingMetadata: PagingMetadata } {
  const { request, window } = requestAndWindow<AggregateRequest>(
    input,
    {
      initialFilter: input.initialFilter,
      aggregation: input.aggregation,
      finalFilter: input.finalFilter,
      sort: input.sort,
      returnTotalCount: input.returnTotalCount,
    },
    { kind: 'aggregate', collectionId: access.collection.id, isRequest: isAggregateRequest },
    '',
  );
  const groups = request.aggregation?.groupingFields ?? [];
  const operations = request.aggregation?.operations ?? [];
  if (!Array.isArray(groups)) throw invalidField('aggregation.groupingFields', 'must be an array of field names');
  if (!Array.isArray(operations)) throw invalidField('aggregation.operations', 'must be an array of operations');
  if (groups.length + operations.length > MAX_AGGREGATE_FIELDS)
    throw invalidField(
      'aggregation',
      `may hold at most ${MAX_AGGREGATE_FIELDS} grouping fields and operations`,
      'MAX_SIZE',
    );
  // `_id` holds the group in the result: no operation may take its name.
  const names = new Set<string>(groups.length ? ['_id'] : []);
  const members: SqlFragment[] = [];
  groups.forEach((field, index) => {
    const path = jsonPath(field, `aggregation.groupingFields.${index}`);
    names.add(field);
    // JSON embedding (`->`), so a grouped string stays a string and an object stays an object.
    members.push({ sql: `?, json(${data} -> ?)`, params: [field, path] });
  });
  operations.forEach((operation, index) => {
    const at = `aggregation.operations.${index}`;
    if (typeof operation?.resultFieldName != 'string' || !operation.resultFieldName)
      throw invalidField(`${at}.resultFieldName`, 'must not be empty', 'REQUIRED_FIELD');
    // The result is a key of each row, which finalFilter and sort then name as a field.
    fieldPathSegments(operation.resultFieldName, `${at}.resultFieldName`);
    if (names.has(operation.resultFieldName))
      throw invalidField(`${at}.resultFieldName`, `${operation.resultFieldName} is used twice`);
    names.add(operation.resultFieldName);
    const value = operationSql(operation, data, at);
    members.push({ sql: `?, ${value.sql}`, params: [operation.resultFieldName, ...value.params] });
  });
  if (!operations.length && !groups.length)
    throw invalidField('aggregation', 'needs grouping fields or operations', 'REQUIRED_FIELD');
  const where = whereOf(access, data, request.initialFilter, 'initialFilter');
  const groupBy = groups.length ? ` GROUP BY ${groups.map(() => `${data} -> ?`).join(', ')}` : '';
  const groupParams = groups.map((field, index) => jsonPath(field, `aggregation.groupingFields.${index}`));
  const rows = {
    sql: `SELECT json_object(${members.map((member) => member.sql).join(', ')}) AS data FROM items WHERE ${where.sql}${groupBy}`,
    params: [...members.flatMap((member) => member.params), ...where.params, ...groupParams],
  };
  const having = filterToSql(request.finalFilter, 'grouped.data', 'finalFilter');
  const sort = orderBy(request.sort, 'grouped.data', 'sort');
  // The groups are computed once (MATERIALIZED): as a plain subquery, SQLite would build each
  // group's JSON again for every reference the final filter and the sort make to it (a finalFilter
  // of 400 conditions over 5,000 groups took over a minute).
  const grouped = `WITH grouped AS MATERIALIZED (${rows.sql})`;
  const filtered = `SELECT grouped.data FROM grouped WHERE ${having.sql}`;
  const page = runPage<{ data: string }, AggregateRequest>(
    access.context.store,
    {
      select: {
        sql: `${grouped} ${filtered} ORDER BY ${sort.sql ? `${sort.sql}, ` : ''}grouped.data`,
        params: [...rows.params, ...having.params, ...sort.params],
      },
      count: {
        sql: `${grouped} SELECT COUNT(*) AS total FROM (${filtered})`,
        params: [...rows.params, ...having.params],
      },
    },
    window,
    {
      returnTotalCount: request.returnTotalCount,
      cursor: { kind: 'aggregate', collectionId: access.collection.id, request },
    },
  );
  return {
    results: page.rows.map((row) => groupedResult(JSON.parse(row.data) as Record<string, unknown>, groups)),
    pagingMetadata: page.pagingMetadata,
  };
}
