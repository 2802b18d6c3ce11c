/**
 * Aggregation rows as the service sends them: the group wrapped in `_id` (`{_id: {year: 1975}}`,
 * the shape the official client's `unwrapAggregationId` in @wix/wix-data-items-common reads).
 * The public row unwraps a one-field `_id` as that client does, and has each grouping field at
 * the top level.
 */
import { describe, expect, it } from 'vitest';
import { capturePosts, useNock } from '../../helpers/capture.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();
useNock();

describe('aggregation rows', () => {
  it('one grouping field: _id is its value, and the field is at the top level', async () => {
    capturePosts('/wix-data/v2/items/aggregate', {
      results: [{ _id: { year: 1975 }, count: 3 }],
      pagingMetadata: { count: 1, hasNext: false },
    });
    const page = await client.items.aggregate('Movies').group('year').count().run();
    expect(page.items).toStrictEqual([{ year: 1975, count: 3, _id: 1975 }]);
  });

  it('several grouping fields: _id is the object of their values', async () => {
    capturePosts('/wix-data/v2/items/aggregate', {
      results: [{ _id: { director: 'Spielberg', year: 1975 }, ratingAvg: 8 }],
      pagingMetadata: { count: 1, hasNext: false },
    });
    const page = await client.items.aggregate('Movies').group('director', 'year').avg('rating').run();
    expect(page.items).toStrictEqual([
      { director: 'Spielberg', year: 1975, ratingAvg: 8, _id: { director: 'Spielberg', year: 1975 } },
    ]);
  });

  it('no grouping: the row as sent', async () => {
    capturePosts('/wix-data/v2/items/aggregate', {
      results: [{ count: 300 }],
      pagingMetadata: { count: 1, hasNext: false },
    });
    const page = await client.items.aggregate('Movies').count().run();
    expect(page.items).toStrictEqual([{ count: 300 }]);
  });
});
