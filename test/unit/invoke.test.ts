/**
 * The one input rule of the generated methods: every argument checked against what the schema
 * says it must be, before any request, with a RequestError naming the method and the argument.
 */
import { describe, expect, it } from 'vitest';
import { isRequestError, type RequestError } from '../../src/errors/index.js';
import { captureAll, useNock } from '../helpers/capture.js';
import { testClient } from '../helpers/clients.js';

const client = testClient();

/** What plain-JS callers can pass that the types would refuse. */
const untyped = client as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;

useNock();

describe('generated methods: one input rule', () => {
  it.each([
    [
      'an id that is not a string',
      () => untyped.items!.get!('Movies', 42),
      'get: dataItemId must be a non-empty string',
      'dataItemId',
    ],
    [
      'a member id that is not a string',
      () => untyped.members!.getMember!(7),
      'getMember: id must be a non-empty string',
      'id',
    ],
    [
      'a collection id that is not a string',
      () => untyped.items!.insert!(5, { a: 1 }),
      'insert: dataCollectionId must be a non-empty string',
      'dataCollectionId',
    ],
    [
      'an item that is not an object',
      () => untyped.items!.insert!('Movies', 'Jaws'),
      'insert: dataItem must be an object',
      'dataItem',
    ],
    ['an array item', () => untyped.items!.save!('Movies', [{ a: 1 }]), 'save: dataItem must be an object', 'dataItem'],
    [
      'update without _id',
      () => untyped.items!.update!('Movies', { title: 'Jaws' }),
      'update: dataItem._id must be a non-empty string',
      'dataItem._id',
    ],
    [
      'a missing required argument',
      () => untyped.media!.getFileDescriptor!(),
      'getFileDescriptor: fileId must be given',
      'fileId',
    ],
    [
      'a list that is not an array',
      () => untyped.media!.getFileDescriptors!('f1'),
      'getFileDescriptors: fileIds must be an array',
      'fileIds',
    ],
    [
      'options that are not an object',
      () => untyped.collections!.getDataCollection!('c', 'yes'),
      'getDataCollection: options must be an object',
      'options',
    ],
    [
      'call options that are not an object',
      () => untyped.collections!.deleteDataCollection!('c', 5),
      'deleteDataCollection: options must be an object',
      'options',
    ],
    [
      'a reference that is neither an id nor an item',
      () => untyped.items!.isReferenced!('Movies', 'actors', { title: 'x' }, 'a1'),
      'isReferenced: referringItemId must be a non-empty string',
      'referringItemId',
    ],
  ])('%s is refused before any request', async (_, call, message, field) => {
    const requests = captureAll();
    const error = (await call().catch((e: unknown) => e)) as RequestError;
    expect(isRequestError(error)).toBe(true);
    expect(error.message).toBe(message);
    expect(error.field).toBe(field);
    expect(requests).toHaveLength(0);
  });

  it('null options are accepted by every method alike, as no options', async () => {
    const requests = captureAll((request) => [
      200,
      request.url.includes('collections') ? { collection: { id: 'c' } } : { dataItem: { id: 'a', data: { _id: 'a' } } },
    ]);
    await untyped.collections!.getDataCollection!('c', null);
    await untyped.collections!.deleteDataCollection!('c', null);
    await untyped.items!.get!('Movies', 'a', null);
    expect(requests).toHaveLength(3);
  });

  it('items and ids are accepted wherever the schema marks an item reference', async () => {
    const requests = captureAll(() => [200, { isReferenced: true, dataItemReferences: [] }]);
    await client.items.isReferenced('Movies', 'actors', { _id: 'm1' }, 'a1');
    await client.items.replaceReferences('Movies', 'actors', 'm1', ['a1', { _id: 'a2' }]);
    expect(requests.map((request) => request.body)).toEqual([
      { dataCollectionId: 'Movies', referringItemFieldName: 'actors', referringItemId: 'm1', referencedItemId: 'a1' },
      {
        dataCollectionId: 'Movies',
        referringItemFieldName: 'actors',
        referringItemId: 'm1',
        newReferencedItemIds: ['a1', 'a2'],
      },
    ]);
  });
});
