/**
 * Paging shared by every builder: `ascending/descending/limit/skip`, the paged result object
 * (`items, totalCount, pageSize, currentPage, totalPages, hasNext/hasPrev, next/prev`, sync and
 * async iteration) and the fetch of one page of any list operation.
 */
import type { Operation } from '../../generated/request.js';
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
 * `request` (whose fields win), converted by the operation's request transform.
 */
export const exec = (t: Transport, op: Operation, request: object, options?: unknown): Promise<any> => {
  const { rest, call } = splitCallOptions(options);
  return send(t, op, toWire({ ...rest, ...request }, op.i) as object, call);
};

/** A positive integer limit (or `undefined`: none), else RequestError. */
export const limitOf = (n: any): number | undefined => (n === undefined || (Number.isInteger(n) && n > 0) ? n : bad('limit must be a positive integer', 'limit'));
/** A non-negative integer skip, else RequestError. */
export const skipOf = (n: any): number => (Number.isInteger(n) && n >= 0 ? n : bad('skip must be a non-negative integer', 'skip'));

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

/** Paging metadata as the items (`pagingMetadata`) and members (`metadata`) services send it. */
interface Meta {
  total?: number;
  tooManyToCount?: boolean;
  hasNext?: boolean;
  cursors?: { next?: string; prev?: string };
}

/** Fetches one page: offset paging when `cursor` is undefined. Resolves `[items, metadata]`. */
type Fetch = (k: number, cursor?: string) => Promise<[unknown[], Meta | undefined]>;

function result<T>(fetch: Fetch, size: number, k: number, n: number, [items, meta = {}]: [unknown[], Meta | undefined], viaCursor?: boolean): PagedResult<T> {
  const c = meta.cursors ?? {};
  const total = meta.tooManyToCount ? undefined : meta.total;
  const cursorMode = viaCursor || !!c.next;
  const hasNext = () => (cursorMode ? !!c.next : total != null ? k + items.length < total : (meta.hasNext ?? items.length >= size));
  const hasPrev = () => (cursorMode ? !!c.prev : k > 0);
  const go = async (d: number) => {
    if (!(d > 0 ? hasNext() : hasPrev())) bad(`no ${d > 0 ? 'next' : 'previous'} page`, d > 0 ? 'next' : 'prev');
    const offset = cursorMode ? k : Math.max(0, k + d * size);
    const page = await fetch(offset, cursorMode ? (d > 0 ? c.next : c.prev) : undefined);
    return result<T>(fetch, size, offset, cursorMode ? n + d : offset / size, page, cursorMode);
  };
  const self: PagedResult<T> = {
    items: items as T[],
    length: items.length,
    totalCount: total,
    pageSize: size,
    currentPage: Math.floor(n),
    totalPages: total == null ? total : Math.ceil(total / size),
    hasNext,
    hasPrev,
    next: () => go(1),
    prev: () => go(-1),
    [Symbol.iterator]: () => (items as T[])[Symbol.iterator](),
    async *all() {
      for (let r = self; ; r = await r.next()) {
        yield* r.items;
        if (!r.length || !r.hasNext()) return;
      }
    },
  };
  return self;
}

/**
 * Fetches the first page of list operation `op` at limit `l`, skip `k`, and wraps it in a paged
 * result whose `next/prev/all` fetch further pages with the same options. `base` is the request
 * without paging, `head` what a cursor request keeps of it (the service takes no filter beside a
 * cursor), `pick` the page's entries from the response; paging goes inside `at` (`query`) or at
 * the top level, and is sent only when set unless `always`.
 */
export async function pages<T>(
  t: Transport,
  op: Operation,
  base: object,
  head: object,
  pick: (response: any) => unknown[] | undefined,
  l: number | undefined,
  k: number,
  options?: unknown,
  at?: string,
  always?: 1,
): Promise<PagedResult<T>> {
  const size = l ?? PAGE_SIZE;
  const fetch: Fetch = async (k, cursor) => {
    const p = cursor ? { cursorPaging: { limit: size, cursor } } : { paging: always || l || k ? { limit: always ? size : l, offset: k } : undefined };
    const from: any = cursor ? head : base;
    const r = await exec(t, op, at ? { ...from, [at]: { ...from[at], ...p } } : { ...from, ...p }, cursor ? { ...splitCallOptions(options).call } : options);
    return [pick(r) ?? [], r.pagingMetadata ?? r.metadata];
  };
  return result<T>(fetch, size, k, k / size, await fetch(k));
}
