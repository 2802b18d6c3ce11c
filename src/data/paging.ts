/**
 * Paging shared by every builder: `ascending/descending/limit/skip`, the paged result object
 * (`items, totalCount, pageSize, currentPage, totalPages, hasNext/hasPrev, next/prev`, sync and
 * async iteration) and the fetch of one page of any list operation.
 */
import type { Operation } from '../operation.js';
import type { Transport } from '../http/transport.js';
import { send, splitCallOptions } from '../invoke.js';
import { toWire } from '../wire/index.js';
import { bad, str } from './filter.js';
import type { PagedResult } from './types.js';

/** The request field naming the collection. */
export const D = 'dataCollectionId';

/** Page size when the caller set no limit (spec §9). */
export const PAGE_SIZE = 50;

/**
 * Sends `op` with a public-form request: `options` minus `signal`/`timeoutMs` merged under
 * `request` (whose fields win), converted by the operation's request transform. The collection ID
 * of a request that has one is checked first (a throw: callers are async, so it rejects).
 */
export const exec = (t: Transport, op: Operation, request: any, options?: unknown): Promise<any> => {
  if (D in request) str(request[D], D);
  const { rest, call } = splitCallOptions(options);
  return send(t, op, toWire({ ...rest, ...request }, op.request) as object, call);
};

/** A positive integer limit (or `undefined`: none), else RequestError. */
export const limitOf = (n: any): number | undefined => (n === undefined || (Number.isInteger(n) && n > 0) ? n : bad('limit', 'a positive integer'));
/** A non-negative integer skip, else RequestError. */
export const skipOf = (n: any): number => (Number.isInteger(n) && n >= 0 ? n : bad('skip', 'a non-negative integer'));

/** A sort entry on the wire. */
export interface Sort {
  fieldName: string;
  order: string;
}

/** What every paged builder keeps: sort (`s`), limit (`l`), skip (`k`). */
export interface PageState {
  s: readonly Sort[];
  l?: number;
  k: number;
}

/** `ascending descending limit skip` over a page state; each returns `set(changes)`. */
export const pageOps = <B>(s: PageState, set: (changes: Partial<PageState>) => B) => {
  const sort = (order: string) => (...fields: unknown[]) => set({ s: [...s.s, ...fields.map((f) => ({ fieldName: str(f), order }))] });
  return { ascending: sort('ASC'), descending: sort('DESC'), limit: (n: number) => set({ l: limitOf(n) }), skip: (n: number) => set({ k: skipOf(n) }) };
};

/**
 * Fetches the page of list operation `op` at limit `l` (page size 50 without one) and skip `k`,
 * and wraps it in a paged result whose `next/prev/all` fetch further pages with the same options.
 * The request is `head` (all that a cursor request keeps: the service takes no filter beside a
 * cursor) plus `rest`, and `options` but for a cursor request; `pick` takes the page's entries
 * from the response. Paging goes inside `at` (`query`) or at the top level, and is sent only when
 * `l` or `k` is set. Once the service returns a `cursors.next`, the result moves by cursor.
 */
export const pages = <T>(
  t: Transport,
  op: Operation,
  head: object,
  rest: object,
  pick: (response: any) => unknown[] | undefined,
  { l, k }: { l?: number; k: number },
  options?: unknown,
  at?: string,
): Promise<PagedResult<T>> => {
  const size = l ?? PAGE_SIZE;
  // The page at offset `k`, or at `cursor` (the offset is then unused); `n` is its page index.
  const page = async (k: number, cursor?: string | false, n = k / size): Promise<PagedResult<T>> => {
    const p = cursor ? { cursorPaging: { limit: size, cursor } } : { paging: l || k ? { limit: l, offset: k } : undefined };
    const from: any = cursor ? head : { ...head, ...rest };
    const r = await exec(t, op, at ? { ...from, [at]: { ...from[at], ...p } } : { ...from, ...p }, cursor ? splitCallOptions(options).call : options);
    const items = (pick(r) ?? []) as T[];
    // Paging metadata as the items (`pagingMetadata`) and members (`metadata`) services send it.
    const meta = r.pagingMetadata ?? r.metadata ?? {};
    const c = meta.cursors ?? {};
    const total: number | undefined = meta.tooManyToCount ? undefined : meta.total;
    const byCursor = cursor || c.next;
    const hasNext = byCursor ? !!c.next : total != null ? k + items.length < total : (meta.hasNext ?? items.length >= size);
    const hasPrev = byCursor ? !!c.prev : k > 0;
    const go = (ok: boolean, d: number, w: string) => async () => {
      if (!ok) bad(w, 'available');
      return page(Math.max(0, k + d * size), byCursor && c[w], byCursor ? n + d : undefined);
    };
    const self: PagedResult<T> = {
      items,
      length: items.length,
      totalCount: total,
      pageSize: size,
      currentPage: Math.floor(n),
      totalPages: total && Math.ceil(total / size),
      hasNext: () => hasNext,
      hasPrev: () => hasPrev,
      next: go(hasNext, 1, 'next'),
      prev: go(hasPrev, -1, 'prev'),
      [Symbol.iterator]: () => items.values(),
      async *all() {
        for (let r = self; ; r = await r.next()) {
          yield* r.items;
          if (!r.length || !r.hasNext()) return;
        }
      },
    };
    return self;
  };
  return page(k);
};
