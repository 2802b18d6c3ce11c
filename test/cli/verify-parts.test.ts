/**
 * Parts of `sitekit-sdk verify` on their own: the guard that keeps writes in the scratch
 * collection (nothing is sent otherwise), and the three kinds of schema drift, each named with its
 * schema file and path.
 */
import { describe, expect, it } from 'vitest';
import { schemaDrift } from '../../cli/verify/schema-drift.js';
import { closedSchema } from '../../emulator/http/schema-validator.js';
import { SiteCaller } from '../../cli/verify/site-calls.js';
import { ApiKeyStrategy, createClient } from '../../src/index.js';

describe('the site caller', () => {
  it('sends no write outside the scratch collection', async () => {
    const sent: string[] = [];
    const client = createClient({
      baseUrl: 'http://127.0.0.1:9',
      auth: ApiKeyStrategy({ apiKey: 'key', siteId: 'site' }),
      retry: false,
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}', { headers: { 'content-type': 'application/json' } });
      },
    });
    const caller = new SiteCaller(client, { sent: 0, waits: 0, budget: 10 }, async () => {});
    const scratch = 'sitekit_verify_1234';
    for (const [operationId, request] of [
      ['insert', { dataCollectionId: 'Movies', dataItem: { data: {} } }],
      ['truncate', { dataCollectionId: 'Movies' }],
      ['createDataCollection', { collection: { id: 'Movies' } }],
      ['deleteDataCollection', { dataCollectionId: 'Movies' }],
      ['deleteMember', { id: 'member-1' }],
    ] as const)
      await expect(caller.send(operationId, request, scratch)).rejects.toThrow(
        `refusing to send ${operationId} outside the scratch collection ${scratch}`,
      );
    expect(sent).toEqual([]);
    // Reads go anywhere; writes to the scratch collection go.
    await caller.send('count', { dataCollectionId: 'Movies' }, scratch);
    await caller.send('truncate', { dataCollectionId: scratch }, scratch);
    expect(sent).toHaveLength(2);
  });
});

describe('schema drift', () => {
  const item = { id: 'movie-1', dataCollectionId: 'Movies', data: { _id: 'movie-1' } };
  it('names a field the schema lacks, a required field missing and a wrong type, with file and path', () => {
    expect(schemaDrift('get', { dataItem: { ...item, rating: 5 } })).toEqual([
      {
        field: 'dataItem.rating',
        problem: 'is a field the schema does not declare',
        file: 'schema/data-items.yaml',
        schemaPath: 'components.schemas.DataItem.properties.rating',
      },
    ]);
    expect(schemaDrift('getDataCollection', { collection: { displayName: 'Movies' } })).toEqual([
      {
        field: 'collection.id',
        problem: 'is required by the schema but missing',
        file: 'schema/data-collections.yaml',
        schemaPath: 'components.schemas.DataCollection.required',
      },
    ]);
    expect(schemaDrift('get', { dataItem: { ...item, id: 7 } })).toEqual([
      expect.objectContaining({
        field: 'dataItem.id',
        problem: 'is number where the schema says string',
        schemaPath: 'components.schemas.DataItem.properties.id.type',
      }),
    ]);
    // Item data is free-form: any field goes.
    expect(schemaDrift('get', { dataItem: { ...item, data: { _id: 'movie-1', anything: [1] } } })).toEqual([]);
  });
});

describe('the closed schema answers are checked against', () => {
  it('closes each object that lists its properties, not a field named like a keyword', () => {
    const schema = {
      type: 'object',
      properties: {
        properties: { type: 'string' },
        rows: { type: 'array', items: { type: 'object', properties: { a: { type: 'number' } } } },
        free: { type: 'object', additionalProperties: true, properties: { b: { type: 'string' } } },
      },
    };
    expect(closedSchema(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        properties: { type: 'string' },
        rows: {
          type: 'array',
          items: { type: 'object', additionalProperties: false, properties: { a: { type: 'number' } } },
        },
        free: { type: 'object', additionalProperties: true, properties: { b: { type: 'string' } } },
      },
    });
  });
});
