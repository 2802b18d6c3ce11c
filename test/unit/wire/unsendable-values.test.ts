/**
 * NaN, ±Infinity and invalid dates in item data or filters: JSON would turn them into `null`, so
 * they are refused before any request with a RequestError naming the field. Float fields of
 * entities (`numberRange.max`) still travel as the strings the wire allows.
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { isRequestError, type RequestError } from '../../../src/errors/index.js';
import { encodeItemData } from '../../../src/wire/index.js';
import { BASE, capturePosts, useNock } from '../../helpers/capture.js';
import { testClient } from '../../helpers/clients.js';

const client = testClient();

/** The RequestError `run` rejects with, checking that nothing was sent. */
async function refusal(run: () => Promise<unknown>): Promise<RequestError> {
  const scope = nock(BASE).post(/.*/).reply(200, {});
  const error = await run().catch((e: unknown) => e);
  expect(isRequestError(error)).toBe(true);
  expect(scope.isDone()).toBe(false);
  return error as RequestError;
}

useNock();

describe('values JSON cannot carry', () => {
  it.each([
    ['NaN', { rating: NaN }, 'rating', 'NaN'],
    ['Infinity', { rating: Infinity }, 'rating', 'Infinity'],
    ['-Infinity in an array', { scores: [1, -Infinity] }, 'scores[1]', '-Infinity'],
    ['an invalid Date, nested', { release: { date: new Date('not a date') } }, 'release.date', 'an invalid Date'],
  ])('item data with %s is refused, naming the field', async (_, item, field, problem) => {
    const error = await refusal(() => client.items.insert('Movies', { title: 'Jaws', ...item }));
    expect(error.field).toBe(field);
    expect(error.message).toBe(`${field} is ${problem}: item data and filters travel as JSON, which cannot carry it`);
  });

  it('filters: a query, a count and an aggregation refuse them too', async () => {
    expect((await refusal(() => client.items.query('Movies').gt('rating', NaN).find())).field).toBe('rating.$gt');
    expect(
      (await refusal(() => client.items.count('Movies', { filter: { $or: [{ a: 1 }, { b: Infinity }] } }))).field,
    ).toBe('$or[1].b');
    expect(
      (
        await refusal(() =>
          client.items
            .aggregate('Movies')
            .filter(client.items.filter().eq('day', new Date(NaN)))
            .run(),
        )
      ).field,
    ).toBe('day');
  });

  it('patch values and bulk items refuse them too', async () => {
    expect((await refusal(() => client.items.patch('Movies', 'm1').setField('rating', NaN).run())).field).toBe('value');
    expect((await refusal(() => client.items.bulkInsert('Movies', [{ a: 1 }, { a: NaN }]))).field).toBe('a');
  });

  it('finite numbers and valid dates pass; the codec works standalone', () => {
    const when = new Date('2024-01-01T00:00:00.000Z');
    expect(encodeItemData({ n: 1.5, when, list: [0, -2] })).toStrictEqual({
      n: 1.5,
      when: { $date: when.toISOString() },
      list: [0, -2],
    });
    expect(() => encodeItemData(NaN)).toThrow('value is NaN');
  });

  it('entity float fields still travel as the strings the wire allows', async () => {
    const { bodies } = capturePosts('/wix-data/v2/collections', { collection: { id: 'c' } });
    await client.collections.createDataCollection({
      _id: 'c',
      fields: [{ key: 'price', type: 'NUMBER', numberRange: { min: -Infinity, max: NaN } }],
    } as never);
    expect(bodies[0].collection.fields[0].numberRange).toEqual({ min: '-Infinity', max: 'NaN' });
  });
});
