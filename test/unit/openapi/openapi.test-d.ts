/** sitekit/openapi types: paths, parameters and bodies come from the schema; `error` is a SiteKitError. */
import { describe, expectTypeOf, it } from 'vitest';
import type { SiteKitError } from '../../../src/errors/index.js';
import type { RawClient } from '../../../src/openapi/index.js';

declare const raw: RawClient;

describe('RawClient types', () => {
  it('types the data of a route and makes error a SiteKitError', async () => {
    const result = await raw.GET('/wix-data/v2/collections/{dataCollectionId}', {
      params: { path: { dataCollectionId: 'Movies' } },
    });
    if (result.error) expectTypeOf(result.error).toEqualTypeOf<SiteKitError>();
    else expectTypeOf(result.data.collection?.displayName).toEqualTypeOf<string | undefined>();
  });

  it('refuses a path that is not in the schema, or not with that method', () => {
    // @ts-expect-error not a route of the schema
    void raw.GET('/wix-data/v2/not-a-route');
    // @ts-expect-error the collection route has no PATCH
    void raw.PATCH('/wix-data/v2/collections/{dataCollectionId}', { params: { path: { dataCollectionId: 'M' } } });
  });

  it('requires the path parameters and a body of the right shape', () => {
    // @ts-expect-error dataCollectionId is required
    void raw.GET('/wix-data/v2/collections/{dataCollectionId}', { params: { path: {} } });
    // @ts-expect-error dataCollectionId is a string
    void raw.POST('/wix-data/v2/items/query', { body: { dataCollectionId: 42 } });
    // @ts-expect-error the body is required
    void raw.POST('/wix-data/v2/items/query');
  });
});
