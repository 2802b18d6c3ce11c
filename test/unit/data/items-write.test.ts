/** items: aggregate and patch builders, references, bulk writes, and the generated single-item methods. */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { BASE, capturePosts, useNock } from '../../helpers/capture.js';
import { isRequestError } from '../../../src/errors/index.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();
const items = client.items;

const capture = (path: string, reply: object = {}) => capturePosts(path, reply);

/** Expects `run` to reject with RequestError without sending anything. */
async function refused(run: () => unknown) {
  const scope = nock(BASE).post(/.*/).reply(200, {});
  let error: unknown;
  try {
    await run();
  } catch (e) {
    error = e;
  }
  expect(isRequestError(error)).toBe(true);
  expect(scope.isDone()).toBe(false);
}

useNock();

describe('aggregate', () => {
  const PATH = '/wix-data/v2/items/aggregate';

  it('encodes every builder method', async () => {
    const { bodies } = capture(PATH, { results: [] });
    await items
      .aggregate('Cities')
      .filter(items.filter().gt('year', 2000))
      .filter({ country: 'US' })
      .group('state')
      .sum('population')
      .avg('population')
      .min('population')
      .max('population', 'biggest')
      .count()
      .having(items.filter().gt('populationSum', 1000))
      .descending('populationSum')
      .ascending('state')
      .limit(5)
      .skip(10)
      .run({ consistentRead: true });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Cities',
      initialFilter: { year: { $gt: 2000 }, country: 'US' },
      aggregation: {
        groupingFields: ['state'],
        operations: [
          { resultFieldName: 'populationSum', sum: { itemFieldName: 'population' } },
          { resultFieldName: 'populationAvg', average: { itemFieldName: 'population' } },
          { resultFieldName: 'populationMin', min: { itemFieldName: 'population' } },
          { resultFieldName: 'biggest', max: { itemFieldName: 'population' } },
          { resultFieldName: 'count', itemCount: {} },
        ],
      },
      finalFilter: { populationSum: { $gt: 1000 } },
      sort: [
        { fieldName: 'populationSum', order: 'DESC' },
        { fieldName: 'state', order: 'ASC' },
      ],
      paging: { limit: 5, offset: 10 },
      consistentRead: true,
    });
  });

  it('the bare aggregation, with dates in filters', async () => {
    const { bodies } = capture(PATH, {});
    await items
      .aggregate('Cities')
      .filter(items.filter().lt('at', new Date('2000-01-01T00:00:00.000Z')))
      .run();
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Cities',
      initialFilter: { at: { $lt: { $date: '2000-01-01T00:00:00.000Z' } } },
      aggregation: { groupingFields: [], operations: [] },
    });
  });

  it('rows carry _id of their group (sent wrapped: {_id: {state}}) and its field; the result pages like find()', async () => {
    capture(PATH, {
      results: [
        { _id: { state: 'NY' }, populationSum: 10, last: { $date: '2010-01-01T00:00:00.000Z' } },
        { _id: { state: 'CA' }, populationSum: 20 },
      ],
      pagingMetadata: { count: 2, total: 3 },
    });
    const r = await items.aggregate('Cities').group('state').sum('population').max('updated', 'last').limit(2).run();
    expect(r.items).toEqual([
      { _id: 'NY', state: 'NY', populationSum: 10, last: new Date('2010-01-01T00:00:00.000Z') },
      { _id: 'CA', state: 'CA', populationSum: 20 },
    ]);
    expect(r).toMatchObject({ length: 2, totalCount: 3, totalPages: 2, currentPage: 0 });
    expect(r.hasNext()).toBe(true);
    const { bodies } = capture(PATH, {
      results: [{ _id: { state: 'TX' }, populationSum: 5 }],
      pagingMetadata: { total: 3 },
    });
    const next = await r.next();
    expect(bodies[0].paging).toEqual({ limit: 2, offset: 2 });
    expect(next.items).toEqual([{ _id: 'TX', state: 'TX', populationSum: 5 }]);
  });

  it('grouped by several fields, _id is an object; without a group there is none', async () => {
    capture(PATH, { results: [{ _id: { state: 'NY', year: 2000 }, count: 2 }] });
    const grouped = await items.aggregate('Cities').group('state', 'year').count().run();
    expect(grouped.items).toEqual([{ _id: { state: 'NY', year: 2000 }, state: 'NY', year: 2000, count: 2 }]);
    capture(PATH, { results: [{ count: 9 }] });
    expect((await items.aggregate('Cities').count().run()).items).toEqual([{ count: 9 }]);
  });

  it('is immutable', async () => {
    const base = items.aggregate('Cities').group('state');
    base.sum('population').limit(1);
    const { bodies } = capture(PATH, {});
    await base.run();
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Cities',
      aggregation: { groupingFields: ['state'], operations: [] },
    });
  });

  it('refuses bad usage before any request', async () => {
    const a = () => items.aggregate('Cities') as any;
    await refused(() => a().group('a').group('b'));
    await refused(() => a().sum('a').sum('a'));
    await refused(() => a().sum('a').max('b', 'aSum'));
    await refused(() => a().count().count());
    await refused(() => a().sum(''));
    await refused(() => a().avg('a', 42));
    await refused(() => a().group(''));
    await refused(() => a().limit(0));
    await refused(() => a().skip(-2));
    await refused(() => items.aggregate(''));
  });
});

describe('patch', () => {
  const PATH = '/wix-data/v2/items/patch';

  it('encodes each modification, in order; run() resolves the patched item', async () => {
    const when = new Date('2024-01-01T00:00:00.000Z');
    const { bodies } = capture(PATH, {
      dataItem: { id: 'm1', data: { _id: 'm1', views: 11, seen: { $date: when.toISOString() } } },
    });
    const item = await items
      .patch('Movies', 'm1')
      .setField('seen', when)
      .incrementField('views', 1)
      .appendToArray('tags', 'new')
      .removeFromArray('tags', 'old')
      .removeField('draft')
      .run();
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      patch: {
        dataItemId: 'm1',
        fieldModifications: [
          { fieldPath: 'seen', action: 'SET_FIELD', setFieldOptions: { value: { $date: '2024-01-01T00:00:00.000Z' } } },
          { fieldPath: 'views', action: 'INCREMENT_FIELD', incrementFieldOptions: { value: 1 } },
          { fieldPath: 'tags', action: 'APPEND_TO_ARRAY', appendToArrayOptions: { value: 'new' } },
          { fieldPath: 'tags', action: 'REMOVE_FROM_ARRAY', removeFromArrayOptions: { value: 'old' } },
          { fieldPath: 'draft', action: 'REMOVE_FIELD' },
        ],
      },
    });
    expect(item).toEqual({ _id: 'm1', views: 11, seen: when });
  });

  it('is immutable', async () => {
    const base = items.patch('Movies', 'm1').setField('a', 1);
    base.setField('b', 2);
    const { bodies } = capture(PATH, { dataItem: { id: 'm1', data: { _id: 'm1' } } });
    await base.run();
    expect(bodies[0].patch.fieldModifications).toEqual([
      { fieldPath: 'a', action: 'SET_FIELD', setFieldOptions: { value: 1 } },
    ]);
  });

  it('refuses bad usage before any request', async () => {
    await refused(() => items.patch('Movies', 'm1').run());
    await refused(() => items.patch('Movies', 'm1').incrementField('views', 'one' as never));
    await refused(() => items.patch('Movies', 'm1').incrementField('views', NaN));
    await refused(() => (items.patch('Movies', 'm1') as any).setField('', 1));
    await refused(() => items.patch('Movies', ''));
    await refused(() => items.patch('', 'm1'));
  });

  it('incrementField names its argument: by must be a finite number', () => {
    expect(() => items.patch('Movies', 'm1').incrementField('views', 'one' as never)).toThrow(
      'incrementField: by must be a finite number',
    );
  });
});

describe('references', () => {
  it('queryReferenced pages the referenced items', async () => {
    const { bodies } = capture('/wix-data/v2/items/query-referenced', {
      results: [
        { dataItem: { id: 'a1', data: { _id: 'a1', name: 'Roy' } } },
        { unresolvedReference: { referencedItemId: 'gone' } },
        { dataItem: { id: 'a2', data: { _id: 'a2' } } },
      ],
      pagingMetadata: { count: 3, total: 7 },
    });
    const r = await items.queryReferenced('Movies', { _id: 'm1' }, 'actors', {
      limit: 3,
      skip: 3,
      order: 'DESC',
      returnTotalCount: true,
    });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      referringItemId: 'm1',
      referringItemFieldName: 'actors',
      order: 'DESC',
      returnTotalCount: true,
      paging: { limit: 3, offset: 3 },
    });
    expect(r.items).toEqual([{ _id: 'a1', name: 'Roy' }, { _id: 'a2' }]);
    expect(r).toMatchObject({ totalCount: 7, currentPage: 1, totalPages: 3 });
  });

  it('queryReferencedItems (the official form): referring item IDs, results with their referring item, unresolved ones kept', async () => {
    const { bodies } = capture('/wix-data/v2/items/query-referenced', {
      results: [
        { referringItemId: 'm1', dataItem: { id: 'a1', data: { _id: 'a1', name: 'Roy' } } },
        { unresolvedReference: { referencedItemId: 'gone', referringItemId: 'm2' } },
      ],
      pagingMetadata: { count: 2, cursors: { next: 'c2' } },
    });
    const page = await items.queryReferencedItems('Movies', ['m1', { _id: 'm2' }], 'actors', {
      cursorPaging: { limit: 2 },
      order: 'DESC',
    });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      referringItemIds: ['m1', 'm2'],
      referringItemFieldName: 'actors',
      cursorPaging: { limit: 2 },
      order: 'DESC',
    });
    expect(page).toEqual({
      results: [
        { referringItemId: 'm1', item: { _id: 'a1', name: 'Roy' } },
        { referringItemId: 'm2', unresolvedReference: { referencedItemId: 'gone', unauthorized: false } },
      ],
      pagingMetadata: { count: 2, cursors: { next: 'c2' } },
    });
  });

  it('queryReferenced without options sends no paging', async () => {
    const { bodies } = capture('/wix-data/v2/items/query-referenced', {});
    const r = await items.queryReferenced('Movies', 'm1', 'actors');
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', referringItemId: 'm1', referringItemFieldName: 'actors' });
    expect(r.items).toEqual([]);
  });

  it('insertReference: one id → insert-reference, several → bulk insert-references', async () => {
    const one = capture('/wix-data/v2/items/insert-reference', {});
    const many = capture('/wix-data/v2/bulk/items/insert-references', {});
    expect(await items.insertReference('Movies', 'actors', 'm1', 'a1')).toBeUndefined();
    await items.insertReference('Movies', 'actors', { _id: 'm1' }, ['a1', { _id: 'a2' }]);
    expect(one.bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      dataItemReference: { referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a1' },
    });
    expect(many.bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      dataItemReferences: [
        { referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a1' },
        { referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a2' },
      ],
    });
  });

  it('removeReference: one id or several → the bulk remove-references form, as the official client sends it', async () => {
    const many = capturePosts('/wix-data/v2/bulk/items/remove-references', {}, {});
    await items.removeReference('Movies', 'actors', 'm1', 'a1');
    await items.removeReference('Movies', 'actors', { _id: 'm1' }, ['a1', { _id: 'a2' }]);
    expect(many.bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      dataItemReferences: [{ referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a1' }],
    });
    expect(many.bodies[1]).toEqual({
      dataCollectionId: 'Movies',
      dataItemReferences: [
        { referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a1' },
        { referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a2' },
      ],
    });
  });

  it('isReferenced and replaceReferences (generated)', async () => {
    const is = capture('/wix-data/v2/items/is-referenced', { isReferenced: true });
    const replace = capture('/wix-data/v2/items/replace-references', { dataItemReferences: [] });
    expect(await items.isReferenced('Movies', 'actors', 'm1', 'a1')).toBe(true);
    await items.replaceReferences('Movies', 'actors', 'm1', ['a3']);
    expect(is.bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      referringItemFieldName: 'actors',
      referringItemId: 'm1',
      referencedItemId: 'a1',
    });
    expect(replace.bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      referringItemFieldName: 'actors',
      referringItemId: 'm1',
      newReferencedItemIds: ['a3'],
    });
  });

  it('refuses bad input before any request', async () => {
    await refused(() => items.insertReference('Movies', 'actors', 'm1', []));
    await refused(() => items.insertReference('Movies', '', 'm1', 'a1'));
    await refused(() => items.removeReference('Movies', 'actors', '', 'a1'));
    await refused(() => items.removeReference('', 'actors', 'm1', 'a1'));
    await refused(() => items.queryReferenced('Movies', 'm1', 'actors', { limit: 0 }));
    await refused(() => items.queryReferenced('Movies', 'm1', 'actors', { skip: -1 }));
    await refused(() => items.queryReferencedItems('Movies', [], 'actors'));
    await refused(() => items.queryReferencedItems('Movies', ['m1', ''], 'actors'));
    await refused(() => items.queryReferencedItems('Movies', 'm1', ''));
  });
});

describe('bulk writes', () => {
  const failure = (originalIndex: number, code: string, description: string) => ({
    action: 'INSERT',
    itemMetadata: { originalIndex, success: false, error: { code, description } },
  });

  it('bulkInsert: items on the wire, successes and failures mapped to the official shape', async () => {
    const input = [{ _id: 'a', at: new Date('2020-01-01T00:00:00.000Z') }, { title: 'no id' }, { _id: 'dup' }];
    const { bodies } = capture('/wix-data/v2/bulk/items/insert', {
      results: [
        { action: 'INSERT', itemMetadata: { id: 'a', originalIndex: 0, success: true } },
        {
          action: 'INSERT',
          itemMetadata: { id: 'gen1', originalIndex: 1, success: true },
          dataItem: { id: 'gen1', data: { _id: 'gen1' } },
        },
        failure(2, 'WDE0074', 'Item already exists'),
      ],
      bulkActionMetadata: { totalSuccesses: 2, totalFailures: 1 },
    });
    const r = await items.bulkInsert('Movies', input, { returnEntity: true });
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      dataItems: [
        { id: 'a', data: { _id: 'a', at: { $date: '2020-01-01T00:00:00.000Z' } } },
        { data: { title: 'no id' } },
        { id: 'dup', data: { _id: 'dup' } },
      ],
      returnEntity: true,
    });
    expect(r).toEqual({
      inserted: 2,
      updated: 0,
      removed: 0,
      skipped: 0,
      errors: [{ index: 2, code: 'WDE0074', message: 'Item already exists', item: input[2] }],
      insertedItemIds: ['a', 'gen1'],
      updatedItemIds: [],
      removedItemIds: [],
    });
    expect(input[0]!.at).toBeInstanceOf(Date);
  });

  it('bulkUpdate counts updates; a missing action defaults to the operation', async () => {
    const { bodies } = capture('/wix-data/v2/bulk/items/update', {
      results: [
        { itemMetadata: { id: 'a', originalIndex: 0, success: true } },
        { itemMetadata: { id: 'b', originalIndex: 1, success: false, error: { code: 'WDE0073' } } },
      ],
    });
    const r = await items.bulkUpdate('Movies', [{ _id: 'a' }, { _id: 'b' }]);
    expect(bodies[0].dataItems).toEqual([
      { id: 'a', data: { _id: 'a' } },
      { id: 'b', data: { _id: 'b' } },
    ]);
    expect(r).toMatchObject({
      updated: 1,
      updatedItemIds: ['a'],
      errors: [{ index: 1, code: 'WDE0073', message: 'WDE0073', item: { _id: 'b' } }],
    });
  });

  it('bulkSave splits inserts and updates by action', async () => {
    capture('/wix-data/v2/bulk/items/save', {
      results: [
        { action: 'INSERT', itemMetadata: { id: 'n', originalIndex: 0, success: true } },
        { action: 'UPDATE', itemMetadata: { id: 'o', originalIndex: 1, success: true } },
        { itemMetadata: { id: 'same', originalIndex: 2, success: true } },
      ],
    });
    const r = await items.bulkSave('Movies', [{ _id: 'n' }, { _id: 'o' }, { _id: 'same' }]);
    expect(r).toMatchObject({
      inserted: 1,
      updated: 1,
      skipped: 1,
      insertedItemIds: ['n'],
      updatedItemIds: ['o'],
      errors: [],
    });
  });

  it('bulkRemove sends the ids and counts removals', async () => {
    const { bodies } = capture('/wix-data/v2/bulk/items/remove', {
      results: [
        { action: 'DELETE', itemMetadata: { id: 'a', originalIndex: 0, success: true } },
        {
          action: 'DELETE',
          itemMetadata: {
            id: 'zz',
            originalIndex: 1,
            success: false,
            error: { code: 'WDE0073', description: 'Item not found' },
          },
        },
      ],
    });
    const r = await items.bulkRemove('Movies', ['a', 'zz']);
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', dataItemIds: ['a', 'zz'] });
    expect(r).toEqual({
      inserted: 0,
      updated: 0,
      removed: 1,
      skipped: 0,
      errors: [{ index: 1, code: 'WDE0073', message: 'Item not found', item: 'zz' }],
      insertedItemIds: [],
      updatedItemIds: [],
      removedItemIds: ['a'],
    });
  });

  it('bulkPatch: the same modifications for each item on the wire (official FieldModification in); patched items count as updated', async () => {
    const when = new Date('2021-02-03T00:00:00.000Z');
    const { bodies } = capture('/wix-data/v2/bulk/items/patch', {
      results: [
        { action: 'PATCH', itemMetadata: { id: 'a', originalIndex: 0, success: true } },
        {
          action: 'PATCH',
          itemMetadata: { originalIndex: 1, success: false, error: { code: 'WDE0073', description: 'Not found' } },
        },
      ],
    });
    const r = await items.bulkPatch(
      'Movies',
      ['a', 'ghost'],
      [
        { fieldPath: 'plays', action: 'INCREMENT_FIELD', value: 2 },
        { fieldPath: 'seen', action: 'SET_FIELD', value: when },
        { fieldPath: 'draft', action: 'REMOVE_FIELD' },
      ],
    );
    const fieldModifications = [
      { fieldPath: 'plays', action: 'INCREMENT_FIELD', incrementFieldOptions: { value: 2 } },
      { fieldPath: 'seen', action: 'SET_FIELD', setFieldOptions: { value: { $date: '2021-02-03T00:00:00.000Z' } } },
      { fieldPath: 'draft', action: 'REMOVE_FIELD' },
    ];
    expect(bodies[0]).toEqual({
      dataCollectionId: 'Movies',
      patches: [
        { dataItemId: 'a', fieldModifications },
        { dataItemId: 'ghost', fieldModifications },
      ],
    });
    expect(r).toMatchObject({
      updated: 1,
      updatedItemIds: ['a'],
      errors: [{ index: 1, code: 'WDE0073', message: 'Not found', item: 'ghost' }],
    });
  });

  it('bulkPatch(collectionId, itemIds), the builder form, sends what the direct form sends for the same modifications', async () => {
    const { bodies } = capturePosts('/wix-data/v2/bulk/items/patch', { results: [] }, { results: [] });
    const when = new Date('2021-02-03T00:00:00.000Z');
    const builder = items.bulkPatch('Movies', ['a', 'b']);
    const result = await builder.incrementField('plays', 2).setField('seen', when).removeField('draft').run();
    await items.bulkPatch(
      'Movies',
      ['a', 'b'],
      [
        { fieldPath: 'plays', action: 'INCREMENT_FIELD', value: 2 },
        { fieldPath: 'seen', action: 'SET_FIELD', value: when },
        { fieldPath: 'draft', action: 'REMOVE_FIELD' },
      ],
    );
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0].patches).toHaveLength(2);
    expect(result).toMatchObject({ updated: 0, errors: [] });
    // Immutable: the builder itself kept no modification.
    await refused(() => builder.run());
  });

  it('the builder form checks its collection ID at once, the item IDs and modifications before any request', async () => {
    expect(() => items.bulkPatch('', ['a'])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
    await refused(() => items.bulkPatch('Movies', ['a']).run());
    await refused(() => items.bulkPatch('Movies', ['a', '']).removeField('n').run());
    await refused(() =>
      items
        .bulkPatch('Movies', 'a' as never)
        .removeField('n')
        .run(),
    );
    await refused(() => items.bulkPatch('Movies', ['a']).incrementField('n', Number.NaN).run());
  });

  it('refuses bad input before any request', async () => {
    await refused(() => items.bulkPatch('Movies', ['a'], []));
    await refused(() => items.bulkPatch('Movies', ['a', ''], [{ fieldPath: 'n', action: 'REMOVE_FIELD' }]));
    await refused(() => items.bulkPatch('Movies', ['a'], [{ fieldPath: 'n', action: 'RENAME' } as never]));
    await refused(() => items.bulkPatch('Movies', 'a' as never, [{ fieldPath: 'n', action: 'REMOVE_FIELD' }]));
    await refused(() => items.bulkInsert('Movies', 'x' as never));
    await refused(() => items.bulkRemove('', ['a']));
  });
});

describe('single items (generated methods)', () => {
  it('insert sends {dataCollectionId, dataItem: {id?, data}} and resolves the public item', async () => {
    const { bodies } = capture('/wix-data/v2/items', {
      dataItem: {
        id: 'gen',
        dataCollectionId: 'Movies',
        data: { _id: 'gen', title: 'Jaws', _createdDate: { $date: '2024-01-01T00:00:00.000Z' } },
      },
    });
    const item = await items.insert('Movies', { title: 'Jaws' });
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', dataItem: { data: { title: 'Jaws' } } });
    expect(item).toEqual({ _id: 'gen', title: 'Jaws', _createdDate: new Date('2024-01-01T00:00:00.000Z') });
  });

  it('get of a missing item resolves null', async () => {
    nock(BASE)
      .get('/wix-data/v2/items/nope')
      .query({ dataCollectionId: 'Movies' })
      .reply(404, {
        message: 'Item not found',
        details: { applicationError: { code: 'WDE0073', description: 'Item not found' } },
      });
    expect(await items.get('Movies', 'nope')).toBeNull();
  });

  it('only WDE0073 means missing: another 404 (no such collection, a bare 404 from a wrong host) throws', async () => {
    nock(BASE).get('/wix-data/v2/items/nope').query(true).reply(404);
    await expect(items.get('Movies', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    nock(BASE)
      .post('/wix-data/v2/items/remove')
      .reply(404, {
        message: 'Collection does not exist',
        details: { applicationError: { code: 'WDE0025', description: 'no collection' } },
      });
    await expect(items.remove('Typo', 'x')).rejects.toMatchObject({ code: 'WDE0025' });
  });

  it('get of an existing item resolves the public item', async () => {
    nock(BASE)
      .get('/wix-data/v2/items/m1')
      .query({ dataCollectionId: 'Movies' })
      .reply(200, { dataItem: { id: 'm1', data: { _id: 'm1', at: { $date: '2024-01-01T00:00:00.000Z' } } } });
    expect(await items.get('Movies', 'm1')).toEqual({ _id: 'm1', at: new Date('2024-01-01T00:00:00.000Z') });
  });

  it('remove of a missing item resolves null', async () => {
    const bodies: unknown[] = [];
    nock(BASE)
      .post('/wix-data/v2/items/remove', (b) => (bodies.push(b), true))
      .reply(404, {
        message: 'Item not found',
        details: { applicationError: { code: 'WDE0073', description: 'Item not found' } },
      });
    expect(await items.remove('Movies', 'nope')).toBeNull();
    expect(bodies[0]).toEqual({ dataCollectionId: 'Movies', dataItemId: 'nope' });
  });

  it('other errors still reject', async () => {
    nock(BASE).get('/wix-data/v2/items/m1').query(true).reply(403, { message: 'Forbidden' });
    await expect(items.get('Movies', 'm1')).rejects.toMatchObject({ status: 403 });
  });
});

describe('review follow-ups', () => {
  it('isReferenced and replaceReferences accept items ({_id}) as well as ids', async () => {
    const a = capture('/wix-data/v2/items/is-referenced', { isReferenced: true });
    expect(await items.isReferenced('M', 'f', { _id: 'l' }, { _id: 'r' })).toBe(true);
    expect(a.bodies[0]).toEqual({
      dataCollectionId: 'M',
      referringItemFieldName: 'f',
      referringItemId: 'l',
      referencedItemId: 'r',
    });
    const b = capture('/wix-data/v2/items/replace-references');
    await items.replaceReferences('M', 'f', 'l', [{ _id: 'r1' }, 'r2']);
    expect(b.bodies[0]).toEqual({
      dataCollectionId: 'M',
      referringItemFieldName: 'f',
      referringItemId: 'l',
      newReferencedItemIds: ['r1', 'r2'],
    });
  });

  it('query(id, null) is the builder; a cyclic argument is a RequestError, not a RangeError', async () => {
    expect(typeof (items.query('M', null as never) as { find?: unknown }).find).toBe('function');
    const member: Record<string, unknown> = { profile: {} };
    member.self = member;
    const c = testClient();
    await expect(c.members.createMember({ member } as never)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
