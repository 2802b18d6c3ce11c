/**
 * The fetch of a list operation's pages and the paged result object (`items, totalCount, pageSize,
 * currentPage, totalPages, hasNext/hasPrev, next/prev`, sync and async iteration). Loaded on the
 * first fetch, through ./paging.ts.
 */
import { RequestError } from '../errors/index.js';
import { sendPublic } from '../invoke.js';
import { PAGE_SIZE, pageRequest, type PageSource, type PageState } from './paging.js';
import type { PagedResult } from './types.js';

/** The paging metadata of a list response, as the items (`pagingMetadata`) and members (`metadata`) services send it. */
interface PagingMetadata {
  total?: number;
  tooManyToCount?: boolean;
  hasNext?: boolean;
  cursors?: { next?: string; prev?: string };
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
    const move =
      (direction: 'next' | 'prev', available: boolean, step: 1 | -1) => async (): Promise<PagedResult<T>> => {
        if (!available)
          throw new RequestError(
            `${direction}(): there is no ${direction === 'next' ? 'next' : 'previous'} page (see has${direction === 'next' ? 'Next' : 'Prev'}())`,
            { field: direction },
          );
        const nextOffset = Math.max(0, offset + step * pageSize);
        return byCursor
          ? fetchPage(nextOffset, cursors[direction], index + step)
          : fetchPage(nextOffset, undefined, nextOffset / pageSize);
      };
    const page: PagedResult<T> = {
      items,
      length: items.length,
      totalCount: total,
      pageSize,
      currentPage: Math.floor(index),
      totalPages: total === undefined ? undefined : Math.ceil(total / pageSize),
      hasNext: () => hasNext,
      hasPrev: () => hasPrev,
      next: move('next', hasNext, 1),
      prev: move('prev', hasPrev, -1),
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
