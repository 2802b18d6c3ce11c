/** The browse page's query in its URL: what a URL says reads back the same, and anything unreadable is the default. */
import { describe, expect, it } from 'vitest';
import {
  browseQueryFrom,
  browseUrlOf,
  defaultBrowseQuery,
  type BrowseQuery,
} from '../../../console/src/site/browse-url.js';

const queryOf = (url: string): BrowseQuery => browseQueryFrom(new URL(url, 'http://console.test').searchParams);

describe('the browse URL', () => {
  it('a first visit is the default query, written with its collection only', () => {
    expect(queryOf('/site/browse')).toEqual(defaultBrowseQuery);
    expect(browseUrlOf(defaultBrowseQuery)).toBe('/site/browse?collection=Movies');
  });

  it('reads back every part it writes, a value with colons and spaces included', () => {
    const query: BrowseQuery = {
      collectionId: 'Books',
      filters: [
        { field: 'releaseDate', operator: 'ge', value: '2010-01-01T10:00:00Z' },
        { field: 'title', operator: 'contains', value: 'a: b & c' },
        { field: 'awards', operator: 'isEmpty', value: '' },
      ],
      sortField: 'title',
      sortDirection: 'descending',
      limit: 25,
      offset: 50,
    };
    expect(queryOf(browseUrlOf(query))).toEqual(query);
  });

  it('leaves out filter rows without a field', () => {
    const url = browseUrlOf({ ...defaultBrowseQuery, filters: [{ field: ' ', operator: 'eq', value: 'x' }] });
    expect(url).toBe('/site/browse?collection=Movies');
  });

  it.each([
    ['an unknown operator', '?filter=title:matches:x', { filters: [] }],
    ['a filter without two colons', '?filter=title', { filters: [] }],
    ['a page size not offered', '?limit=1000', { limit: 10 }],
    ['a page size that is no number', '?limit=ten', { limit: 10 }],
    ['a negative offset', '?offset=-10', { offset: 0 }],
    ['a fractional offset', '?offset=1.5', { offset: 0 }],
    ['a blank collection', '?collection=%20%20', { collectionId: 'Movies' }],
    ['an order other than descending', '?order=sideways', { sortDirection: 'ascending' }],
  ])('%s falls back to the default', (_, search, expected) => {
    expect(queryOf(`/site/browse${search}`)).toEqual({ ...defaultBrowseQuery, ...expected });
  });
});
