/**
 * Paging shared by every builder and list method: sort entries, limit and skip checks, the request
 * of one page of any list operation, its fetch, and the paged result object it builds (`items,
 * totalCount, pageSize, currentPage, totalPages, hasNext/hasPrev, next/prev`, sync and async iteration).
 */
import { RequestError } from '../errors/index.js';
import type { Transport } from '../http/transport.js';
import { invalid, requireString } from '../input.js';
import { sendPublic, splitCallOptions, wireRequest } from '../invoke.js';
import type { Operation } from '../operation.js';
import type { PagingMetadata } from '../../generated/models.js';
import type { PagedResult } from './types.js';

/** Page size when the caller set no limit. */
export const PAGE_SIZE = 50;

/** A positive integer limit (or `undefined`: none), else RequestError. */
export const limitOf = (limit: unknown): number | undefined =>
  limit === undefined || (Number.isInteger(limit) && (limit as number) > 0)
    ? (limit as number | undefined)
    : invalid('limit', 'a positive integer');

/** A non-negative integer skip, else RequestError. */
export const skipOf = (skip: unknown): number =>
  Number.isInteger(skip) && (skip as number) >= 0 ? (skip as number) : invalid('skip', 'a non-negative integer');

/** A sort entry on the wire. */
export interface Sort {
  fieldName: string;
  order: 'ASC' | 'DESC';
}

/** `sort` followed by one entry per field, in `order` (each field name checked). */
export const sortedBy = (sort: readonly Sort[], fields: readonly unknown[], order: Sort['order']): Sort[] => [
  ...sort,
  ...fields.map((field) => ({ fieldName: requireString(field, 'field'), order })),
];

/** What every paged builder keeps: its sort, limit and skip. */
export interface PageState {
  readonly sort: readonly Sort[];
  readonly limit?: number;
  readonly skip: number;
}

/** A page state with no sort, no limit and no skip. */
export const FIRST_PAGE: PageState = { sort: [], skip: 0 };

/** How to fetch the pages of one list operation (see {@link fetchPages}). */
export interface PageSource {
  readonly transport: Transport;
  readonly operation: Operation;
  /** The part of the request that a cursor request keeps (the service takes no filter beside a cursor). */
  readonly base: Record<string, unknown>;
  /** The rest of the request (filter, sort...), sent with offset pages only. */
  readonly rest: Record<string, unknown>;
  /** The page's entries, from the response. */
  readonly entries: (response: Record<string, unknown>) => unknown[] | undefined;
  /** Another name of each page's items in the result (`values`: the official distinct result's). */
  readonly itemsAlsoAs?: string;
  /** Fields every page of the result carries besides its own (`query`: the official member query result's builder). */
  readonly alsoInResult?: object;
  /** The request field that paging goes inside (`query`); at the top level without one. */
  readonly pagingField?: string;
  /** The caller's options: read options of the request, and the call options. */
  readonly options?: unknown;
}

/**
 * The request of one page of `source` in the public form, and the options it goes with: the page
 * at `offset`, or at `cursor` (which carries no filter, sort or read options: the cursor holds them).
 */
export function pageRequest(
  source: Omit<PageSource, 'transport'>,
  limit: number | undefined,
  offset: number,
  cursor: string | undefined,
): { request: Record<string, unknown>; options: unknown } {
  const paging = cursor
    ? { cursorPaging: { limit: limit ?? PAGE_SIZE, cursor } }
    : { paging: limit || offset ? { limit, offset } : undefined };
  const request: Record<string, unknown> = cursor ? { ...source.base } : { ...source.base, ...source.rest };
  const { pagingField } = source;
  if (pagingField) request[pagingField] = { ...(request[pagingField] as object | undefined), ...paging };
  else Object.assign(request, paging);
  return { request, options: cursor ? splitCallOptions(source.options).call : source.options };
}

/**
 * The wire request of the first page {@link fetchPages} fetches for the same arguments, without
 * sending it (what a query builder's `toRequest()` returns): built by the same code, so it cannot
 * differ from what `find()` sends.
 */
export function firstPageRequest(
  source: Omit<PageSource, 'transport'>,
  { limit, skip }: Pick<PageState, 'limit' | 'skip'>,
): Record<string, unknown> {
  const { request, options } = pageRequest(source, limit, skip, undefined);
  return wireRequest(source.operation, request, options).wire;
}

/**
 * Fetches the page at `limit` (page size 50 without one) and `skip`, and wraps it in a paged
 * result whose `next/prev/all` fetch further pages with the same options. Paging is sent only when
 * a limit or a skip is set. Once the service returns a `cursors.next`, the result moves by cursor.
 */
export function fetchPages<T>(
  source: PageSource,
  { limit, skip }: Pick<PageState, 'limit' | 'skip'>,
): Promise<PagedResult<T>> {
  const pageSize = limit ?? PAGE_SIZE;

  // The page at offset `offset`, or at `cursor` (the offset is then unused); `index` is its page number.
  const fetchPage = async (offset: number, cursor: string | undefined, index: number): Promise<PagedResult<T>> => {
    const { request, options } = pageRequest(source, limit, offset, cursor);
    const response = ((await sendPublic(source.transport, source.operation, request, options)) ?? {}) as Record<
      string,
      unknown
    >;
    const items = (source.entries(response) ?? []) as T[];
    const metadata = (response.pagingMetadata ?? response.metadata ?? {}) as PagingMetadata;
    const cursors = metadata.cursors ?? {};
    const total = metadata.tooManyToCount ? undefined : metadata.total;
    const byCursor = Boolean(cursor || cursors.next);
    const hasNext = byCursor
      ? Boolean(cursors.next)
      : total != null
        ? offset + items.length < total
        : (metadata.hasNext ?? items.length >= pageSize);
    const hasPrev = byCursor ? Boolean(cursors.prev) : offset > 0;
    // Moves one page forward (`step` 1) or back (-1); refuses, naming the method, when there is none.
    const move =
      (method: 'next' | 'prev', available: boolean, step: 1 | -1, cursor: string | undefined, noPageMessage: string) =>
      async (): Promise<PagedResult<T>> => {
        if (!available) throw new RequestError(noPageMessage, { field: method });
        const nextOffset = Math.max(0, offset + step * pageSize);
        return byCursor
          ? fetchPage(nextOffset, cursor, index + step)
          : fetchPage(nextOffset, undefined, nextOffset / pageSize);
      };
    const page: PagedResult<T> = {
      ...(source.itemsAlsoAs && { [source.itemsAlsoAs]: items }),
      ...source.alsoInResult,
      items,
      length: items.length,
      totalCount: total,
      pageSize,
      currentPage: Math.floor(index),
      totalPages: total === undefined ? undefined : Math.ceil(total / pageSize),
      pagingMetadata: metadata,
      hasNext: () => hasNext,
      hasPrev: () => hasPrev,
      next: move('next', hasNext, 1, cursors.next, 'next(): there is no next page (see hasNext())'),
      prev: move('prev', hasPrev, -1, cursors.prev, 'prev(): there is no previous page (see hasPrev())'),
      [Symbol.iterator]: () => items.values(),
      async *all() {
        for (let current = page; ; current = await current.next()) {
          yield* current.items;
          if (current.length === 0 || !current.hasNext()) return;
        }
      },
    };
    return page;
  };
  return fetchPage(skip, undefined, skip / pageSize);
}
