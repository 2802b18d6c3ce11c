/**
 * Security probes (issue 18, findings 2 and 14): field paths and keys that reach a JavaScript
 * prototype (`__proto__`, `constructor`, `prototype`) or that SQLite cannot quote (`\`, NUL...)
 * are refused with a 400 naming the field, everywhere a path or key is walked: patch, item data,
 * filters, sorts, distinct values, aggregations, member queries and `.r` query strings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { callJson, violatedFields } from '../../../helpers/json-calls.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator?.close();
  // Before the fix a probe could pollute this very process (the emulator runs in it): leave it clean.
  for (const name of ['polluted', 'elevated', 'appended', 'counted'])
    delete (Object.prototype as Record<string, unknown>)[name];
});

const post = (path: string, body: unknown) =>
  callJson(emulator, 'POST', path, { body, authorization: emulator.info.apiKey });

const patchOf = (fieldPath: string, modification: Record<string, unknown>) => ({
  dataCollectionId: 'Movies',
  patch: { dataItemId: 'movie-001', fieldModifications: [{ fieldPath, ...modification }] },
});

const MODIFICATIONS: [string, Record<string, unknown>][] = [
  ['SET_FIELD', { action: 'SET_FIELD', setFieldOptions: { value: true } }],
  ['APPEND_TO_ARRAY', { action: 'APPEND_TO_ARRAY', appendToArrayOptions: { value: 1 } }],
  ['INCREMENT_FIELD', { action: 'INCREMENT_FIELD', incrementFieldOptions: { value: 1 } }],
  ['REMOVE_FIELD', { action: 'REMOVE_FIELD' }],
];

describe('patch paths', () => {
  it.each(MODIFICATIONS)('%s on __proto__, constructor or prototype is a 400 on fieldPath', async (_action, change) => {
    for (const fieldPath of ['__proto__.polluted', 'constructor.prototype.polluted', 'title.prototype', '__proto__']) {
      const answer = await post('/wix-data/v2/items/patch', patchOf(fieldPath, change));
      expect(answer.status, fieldPath).toBe(400);
      expect(violatedFields(answer)).toEqual(['patch.fieldModifications.0.fieldPath']);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('bulk patch refuses them too, and the process is never polluted (tokens still issued)', async () => {
    const answer = await post('/wix-data/v2/bulk/items/patch', {
      dataCollectionId: 'Movies',
      patches: [
        {
          dataItemId: 'movie-002',
          fieldModifications: [{ fieldPath: '__proto__.elevated', action: 'SET_FIELD', setFieldOptions: { value: 1 } }],
        },
      ],
    });
    expect(JSON.stringify(answer.body)).toContain('fieldModifications.0.fieldPath');
    expect(({} as Record<string, unknown>).elevated).toBeUndefined();
    const token = await emulator.fetch('/oauth2/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'anonymous' }),
    });
    expect(token.status).toBe(200);
  });

  it('a path with a backslash, a quote or a control character is a 400', async () => {
    for (const fieldPath of ['a\\', 'a"b', 'a\u0000b', 'tags.\n']) {
      const answer = await post('/wix-data/v2/items/patch', patchOf(fieldPath, MODIFICATIONS[0]![1]));
      expect(answer.status, JSON.stringify(fieldPath)).toBe(400);
      expect(violatedFields(answer)).toEqual(['patch.fieldModifications.0.fieldPath']);
    }
  });
});

describe('item data keys', () => {
  it.each([
    ['constructor', { constructor: { polluted: true } }, 'dataItem.data.constructor'],
    ['prototype (nested)', { meta: { prototype: 1 } }, 'dataItem.data.meta'],
    ['a backslash', { 'a\\': 1 }, 'dataItem.data.a\\'],
    ['NUL', { 'a\u0000': 1 }, 'dataItem.data.a\u0000'],
  ])('a key %s is a 400 naming the field', async (_name, data, field) => {
    const answer = await post('/wix-data/v2/items', { dataCollectionId: 'Movies', dataItem: { data } });
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)).toEqual([field]);
  });

  it('fields projections read own fields only', async () => {
    const answer = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Movies',
      query: { filter: { _id: 'movie-001' }, fields: ['title', 'toString', 'constructor'] },
    });
    expect(answer.status).toBe(200);
    const data = (answer.body as unknown as { dataItems: { data: Record<string, unknown> }[] }).dataItems[0]!.data;
    expect(Object.keys(data).sort()).toEqual(['_id', 'title']);
  });
});

/** Each route and body that names a field, with a placeholder for the field name. */
const NAMED_FIELDS: [string, string, (name: string) => unknown, string][] = [
  [
    'a filter',
    '/wix-data/v2/items/query',
    (name) => ({ dataCollectionId: 'Movies', query: { filter: { [name]: 1 } } }),
    'query.filter.',
  ],
  [
    'a nested filter',
    '/wix-data/v2/items/count',
    (name) => ({ dataCollectionId: 'Movies', filter: { $or: [{ [name]: { $gt: 1 } }] } }),
    'filter.$or.0.',
  ],
  [
    'a sort',
    '/wix-data/v2/items/query',
    (name) => ({ dataCollectionId: 'Movies', query: { sort: [{ fieldName: name }] } }),
    'query.sort.0.fieldName',
  ],
  [
    'distinct values',
    '/wix-data/v2/items/query-distinct-values',
    (name) => ({ dataCollectionId: 'Movies', fieldName: name }),
    'fieldName',
  ],
  [
    'a grouping field',
    '/wix-data/v2/items/aggregate',
    (name) => ({ dataCollectionId: 'Movies', aggregation: { groupingFields: [name] } }),
    'aggregation.groupingFields.0',
  ],
  [
    'an operation field',
    '/wix-data/v2/items/aggregate',
    (name) => ({
      dataCollectionId: 'Movies',
      aggregation: { operations: [{ resultFieldName: 'total', sum: { itemFieldName: name } }] },
    }),
    'aggregation.operations.0.sum.itemFieldName',
  ],
  [
    'a result field name',
    '/wix-data/v2/items/aggregate',
    (name) => ({ dataCollectionId: 'Movies', aggregation: { operations: [{ resultFieldName: name, itemCount: {} }] } }),
    'aggregation.operations.0.resultFieldName',
  ],
  ['a member filter', '/members/v1/members/query', (name) => ({ query: { filter: { [name]: 'x' } } }), 'query.filter.'],
  [
    'a member sort',
    '/members/v1/members/query',
    (name) => ({ query: { sort: [{ fieldName: name }] } }),
    'query.sort.0.fieldName',
  ],
];

describe('field names in reads', () => {
  // (`__proto__` as a JSON key never gets this far: the body parser refuses it.)
  const names = ['a\\', 'year\\', 'a\u0000b', 'constructor', 'title.prototype', 'a\u001f'];
  it.each(NAMED_FIELDS)(
    '%s: every bad name is a 400 naming the field, never a 500',
    async (_name, path, body, field) => {
      for (const name of names) {
        const answer = await post(path, body(name));
        expect(answer.status, `${path} ${JSON.stringify(name)}: ${JSON.stringify(answer.body)}`).toBe(400);
        expect(violatedFields(answer)).toEqual([field.endsWith('.') ? field + name : field]);
      }
    },
  );
});

describe('field names given as values', () => {
  it('__proto__ as a sort key or a distinct field is a 400', async () => {
    const sort = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Movies',
      query: { sort: [{ fieldName: '__proto__' }] },
    });
    expect(violatedFields(sort)).toEqual(['query.sort.0.fieldName']);
    const distinct = await post('/wix-data/v2/items/query-distinct-values', {
      dataCollectionId: 'Movies',
      fieldName: 'genres.__proto__',
    });
    expect(violatedFields(distinct)).toEqual(['fieldName']);
  });
});

describe('query strings', () => {
  it('a .r carrying __proto__ is a 400 on .r, not a request with an inherited collection', async () => {
    const request = Buffer.from('{"__proto__":{"dataCollectionId":"Movies"}}').toString('base64url');
    const response = await emulator.fetch(`/wix-data/v2/items/query?.r=${request}`, {
      headers: { authorization: emulator.info.apiKey },
    });
    expect(response.status).toBe(400);
    expect(violatedFields({ status: response.status, body: await response.json() })).toEqual(['.r']);
  });
});
