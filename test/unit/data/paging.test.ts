/** Paged results of items queries: arithmetic, navigation, cursor switch, iteration, abort. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { BASE, capturePosts, useNock } from '../../helpers/capture.js';
import { isAbortedError, isRequestError } from '../../../src/errors/index.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();
const PATH = '/wix-data/v2/items/query';

/** Wire items `n0..n(count-1)` starting at `from`. */
const wireItems = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `n${from + i}`, data: { _id: `n${from + i}`, n: from + i } }));

/** Queues one answer per page (in order) and records each request body. */
const pagesOf = (...replies: object[]) => capturePosts(PATH, ...replies);

useNock();

describe('offset paging', () => {
  it('defaults: page size 50, first page, no paging sent; next() moves by 50', async () => {
    const { bodies } = pagesOf(
      { dataItems: wireItems(0, 50), pagingMetadata: { count: 50, offset: 0, total: 120 } },
      { dataItems: wireItems(50, 50), pagingMetadata: { count: 50, offset: 50, total: 120 } },
    );
    const first = await client.items.query('Movies').find();
    expect(first).toMatchObject({ length: 50, totalCount: 120, pageSize: 50, currentPage: 0, totalPages: 3 });
    expect(first.hasNext()).toBe(true);
    expect(first.hasPrev()).toBe(false);
    expect(bodies[0].query).toEqual({});
    const second = await first.next();
    expect(bodies[1]).toEqual({ dataCollectionId: 'Movies', query: { paging: { offset: 50 } } });
    expect(second).toMatchObject({ currentPage: 1, totalCount: 120, totalPages: 3 });
    expect(second.items[0]).toEqual({ _id: 'n50', n: 50 });
    expect(second.hasPrev()).toBe(true);
  });

  it('limit and skip: current page, next and prev keep the filter, sort and limit', async () => {
    const { bodies } = pagesOf(
      { dataItems: wireItems(20, 10), pagingMetadata: { total: 45 } },
      { dataItems: wireItems(30, 10), pagingMetadata: { total: 45 } },
      { dataItems: wireItems(20, 10), pagingMetadata: { total: 45 } },
    );
    const page = await client.items.query('Movies').eq('a', 1).ascending('n').limit(10).skip(20).find();
    expect(page).toMatchObject({ pageSize: 10, currentPage: 2, totalPages: 5 });
    const next = await page.next();
    expect(next.currentPage).toBe(3);
    expect(bodies[1]).toEqual({
      dataCollectionId: 'Movies',
      query: { filter: { a: 1 }, sort: [{ fieldName: 'n', order: 'ASC' }], paging: { limit: 10, offset: 30 } },
    });
    const back = await next.prev();
    expect(back.currentPage).toBe(2);
    expect(bodies[2].query.paging).toEqual({ limit: 10, offset: 20 });
  });

  it('prev() from a skip smaller than a page goes back to offset 0', async () => {
    const { bodies } = pagesOf(
      { dataItems: wireItems(5, 10), pagingMetadata: { total: 30 } },
      { dataItems: wireItems(0, 10), pagingMetadata: { total: 30 } },
    );
    const page = await client.items.query('Movies').limit(10).skip(5).find();
    expect(page.currentPage).toBe(0);
    expect(page.hasPrev()).toBe(true);
    const back = await page.prev();
    expect(bodies[1].query.paging).toEqual({ limit: 10, offset: 0 });
    expect(back.currentPage).toBe(0);
    expect(back.hasPrev()).toBe(false);
  });

  it('prev() on the first page rejects with RequestError and sends nothing', async () => {
    const { scope } = pagesOf({ dataItems: wireItems(0, 2), pagingMetadata: { total: 4 } }, { dataItems: [] });
    const page = await client.items.query('Movies').limit(2).find();
    expect(page.hasPrev()).toBe(false);
    const error = await page.prev().catch((e: unknown) => e);
    expect(isRequestError(error)).toBe(true);
    expect((error as Error).message).toBe('prev(): there is no previous page (see hasPrev())');
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('the last page: hasNext() false and next() rejects', async () => {
    const { scope } = pagesOf({ dataItems: wireItems(40, 5), pagingMetadata: { total: 45 } }, { dataItems: [] });
    const page = await client.items.query('Movies').limit(10).skip(40).find();
    expect(page).toMatchObject({ currentPage: 4, totalPages: 5, length: 5 });
    expect(page.hasNext()).toBe(false);
    const error = await page.next().catch((e: unknown) => e);
    expect(isRequestError(error)).toBe(true);
    // It says what happened, not "next must be available".
    expect((error as Error).message).toBe('next(): there is no next page (see hasNext())');
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('an exactly full last page: total pages round up only when needed', async () => {
    pagesOf(
      { dataItems: wireItems(0, 10), pagingMetadata: { total: 20 } },
      { dataItems: wireItems(0, 10), pagingMetadata: { total: 21 } },
    );
    expect((await client.items.query('Movies').limit(10).find()).totalPages).toBe(2);
    expect((await client.items.query('Movies').limit(10).find()).totalPages).toBe(3);
  });

  it('an empty result', async () => {
    pagesOf({ dataItems: [], pagingMetadata: { count: 0, offset: 0, total: 0 } });
    const page = await client.items.query('Movies').find();
    expect(page).toMatchObject({ items: [], length: 0, totalCount: 0, totalPages: 0, currentPage: 0, pageSize: 50 });
    expect(page.hasNext()).toBe(false);
    expect(page.hasPrev()).toBe(false);
    expect([...page]).toEqual([]);
  });

  it('an answer without pagingMetadata', async () => {
    pagesOf({});
    const page = await client.items.query('Movies').limit(5).find();
    expect(page).toMatchObject({ items: [], totalCount: undefined, totalPages: undefined });
    expect(page.hasNext()).toBe(false);
  });

  it('too many to count: totalCount and totalPages undefined; hasNext from the service, else from a full page', async () => {
    pagesOf(
      { dataItems: wireItems(0, 2), pagingMetadata: { total: 10000, tooManyToCount: true, hasNext: true } },
      { dataItems: wireItems(0, 2), pagingMetadata: { tooManyToCount: true } },
      { dataItems: wireItems(0, 1), pagingMetadata: { tooManyToCount: true } },
    );
    const a = await client.items.query('Movies').limit(2).find();
    expect(a.totalCount).toBeUndefined();
    expect(a.totalPages).toBeUndefined();
    expect(a.hasNext()).toBe(true);
    expect((await client.items.query('Movies').limit(2).find()).hasNext()).toBe(true);
    expect((await client.items.query('Movies').limit(2).find()).hasNext()).toBe(false);
  });
});

describe('cursor paging', () => {
  it('switches to cursors when the service returns cursors.next: next() sends only cursorPaging', async () => {
    const { bodies } = pagesOf(
      { dataItems: wireItems(0, 2), pagingMetadata: { count: 2, cursors: { next: 'c2' }, hasNext: true } },
      { dataItems: wireItems(2, 2), pagingMetadata: { count: 2, cursors: { next: 'c3', prev: 'c1' } } },
      { dataItems: wireItems(4, 1), pagingMetadata: { count: 1, cursors: { prev: 'c2' } } },
      { dataItems: wireItems(2, 2), pagingMetadata: { count: 2, cursors: { next: 'c3', prev: 'c1' } } },
    );
    const first = await client.items.query('Movies').eq('a', 1).descending('n').limit(2).find({ consistentRead: true });
    expect(first.hasNext()).toBe(true);
    expect(first.hasPrev()).toBe(false);
    const second = await first.next();
    expect(bodies[1]).toEqual({ dataCollectionId: 'Movies', query: { cursorPaging: { limit: 2, cursor: 'c2' } } });
    expect(second).toMatchObject({ currentPage: 1, length: 2 });
    const third = await second.next();
    expect(bodies[2]).toEqual({ dataCollectionId: 'Movies', query: { cursorPaging: { limit: 2, cursor: 'c3' } } });
    expect(third.hasNext()).toBe(false);
    expect(third.hasPrev()).toBe(true);
    expect(third.currentPage).toBe(2);
    const back = await third.prev();
    expect(bodies[3]).toEqual({ dataCollectionId: 'Movies', query: { cursorPaging: { limit: 2, cursor: 'c2' } } });
    expect(back.currentPage).toBe(1);
  });

  it('a cursor page without a limit asks for 50', async () => {
    const { bodies } = pagesOf(
      { dataItems: wireItems(0, 1), pagingMetadata: { cursors: { next: 'x' } } },
      { dataItems: [] },
    );
    await (await client.items.query('Movies').find()).next();
    expect(bodies[1].query.cursorPaging).toEqual({ limit: 50, cursor: 'x' });
  });
});

describe('iteration', () => {
  it('a result is iterable over its page', async () => {
    pagesOf({ dataItems: wireItems(0, 3), pagingMetadata: { total: 3 } });
    const page = await client.items.query('Movies').find();
    const seen: unknown[] = [];
    for (const item of page) seen.push(item.n);
    expect(seen).toEqual([0, 1, 2]);
  });

  it('for await over query.all(): three pages, then stops', async () => {
    const { bodies, scope } = pagesOf(
      { dataItems: wireItems(0, 2), pagingMetadata: { total: 5 } },
      { dataItems: wireItems(2, 2), pagingMetadata: { total: 5 } },
      { dataItems: wireItems(4, 1), pagingMetadata: { total: 5 } },
    );
    const seen: number[] = [];
    for await (const item of client.items.query('Movies').limit(2).all()) seen.push(item.n as number);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(bodies.map((b) => b.query.paging)).toEqual([
      { limit: 2, offset: 0 },
      { limit: 2, offset: 2 },
      { limit: 2, offset: 4 },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('result.all() from a cursor page, without a total', async () => {
    pagesOf(
      { dataItems: wireItems(0, 2), pagingMetadata: { cursors: { next: 'b' } } },
      { dataItems: wireItems(2, 2), pagingMetadata: { cursors: { next: 'c', prev: 'a' } } },
      { dataItems: wireItems(4, 2), pagingMetadata: { cursors: { prev: 'b' } } },
    );
    const seen: unknown[] = [];
    for await (const item of (await client.items.query('Movies').limit(2).find()).all()) seen.push(item._id);
    expect(seen).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5']);
  });

  it('stops on an empty page even when the service claims more', async () => {
    const { scope } = pagesOf(
      { dataItems: wireItems(0, 2), pagingMetadata: { hasNext: true } },
      { dataItems: [], pagingMetadata: { hasNext: true } },
      { dataItems: wireItems(9, 1) },
    );
    const seen: unknown[] = [];
    for await (const item of client.items.query('Movies').limit(2).all()) seen.push(item._id);
    expect(seen).toEqual(['n0', 'n1']);
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('an abort mid-way rejects with AbortedError and fetches no further page', async () => {
    const { scope } = pagesOf(
      { dataItems: wireItems(0, 2), pagingMetadata: { total: 6 } },
      { dataItems: wireItems(2, 2), pagingMetadata: { total: 6 } },
      { dataItems: wireItems(4, 2), pagingMetadata: { total: 6 } },
    );
    const controller = new AbortController();
    const seen: unknown[] = [];
    const run = async () => {
      for await (const item of client.items.query('Movies').limit(2).all({ signal: controller.signal })) {
        seen.push(item._id);
        if (seen.length == 3) controller.abort();
      }
    };
    const error = await run().catch((e: unknown) => e);
    expect(isAbortedError(error)).toBe(true);
    expect(seen).toEqual(['n0', 'n1', 'n2', 'n3']);
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('an abort while a page is in flight rejects with AbortedError', async () => {
    nock(BASE)
      .post(PATH)
      .reply(200, { dataItems: wireItems(0, 1), pagingMetadata: { total: 2 } });
    nock(BASE)
      .post(PATH)
      .delay(2000)
      .reply(200, { dataItems: wireItems(1, 1), pagingMetadata: { total: 2 } });
    const controller = new AbortController();
    const page = await client.items.query('Movies').limit(1).find({ signal: controller.signal });
    const pending = page.next();
    setTimeout(() => controller.abort(), 20);
    expect(isAbortedError(await pending.catch((e: unknown) => e))).toBe(true);
  });
});
