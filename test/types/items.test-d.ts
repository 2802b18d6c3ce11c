/** Types of the items builders and methods: typed by the caller's item type, untyped by default. */
import { describe, expectTypeOf, it } from 'vitest';
import type { Client } from '../../src/client.js';
import type {
  AggregateRow,
  BulkPatchBuilder,
  BulkResult,
  DataItemOf,
  FilterBuilder,
  ItemsQueryBuilder,
  PagedResult,
  PatchBuilder,
} from '../../src/data/types.js';
import type { Item } from '../../src/types.js';

interface Movie {
  title: string;
  year: number;
  released?: Date;
  tags: string[];
  director?: { name: string };
}

declare const client: Client;
const items = client.items;

describe('typed query builder', () => {
  it('autocompletes field names and checks values', () => {
    const q = items.query<Movie>('Movies');
    expectTypeOf(q).toEqualTypeOf<ItemsQueryBuilder<Movie>>();
    expectTypeOf(q.eq('year', 1975)).toEqualTypeOf<ItemsQueryBuilder<Movie>>();
    q.eq('title', 'Jaws')
      .ne('year', 1976)
      .gt('released', new Date())
      .between('year', 1970, 1980)
      .ge('year', 1)
      .le('year', 2);
    q.contains('title', 'aw').startsWith('title', 'J').endsWith('title', 's');
    q.hasSome('tags', 'a', 'b').hasSome('tags', ['a']).hasAll('tags', ['a']).in('year', [1975, 1977]);
    q.exists('released', true).isEmpty('released').isNotEmpty('director');
    q.eq('_id', 'x').gt('_createdDate', new Date()).eq('_owner', 'o');
    q.eq('director.name', 'anything goes in a nested path');
    q.ascending('year', 'title').descending('_createdDate').limit(10).skip(5).fields('title').include('director');
    // @ts-expect-error a string is not a year
    q.eq('year', 'x');
    // @ts-expect-error not a field of Movie
    q.eq('yeer', 1975);
    // @ts-expect-error a number is not a title
    q.startsWith('title', 5);
    // @ts-expect-error text operators take text fields: a year is a number
    q.contains('year', '19');
    // @ts-expect-error text operators take text fields: tags are an array
    q.startsWith('tags', 'a');
    // @ts-expect-error text operators take text fields: a date is not text
    q.endsWith('released', '1');
    // @ts-expect-error values must be tags
    q.hasSome('tags', 1);
    // @ts-expect-error exists needs its boolean
    q.exists('title');
    // @ts-expect-error not a field of Movie
    q.ascending('nope');
    // @ts-expect-error the limit is a number
    q.limit('10');
    // @ts-expect-error _id is a string
    q.eq('_id', 1);
  });

  it('types the results by the item type', () => {
    const q = items.query<Movie>('Movies');
    expectTypeOf(q.find()).resolves.toEqualTypeOf<PagedResult<DataItemOf<Movie>>>();
    expectTypeOf(q.find()).resolves.toHaveProperty('items').toEqualTypeOf<DataItemOf<Movie>[]>();
    expectTypeOf<DataItemOf<Movie>['title']>().toEqualTypeOf<string>();
    expectTypeOf<DataItemOf<Movie>['_id']>().toEqualTypeOf<string>();
    expectTypeOf(q.count()).resolves.toEqualTypeOf<number>();
    expectTypeOf(q.distinct('year')).resolves.toEqualTypeOf<PagedResult<number>>();
    expectTypeOf(q.all()).toEqualTypeOf<AsyncIterableIterator<DataItemOf<Movie>>>();
    const page = {} as PagedResult<DataItemOf<Movie>>;
    for (const m of page) expectTypeOf(m.year).toEqualTypeOf<number>();
    expectTypeOf(page.totalCount).toEqualTypeOf<number | undefined>();
    expectTypeOf(page.next()).resolves.toEqualTypeOf<PagedResult<DataItemOf<Movie>>>();
  });

  it('is untyped (any field, any value) without an item type', () => {
    const q = items.query('Movies');
    expectTypeOf(q).toEqualTypeOf<ItemsQueryBuilder<Item>>();
    q.eq('whatever', 1).eq('other', 'x').hasSome('tags', 1, 'a').ascending('anything');
    // Text and number operators take any field of an untyped item.
    q.contains('whatever', 'x').startsWith('_id', 'a').endsWith('other', 'z');
    items.patch('Movies', 'a').incrementField('whatever', 1);
    items.aggregate('Movies').sum('whatever').avg('other');
    expectTypeOf(q.find()).resolves.toHaveProperty('items').items.toHaveProperty('_id').toEqualTypeOf<string>();
  });

  it('takes filters from builders, queries and objects', () => {
    const f = items.filter<Movie>().eq('year', 1975);
    expectTypeOf(f).toEqualTypeOf<FilterBuilder<Movie>>();
    expectTypeOf(f.toFilter()).toEqualTypeOf<Record<string, unknown>>();
    items
      .query<Movie>('Movies')
      .or(f, items.query('Movies').eq('x', 1), { year: { $gt: 1 } })
      .not(f)
      .and(f);
    // @ts-expect-error a filter builder checks values too
    items.filter<Movie>().eq('year', '1975');
    items.count('Movies', { filter: f });
    // @ts-expect-error not a filter
    items.count('Movies', { filter: 5 });
  });

  it('the direct query form', () => {
    expectTypeOf(
      items.query<Movie>('Movies', { filter: { year: 1975 }, paging: { limit: 1 } }),
    ).resolves.toEqualTypeOf<{
      items: DataItemOf<Movie>[];
      pagingMetadata?: import('../../generated/models.js').PagingMetadata;
    }>();
  });
});

describe('generic item methods', () => {
  it('insert/update/save infer or take the item type', () => {
    expectTypeOf(items.insert('Movies', { title: 'Jaws', year: 1975 })).resolves.toEqualTypeOf<
      DataItemOf<{ title: string; year: number }>
    >();
    expectTypeOf(items.insert<Movie>('Movies', { title: 'Jaws', year: 1975, tags: [] })).resolves.toEqualTypeOf<
      DataItemOf<Movie>
    >();
    items.save<Movie>('Movies', { _id: 'a', title: 'Jaws', year: 1975, tags: [] });
    items.update<Movie>(
      'Movies',
      { _id: 'a', title: 'Jaws', year: 1975, tags: [] },
      { publishPluginOptions: { includeDraftItems: true } },
    );
    // @ts-expect-error year must be a number
    items.insert<Movie>('Movies', { title: 'Jaws', year: '1975', tags: [] });
    // @ts-expect-error _id must be a string
    items.save('Movies', { _id: 1 });
  });

  it('get/remove resolve the item or null', () => {
    expectTypeOf(items.get<Movie>('Movies', 'a')).resolves.toEqualTypeOf<DataItemOf<Movie> | null>();
    expectTypeOf(items.remove<Movie>('Movies', 'a')).resolves.toEqualTypeOf<DataItemOf<Movie> | null>();
    expectTypeOf(items.get('Movies', 'a')).resolves.toEqualTypeOf<DataItemOf<Item> | null>();
    // @ts-expect-error the item id is a string
    items.get('Movies', 1);
  });

  it('bulk writes resolve the official bulk result', () => {
    expectTypeOf(
      items.bulkInsert<Movie>('Movies', [{ title: 'a', year: 1, tags: [] }]),
    ).resolves.toEqualTypeOf<BulkResult>();
    expectTypeOf(items.bulkRemove('Movies', ['a'])).resolves.toEqualTypeOf<BulkResult>();
    expectTypeOf<BulkResult['errors'][number]['code']>().toEqualTypeOf<string>();
    // @ts-expect-error ids, not items
    items.bulkRemove('Movies', [{ _id: 'a' }]);
  });
});

describe('aggregate, patch, references', () => {
  it('aggregate', () => {
    const a = items
      .aggregate<Movie>('Movies')
      .filter(items.filter().gt('year', 1))
      .group('year')
      .sum('year')
      .avg('year', 'avgYear')
      .count()
      .having({ count: { $gt: 1 } });
    // The rows are typed as the aggregation is built: grouping fields, _id, computed fields.
    type RowOf<B extends { run(): Promise<PagedResult<unknown>> }> = Awaited<ReturnType<B['run']>>['items'][number];
    const row = {} as RowOf<typeof a>;
    expectTypeOf(row._id).toEqualTypeOf<number>();
    expectTypeOf(row.year).toEqualTypeOf<number>();
    expectTypeOf(row.yearSum).toEqualTypeOf<number>();
    expectTypeOf(row.avgYear).toEqualTypeOf<number>();
    expectTypeOf(row.count).toEqualTypeOf<number>();
    expectTypeOf(row).toMatchTypeOf<AggregateRow>();
    expectTypeOf(a.limit(2).run()).resolves.toMatchTypeOf<PagedResult<AggregateRow>>();
    // Several grouping fields: _id is an object of their values; min/max keep the field's type.
    const grouped = items.aggregate<Movie>('Movies').group('title', 'year').min('released');
    const byTwo = {} as RowOf<typeof grouped>;
    expectTypeOf(byTwo._id).toEqualTypeOf<{ title: string; year: number }>();
    expectTypeOf(byTwo.releasedMin).toEqualTypeOf<Date | undefined>();
    // Untyped items: every field is unknown, still named.
    expectTypeOf(items.aggregate('Movies').count().run()).resolves.toMatchTypeOf<PagedResult<{ count: number }>>();
    // @ts-expect-error not a field of Movie
    items.aggregate<Movie>('Movies').group('nope');
    // @ts-expect-error a sum is of a number field
    items.aggregate<Movie>('Movies').sum('title');
    // @ts-expect-error an average is of a number field
    items.aggregate<Movie>('Movies').avg('released');
  });

  it('patch', () => {
    const p = items
      .patch<Movie>('Movies', 'a')
      .setField('title', 'x')
      .incrementField('year', 1)
      .appendToArray('tags', 't')
      .removeFromArray('tags', 't')
      .removeField('released');
    expectTypeOf(p).toEqualTypeOf<PatchBuilder<Movie>>();
    expectTypeOf(p.run()).resolves.toEqualTypeOf<DataItemOf<Movie>>();
    // @ts-expect-error title is a string
    items.patch<Movie>('Movies', 'a').setField('title', 1);
    // @ts-expect-error tags hold strings
    items.patch<Movie>('Movies', 'a').appendToArray('tags', 1);
    // @ts-expect-error increments are numbers
    items.patch<Movie>('Movies', 'a').incrementField('year', '1');
    // @ts-expect-error only a number field is incremented
    items.patch<Movie>('Movies', 'a').incrementField('title', 1);
  });

  it('bulkPatch, builder form', () => {
    const p = items.bulkPatch<Movie>('Movies', ['a', 'b']).setField('title', 'x').incrementField('year', 1);
    expectTypeOf(p).toEqualTypeOf<BulkPatchBuilder<Movie>>();
    expectTypeOf(p.run()).resolves.toEqualTypeOf<BulkResult>();
    expectTypeOf(
      items.bulkPatch('Movies', ['a'], [{ fieldPath: 'year', action: 'INCREMENT_FIELD', value: 1 }]),
    ).resolves.toEqualTypeOf<BulkResult>();
    // @ts-expect-error only a number field is incremented
    items.bulkPatch<Movie>('Movies', ['a']).incrementField('title', 1);
  });

  it('references', () => {
    expectTypeOf(items.queryReferenced<Movie>('Movies', 'a', 'actors', { limit: 5 })).resolves.toEqualTypeOf<
      PagedResult<DataItemOf<Movie>>
    >();
    expectTypeOf(items.insertReference('Movies', 'actors', 'a', ['b', { _id: 'c' }])).resolves.toEqualTypeOf<void>();
    expectTypeOf(items.removeReference('Movies', 'actors', { _id: 'a' }, 'b')).resolves.toEqualTypeOf<void>();
    expectTypeOf(items.isReferenced('Movies', 'actors', 'a', 'b')).resolves.toEqualTypeOf<boolean>();
    // @ts-expect-error skip is a number
    items.queryReferenced('Movies', 'a', 'actors', { skip: '1' });
  });
});
