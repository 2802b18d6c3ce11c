/** Random bodies to every data and token route: always a clean answer (2xx or 4xx in the production shape), never a 500. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../generated/routes.js';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const dataRoutes = routes.filter(
  (route) => route.namespace == 'items' || route.namespace == 'collections' || route.operationId == 'token',
);
const targets = dataRoutes.filter((route) => route.method != 'GET' && route.method != 'DELETE');
const queryTargets = dataRoutes.filter((route) => route.method == 'GET' || route.method == 'DELETE');

/** Values that look like the requests' own fields, mixed with anything. */
const field = fc.oneof(
  fc.constantFrom('Movies', 'movie-001', 'title', 'year', 'genres', '$date', '', '_id', '_owner'),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ $date: fc.oneof(fc.string(), fc.constant('2020-01-01T00:00:00Z')) }),
);
const body = fc.dictionary(
  fc.constantFrom(
    'dataCollectionId',
    'dataItem',
    'dataItems',
    'dataItemId',
    'dataItemIds',
    'query',
    'filter',
    'patch',
    'patches',
    'aggregation',
    'fieldName',
    'collection',
    'dataItemReference',
    'dataItemReferences',
    'referringItemId',
    'referringItemFieldName',
    'newReferencedItemIds',
    'grantType',
    'clientId',
    'refreshToken',
    'initialFilter',
    'finalFilter',
    'sort',
    'paging',
    'cursorPaging',
    'returnTotalCount',
  ),
  fc.oneof(
    field,
    fc.dictionary(
      fc.constantFrom(
        'filter',
        'sort',
        'paging',
        'data',
        'id',
        'fieldModifications',
        'dataItemId',
        'groupingFields',
        'operations',
        'title',
        '$and',
        '$or',
        '$not',
        'year',
      ),
      field,
    ),
    fc.array(field, { maxLength: 3 }),
  ),
);

describe('fuzzed bodies', () => {
  it('never get a 500', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async (route, request) => {
        const url = route.url.replace(/:(\w+)/g, 'movie-001');
        const response = await emulator.fetch(url, {
          method: route.method,
          headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(request),
        });
        const answer = await response.json();
        expect(
          response.status,
          `${route.method} ${url} ${JSON.stringify(request)} → ${JSON.stringify(answer)}`,
        ).toBeLessThan(500);
        if (response.status >= 400) expect(typeof answer.message).toBe('string');
      }),
      { numRuns: 600, seed: 42 },
    );
  });

  it('query strings (dotted keys, repeated keys, .r) never get a 500', { timeout: 240_000 }, async () => {
    const key = fc.constantFrom(
      'dataCollectionId',
      'paging.limit',
      'paging.offset',
      'sort.fieldName',
      'sort.order',
      'fields',
      'consistentRead',
      'query.filter',
      'a..b',
      '__proto__.x',
      'constructor.prototype',
    );
    const parameters = fc.array(
      fc.tuple(key, fc.oneof(fc.constantFrom('Movies', '10', '-1', 'true', 'DESC', 'x'), fc.string())),
      { maxLength: 6 },
    );
    const packed = fc.option(
      body.map((request) => Buffer.from(JSON.stringify(request)).toString('base64url')),
      { nil: undefined },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...queryTargets), parameters, packed, async (route, pairs, whole) => {
        const search = new URLSearchParams(pairs);
        if (whole !== undefined) search.append('.r', whole);
        const url = `${route.url.replace(/:(\w+)/g, 'movie-001')}?${search}`;
        const response = await emulator.fetch(url, {
          method: route.method,
          headers: { authorization: emulator.info.apiKey },
        });
        const answer = await response.json();
        expect(response.status, `${route.method} ${url} → ${JSON.stringify(answer)}`).toBeLessThan(500);
      }),
      { numRuns: 400, seed: 42 },
    );
  });
});
