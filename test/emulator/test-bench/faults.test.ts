/**
 * Which fault rule fires for a request, case by case: by path prefix (the query left aside), by
 * operation (an SDK name, an operationId and its GET twin), a rule naming nothing only for the
 * API, `times` and `probability` at their edges, the first matching rule, never the control API.
 * test-bench.test.ts proves the answers a rule gives through the server.
 */
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createFaultRules, routeOperation } from '../../../emulator/test-bench/faults.js';

/** A request as the fault hook sees it: its method, raw URL and the route pattern it matched. */
const request = (method: string, url: string, route?: string) =>
  ({ method, url, routeOptions: { url: route } }) as unknown as FastifyRequest;

const QUERY = '/wix-data/v2/items/query';
const query = (url = QUERY) => request('POST', url, QUERY);
const queryByGet = () => request('GET', `${QUERY}?dataCollectionId=Movies`, QUERY);

describe('which rule fires', () => {
  it('none without rules, and never for the control API', () => {
    const rules = createFaultRules();
    expect(rules.take(query())).toBeUndefined();
    rules.add({ path: '/', status: 500 });
    for (const url of ['/_emulator/faults', '/_emulator/info?x=1'])
      expect(rules.take(request('DELETE', url, '/_emulator/faults')), url).toBeUndefined();
    expect(rules.list()[0]!.fired).toBe(0);
    expect(rules.take(query())).toMatchObject({ status: 500 });
  });

  it('a path rule: requests under its prefix, the query string aside', () => {
    const rules = createFaultRules();
    const { id } = rules.add({ path: '/wix-data/v2/items', status: 503 });
    expect(rules.take(query(`${QUERY}?next=/anything`))?.id).toBe(id);
    expect(rules.take(request('POST', '/members/v1/members/query?p=/wix-data/v2/items'))).toBeUndefined();
    expect(rules.take(request('POST', '/v2/wix-data/v2/items'))).toBeUndefined();
  });

  it('an operation rule: by SDK name, by operationId (with its GET twin), not by another operation', () => {
    const rules = createFaultRules();
    rules.add({ operation: 'items.query', status: 500, times: 1 });
    expect(rules.take(queryByGet())).toBeUndefined();
    expect(rules.take(query())).toMatchObject({ operation: 'items.query' });

    rules.clear();
    rules.add({ operation: 'queryDataItems', status: 500 });
    expect(rules.take(queryByGet())).toMatchObject({ operation: 'queryDataItems' });
    expect(rules.take(request('POST', '/wix-data/v2/items', '/wix-data/v2/items'))).toBeUndefined();
    // A path no route matched has no operation.
    expect(rules.take(request('POST', QUERY))).toBeUndefined();
  });

  it('with both path and operation, both must match', () => {
    const rules = createFaultRules();
    rules.add({ operation: 'queryDataItems', path: '/members/', status: 500 });
    expect(rules.take(query())).toBeUndefined();
    rules.add({ operation: 'queryDataItems', path: '/wix-data/', status: 502 });
    expect(rules.take(query())).toMatchObject({ status: 502 });
  });

  it("a rule naming nothing: every API request, not the console's pages and files", () => {
    const rules = createFaultRules();
    rules.add({ status: 500 });
    for (const url of ['/', '/favicon.ico', '/assets/index.js', '/admin/requests'])
      expect(rules.take(request('GET', url)), url).toBeUndefined();
    expect(rules.take(query())).toBeDefined();
    expect(rules.take(request('GET', '/_media/files/x'))).toBeDefined();
    expect(rules.take(request('GET', '/_media'))).toBeDefined();
    expect(rules.take(request('GET', '/_media?download=1'))).toBeDefined();
    // A request that matched a route of the API table is an API request, whatever its raw URL.
    expect(rules.take(request('POST', '/_sites/s1/wix-data/v2/items/query', QUERY))).toBeDefined();
  });

  it("a path rule names any path, the console's files too", () => {
    const rules = createFaultRules();
    rules.add({ path: '/assets/', status: 500 });
    expect(rules.take(request('GET', '/assets/index.js'))).toMatchObject({ path: '/assets/' });
    expect(rules.take(request('GET', '/favicon.ico'))).toBeUndefined();
  });

  it('the first rule that matches, counted; a rule stops after `times`', () => {
    const rules = createFaultRules();
    const twice = rules.add({ path: '/wix-data/', status: 503, times: 2 });
    const after = rules.add({ path: '/wix-data/', status: 500 });
    expect([rules.take(query())?.id, rules.take(query())?.id, rules.take(query())?.id]).toEqual([
      twice.id,
      twice.id,
      after.id,
    ]);
    expect(rules.list().map((rule) => rule.fired)).toEqual([2, 1]);
  });

  it('a rule with a probability fires when the random draw is under it', () => {
    const draws = [0.5, 0.49, 0.99];
    const rules = createFaultRules(() => draws.shift()!);
    rules.add({ path: '/', status: 500, probability: 0.5 });
    expect([rules.take(query()), rules.take(query()), rules.take(query())].map((rule) => rule !== undefined)).toEqual([
      false,
      true,
      false,
    ]);
    // No draw for a rule without a probability, nor for one that cannot match.
    const never = createFaultRules(() => {
      throw new Error('drawn');
    });
    never.add({ path: '/members/', status: 500, probability: 1 });
    never.add({ path: '/', status: 500 });
    expect(never.take(query())).toMatchObject({ path: '/' });
  });
});

describe('the rules', () => {
  it('are added with an id and no firing, listed as copies, removed one by one or all', () => {
    const rules = createFaultRules();
    const first = rules.add({ operation: 'get', status: 500 });
    const second = rules.add({ path: '/', latencyMs: 10 });
    expect(first).toMatchObject({ operation: 'get', status: 500, fired: 0, id: expect.any(String) });
    expect(first.id).not.toBe(second.id);
    rules.list()[0]!.fired = 99;
    expect(rules.list()[0]!.fired).toBe(0);
    expect(rules.remove(first.id)).toBe(true);
    expect(rules.remove(first.id)).toBe(false);
    expect(rules.list().map((rule) => rule.id)).toEqual([second.id]);
    rules.clear();
    expect(rules.list()).toEqual([]);
    expect(rules.take(query())).toBeUndefined();
  });

  it("name a request's operation by the route it matched", () => {
    expect(routeOperation(query())).toEqual({ id: 'queryDataItems', namespace: 'items' });
    expect(routeOperation(queryByGet())).toEqual({ id: 'queryDataItemsGet', namespace: 'items' });
    expect(routeOperation(request('POST', '/nowhere', '/nowhere'))).toBeUndefined();
  });
});
