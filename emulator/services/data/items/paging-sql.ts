/**
 * Sorting and paging of item-like rows in SQL: `ORDER BY` from `[{fieldName, order}]`, offset and
 * cursor paging, and `pagingMetadata` (always with `hasNext`).
 */
import { invalidField } from '../../../errors.js';
import type { SqlValue, Store } from '../../../store/store.js';
import { MAX_OFFSET, MAX_PAGE_SIZE, pageOffset, pageSize, type PagingMetadata } from '../paging.js';
import type { FieldRule, SqlFragment } from './filter-sql.js';
import { jsonPath } from './json-path.js';

/** One sort key of a request. */
export interface Sorting {
  fieldName: string;
  order?: 'ASC' | 'DESC';
}

/** Most sort keys one request may give. */
const MAX_SORT_KEYS = 32;

/**
 * `ORDER BY` over the JSON in `column`. SQLite orders NULL (missing fields) lowest, then numbers,
 * then text; dates are stored as ISO text inside `{"$date": ...}`, so they sort chronologically.
 */
export function orderBy(
  sort: readonly Sorting[] | undefined | null,
  column: string,
  requestField: string,
  fieldRule?: FieldRule,
): SqlFragment {
  if (sort !== undefined && sort !== null && !Array.isArray(sort))
    throw invalidField(requestField, 'must be an array of {fieldName, order}');
  if (sort && sort.length > MAX_SORT_KEYS)
    throw invalidField(requestField, `must hold at most ${MAX_SORT_KEYS} sort keys`, 'MAX_SIZE');
  const keys = (sort ?? []).map((entry, index) => {
    const at = `${requestField}.${index}`;
    if (typeof entry != 'object' || entry === null || Array.isArray(entry))
      throw invalidField(at, 'must be a {fieldName, order} object');
    const order = entry.order ?? 'ASC';
    if (order != 'ASC' && order != 'DESC')
      throw invalidField(`${at}.order`, 'must be ASC or DESC', 'INVALID_ENUM_VALUE');
    const path = jsonPath(entry.fieldName, `${at}.fieldName`);
    fieldRule?.(entry.fieldName, `${at}.fieldName`);
    return { sql: `json_extract(${column}, ?) ${order}`, params: [path] };
  });
  return { sql: keys.map((key) => key.sql).join(', '), params: keys.flatMap((key) => key.params) };
}

/** Where a page starts and how long it is, from `paging`, `cursorPaging` or a cursor's saved state. */
export interface PageWindow {
  limit: number;
  offset: number;
  /** Cursor mode: the response carries `cursors` instead of `offset`. */
  cursorMode: boolean;
}

/** A cursor's saved request: enough to produce the next page without the original body. */
export interface CursorState<Request> {
  /** Which kind of read the cursor belongs to (a query cursor is refused by aggregate). */
  kind: string;
  collectionId: string;
  request: Request;
  offset: number;
  limit: number;
}

/** Encodes a cursor (opaque to clients: base64url JSON). */
export const encodeCursor = <Request>(state: CursorState<Request>): string =>
  Buffer.from(JSON.stringify(state)).toString('base64url');

const isWholeNumber = (value: unknown, largest: number): value is number =>
  Number.isInteger(value) && (value as number) >= 0 && (value as number) <= largest;

/**
 * Decodes a cursor of `kind` for `collectionId`; anything else is a validation error naming
 * `field`. A cursor is the caller's input like any other (anyone can write base64url JSON): its
 * offset and limit must be those a request could give (the page limit holds whatever the cursor
 * says), and its saved request must have the shape `isRequest` accepts.
 */
export function decodeCursor<Request>(
  cursor: string,
  kind: string,
  collectionId: string,
  field: string,
  isRequest: (request: unknown) => request is Request,
): CursorState<Request> {
  let state: Partial<CursorState<unknown>> | null;
  try {
    state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidField(field, 'is not a cursor this service issued', 'FORMAT');
  }
  if (
    typeof state != 'object' ||
    state === null ||
    state.kind != kind ||
    state.collectionId != collectionId ||
    !isWholeNumber(state.offset, MAX_OFFSET) ||
    !isWholeNumber(state.limit, MAX_PAGE_SIZE) ||
    !isRequest(state.request)
  ) {
    throw invalidField(field, 'is not a cursor of this request', 'FORMAT');
  }
  return state as CursorState<Request>;
}

/** Paging fields of a request. */
export interface PagingInput {
  paging?: { limit?: number; offset?: number };
  cursorPaging?: { limit?: number; cursor?: string };
}

/** The page window of a request without a cursor. */
export function windowOf(input: PagingInput, at: string): PageWindow {
  if (input.cursorPaging)
    return { limit: pageSize(input.cursorPaging.limit, `${at}cursorPaging.limit`), offset: 0, cursorMode: true };
  return {
    limit: pageSize(input.paging?.limit, `${at}paging.limit`),
    offset: pageOffset(input.paging?.offset, `${at}paging.offset`),
    cursorMode: false,
  };
}

/**
 * The request and page window a read runs with: the call's own (`fresh`) on a first page; on a
 * page asked for by cursor, the request the cursor carries (sort, filter... of page 1) and its
 * offset, with the call's `cursorPaging.limit` when it gives one. `at` prefixes the field names
 * an error names (`query.` for a query).
 */
export function requestAndWindow<Request>(
  input: PagingInput,
  fresh: Request,
  cursor: { kind: string; collectionId: string; isRequest: (request: unknown) => request is Request },
  at: string,
): { request: Request; window: PageWindow } {
  const window = windowOf(input, at);
  if (!input.cursorPaging?.cursor) return { request: fresh, window };
  const state = decodeCursor<Request>(
    input.cursorPaging.cursor,
    cursor.kind,
    cursor.collectionId,
    `${at}cursorPaging.cursor`,
    cursor.isRequest,
  );
  return {
    request: state.request,
    window: {
      limit: input.cursorPaging.limit === undefined ? state.limit : window.limit,
      offset: state.offset,
      cursorMode: true,
    },
  };
}

/**
 * Runs `select` (rows in order) for one page: asks for one row more than the page to know
 * `hasNext`, counts the total when asked. Returns the page's rows and its metadata.
 */
export function runPage<Row, Request>(
  store: Store,
  query: { select: SqlFragment; count: SqlFragment },
  window: PageWindow,
  options: { returnTotalCount?: boolean; cursor?: Omit<CursorState<Request>, 'offset' | 'limit'> },
): { rows: Row[]; pagingMetadata: PagingMetadata } {
  const params: SqlValue[] = [...query.select.params, window.limit + 1, window.offset];
  const fetched = store.all<Row>(`${query.select.sql} LIMIT ? OFFSET ?`, params);
  const hasNext = fetched.length > window.limit;
  const rows = hasNext ? fetched.slice(0, window.limit) : fetched;
  const metadata: PagingMetadata = { count: rows.length, hasNext };
  if (!window.cursorMode) metadata.offset = window.offset;
  if (options.returnTotalCount) {
    metadata.total = store.get<{ total: number }>(query.count.sql, query.count.params)!.total;
    metadata.tooManyToCount = false;
  }
  if (window.cursorMode && options.cursor) {
    const cursors: { next?: string; prev?: string } = {};
    if (hasNext)
      cursors.next = encodeCursor({ ...options.cursor, offset: window.offset + window.limit, limit: window.limit });
    if (window.offset > 0)
      cursors.prev = encodeCursor({
        ...options.cursor,
        offset: Math.max(0, window.offset - window.limit),
        limit: window.limit,
      });
    metadata.cursors = cursors;
  }
  return { rows, pagingMetadata: metadata };
}
