/**
 * The browse page's filter rows: typed text becomes the value the field's type compares with, and
 * each row becomes the query-builder call of its operator (checked by the filter our SDK sends).
 */
import { describe, expect, it } from 'vitest';
import {
  applyFilter,
  operators,
  parseFilterValue,
  takesValue,
  type FieldTypes,
  type FilterRow,
} from '../../../console/src/site/filters.js';
import { ApiKeyStrategy, createClient } from '../../../src/index.js';

describe('parseFilterValue', () => {
  it.each([
    ['1984', 'NUMBER', 1984],
    ['1e3', 'NUMBER', 1000],
    ['many', 'NUMBER', 'many'],
    [' ', 'NUMBER', ' '],
    ['true', 'BOOLEAN', true],
    ['yes', 'BOOLEAN', 'yes'],
    ['1984', 'TEXT', '1984'],
    ['2010-01-01', 'DATE', '2010-01-01'],
    ['-2.5', undefined, -2.5],
    ['false', undefined, false],
    ['1e3', undefined, '1e3'],
    ['Dune', undefined, 'Dune'],
  ])('%j as %s is %j', (text, type, value) => {
    expect(parseFilterValue(text, type)).toEqual(value);
  });

  it('a DATETIME field compares dates (a date alone is midnight UTC); text that is no date stays text', () => {
    expect(parseFilterValue('2010-01-01', 'DATETIME')).toEqual(new Date(Date.UTC(2010, 0, 1)));
    expect(parseFilterValue('someday', 'DATETIME')).toBe('someday');
  });
});

it('only the emptiness checks take no value', () => {
  expect(operators.filter(({ name }) => !takesValue(name)).map(({ name }) => name)).toEqual(['isEmpty', 'isNotEmpty']);
});

describe('applyFilter', () => {
  /** The filter our SDK sends for the rows applied in turn. */
  async function sentFilter(rows: FilterRow[], fieldTypes?: FieldTypes): Promise<unknown> {
    let body: { query?: { filter?: unknown } } = {};
    const client = createClient({
      baseUrl: 'http://site.test',
      auth: ApiKeyStrategy({ apiKey: 'key', siteId: 'site' }),
      fetch: async (input, init) => {
        body = JSON.parse(String((input instanceof Request ? await input.text() : init?.body) ?? '{}'));
        return Response.json({ dataItems: [], pagingMetadata: { count: 0, offset: 0 } });
      },
    });
    let query = client.items.query('Movies');
    for (const row of rows) query = applyFilter(query, row, fieldTypes);
    await query.find();
    return body.query?.filter;
  }

  it('a comparison types its value by the field, text operators keep the text', async () => {
    const types: FieldTypes = new Map([
      ['year', 'NUMBER'],
      ['title', 'TEXT'],
    ]);
    const filter = await sentFilter(
      [
        { field: ' year ', operator: 'ge', value: '1980' },
        { field: 'title', operator: 'eq', value: '1984' },
        { field: 'title', operator: 'startsWith', value: '19' },
      ],
      types,
    );
    expect(filter).toEqual({
      $and: [{ year: { $gte: 1980 } }, { title: '1984' }, { title: { $startsWith: '19' } }],
    });
  });

  it('is one of: an ARRAY_STRING field compares text, another field typed values', async () => {
    const tags = await sentFilter(
      [{ field: 'tags', operator: 'hasSome', value: '1, 2' }],
      new Map([['tags', 'ARRAY_STRING']]),
    );
    const years = await sentFilter(
      [{ field: 'year', operator: 'hasSome', value: '1, 2' }],
      new Map([['year', 'NUMBER']]),
    );
    expect(tags).toEqual({ tags: { $hasSome: ['1', '2'] } });
    expect(years).toEqual({ year: { $hasSome: [1, 2] } });
  });

  it('the emptiness checks, and a row without a field adds nothing', async () => {
    expect(await sentFilter([{ field: 'awards', operator: 'isEmpty', value: 'ignored' }])).toEqual({ awards: null });
    expect(await sentFilter([{ field: 'awards', operator: 'isNotEmpty', value: '' }])).toEqual({
      awards: { $ne: null },
    });
    expect(await sentFilter([{ field: '  ', operator: 'eq', value: 'x' }])).toBeUndefined();
  });
});
