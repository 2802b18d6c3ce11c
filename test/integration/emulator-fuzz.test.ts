/** Random bodies to every data and token route: always a clean answer (2xx or 4xx in the production shape), never a 500. */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../generated/routes.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const targets = routes.filter((route) => route.method != 'GET' && route.method != 'DELETE' && (route.namespace == 'items' || route.namespace == 'collections' || route.operationId == 'token'));

/** Values that look like the requests' own fields, mixed with anything. */
const field = fc.oneof(
  fc.constantFrom('Movies', 'movie-001', 'title', 'year', 'genres', '$date', '', '_id', '_owner'),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record({ $date: fc.oneof(fc.string(), fc.constant('2020-01-01T00:00:00Z')) }),
);
const body = fc.dictionary(
  fc.constantFrom('dataCollectionId', 'dataItem', 'dataItems', 'dataItemId', 'dataItemIds', 'query', 'filter', 'patch', 'patches', 'aggregation', 'fieldName', 'collection', 'dataItemReference', 'dataItemReferences', 'referringItemId', 'referringItemFieldName', 'newReferencedItemIds', 'grantType', 'clientId', 'refreshToken', 'initialFilter', 'finalFilter', 'sort', 'paging', 'cursorPaging', 'returnTotalCount'),
  fc.oneof(field, fc.dictionary(fc.constantFrom('filter', 'sort', 'paging', 'data', 'id', 'fieldModifications', 'dataItemId', 'groupingFields', 'operations', 'title', '$and', '$or', '$not', 'year'), field), fc.array(field, { maxLength: 3 })),
);

describe('fuzzed bodies', () => {
  it('never get a 500', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), body, async (route, request) => {
        const url = route.url.replace(/:(\w+)/g, 'movie-001');
        const response = await emulator.fetch(url, { method: route.method, headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(request) });
        const answer = await response.json();
        expect(response.status, `${route.method} ${url} ${JSON.stringify(request)} → ${JSON.stringify(answer)}`).toBeLessThan(500);
        if (response.status >= 400) expect(typeof answer.message).toBe('string');
      }),
      { numRuns: 600, seed: 42 },
    );
  });
});
