/** Paging rules shared by the data services: limits, `pagingMetadata`, in-memory pages. */
import { invalidField } from '../../errors.js';

/** Offset paging of a request. */
export interface Paging {
  limit?: number;
  offset?: number;
}

/** `pagingMetadata` of query-like responses; `hasNext` is always present (real clients page on it alone). */
export interface PagingMetadata {
  count: number;
  offset?: number;
  total?: number;
  tooManyToCount?: boolean;
  hasNext: boolean;
  cursors?: { next?: string; prev?: string };
}

/** Page size when a request sets none, as on the platform. */
const DEFAULT_PAGE_SIZE = 50;
/** Largest page the emulator returns, as the platform's `maxPageSize`. */
export const MAX_PAGE_SIZE = 1000;
/** Largest offset: the schema's `int32` (SQLite refuses an `OFFSET` past a 64-bit integer with a 500). */
export const MAX_OFFSET = 2 ** 31 - 1;

/** The page size of a request: the default when unset, refused above the maximum. */
export function pageSize(limit: number | undefined, field = 'paging.limit'): number {
  if (limit === undefined || limit === null) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 0) throw invalidField(field, 'must be a whole number of at least 0', 'MIN');
  if (limit > MAX_PAGE_SIZE) throw invalidField(field, `must be at most ${MAX_PAGE_SIZE}`, 'MAX');
  return limit;
}

/** The offset of a request (0 when unset). */
export function pageOffset(offset: number | undefined, field = 'paging.offset'): number {
  if (offset === undefined || offset === null) return 0;
  if (!Number.isInteger(offset) || offset < 0) throw invalidField(field, 'must be a whole number of at least 0', 'MIN');
  if (offset > MAX_OFFSET) throw invalidField(field, `must be at most ${MAX_OFFSET}`, 'MAX');
  return offset;
}

/** One page of an in-memory list (small lists only: collections, distinct values). */
export function pageOf<Entry>(
  all: readonly Entry[],
  paging: Paging | undefined,
): { items: Entry[]; metadata: PagingMetadata } {
  const limit = pageSize(paging?.limit);
  const offset = pageOffset(paging?.offset);
  const items = all.slice(offset, offset + limit);
  return {
    items,
    metadata: {
      count: items.length,
      offset,
      total: all.length,
      tooManyToCount: false,
      hasNext: offset + items.length < all.length,
    },
  };
}
