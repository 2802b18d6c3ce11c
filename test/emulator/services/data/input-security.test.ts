/**
 * Security probes (issue 18, findings 8, 14, 15 and 16): hostile input to the data routes is a
 * 400 naming the field, never a 500, and answers in well under 2 s. Deep items are refused on
 * write and, when a store already holds one, reads still work; `$and`/`$or` term counts are
 * bounded; cursors are untrusted input (their offset, limit and saved request checked, the page
 * limit of 1,000 holding whatever they say); INCREMENT_FIELD never overflows into `null`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';
import { type Answer, callJson, violatedFields } from '../../../helpers/json-calls.js';

let emulator: TestEmulator;
let visitorToken: string;
beforeAll(async () => {
  emulator = await startEmulator();
  const token = await emulator.fetch('/oauth2/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'anonymous' }),
  });
  visitorToken = ((await token.json()) as { access_token: string }).access_token;
  await post('/wix-data/v2/collections', {
    collection: {
      id: 'Guestbook',
      fields: [{ key: 'title', type: 'TEXT' }],
      permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ADMIN' },
    },
  });
});
afterAll(() => emulator?.close());

/** The longest a hostile request may take (the bar). */
const HOSTILE_REQUEST_MS = 2000;

/** An answer and how long it took. */
interface TimedAnswer extends Answer {
  milliseconds: number;
}

/** POSTs `body` (a string is sent as is) with the API key, or with `authorization` when given. */
async function post(path: string, body: unknown, authorization = emulator.info.apiKey): Promise<TimedAnswer> {
  const started = performance.now();
  const answer = await callJson(emulator, 'POST', path, { body, authorization });
  return { ...answer, milliseconds: performance.now() - started };
}

/** `{"a":{"a":...1}}`, `levels` objects deep, as text (JSON.stringify would overflow the stack). */
const nested = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

/** Every filtered, sorted and grouped read of a collection, each of which must answer 200. */
async function readsOf(collectionId: string): Promise<Answer[]> {
  return Promise.all([
    post('/wix-data/v2/items/query', { dataCollectionId: collectionId, query: { filter: { title: { $ne: 'x' } } } }),
    post('/wix-data/v2/items/query', { dataCollectionId: collectionId, query: { sort: [{ fieldName: 'deep' }] } }),
    post('/wix-data/v2/items/count', { dataCollectionId: collectionId, filter: { deep: { $exists: true } } }),
    post('/wix-data/v2/items/query-distinct-values', { dataCollectionId: collectionId, fieldName: 'title' }),
    post('/wix-data/v2/items/aggregate', {
      dataCollectionId: collectionId,
      aggregation: { groupingFields: ['title'], operations: [{ resultFieldName: 'count', itemCount: {} }] },
    }),
  ]);
}

describe('deep items (finding 8)', () => {
  it("a visitor's 1,000-level item is a 400 naming the field, and the collection's reads still answer", async () => {
    const insert = (levels: number) =>
      post(
        '/wix-data/v2/items',
        `{"dataCollectionId":"Guestbook","dataItem":{"data":{"title":"deep","deep":${nested(levels)}}}}`,
        visitorToken,
      );
    const refused = await insert(1000);
    expect(refused.status).toBe(400);
    expect(violatedFields(refused)).toEqual(['dataItem.data.deep']);
    // The item's data is level 1: 99 more levels are the most a value may add.
    expect((await insert(99)).status).toBe(200);
    expect((await insert(100)).status).toBe(400);
    for (const read of await readsOf('Guestbook')) expect(read.status, JSON.stringify(read.body)).toBe(200);
  });

  it('a 100,000-level value is a 400 in well under 2 s (insert, bulk insert, patch, filter)', async () => {
    const deep = nested(100_000);
    const answers = await Promise.all([
      post('/wix-data/v2/items', `{"dataCollectionId":"Guestbook","dataItem":{"data":{"deep":${deep}}}}`),
      post(
        '/wix-data/v2/bulk/items/insert',
        `{"dataCollectionId":"Guestbook","dataItems":[{"data":{"deep":${deep}}}]}`,
      ),
      post(
        '/wix-data/v2/items/patch',
        `{"dataCollectionId":"Movies","patch":{"dataItemId":"movie-001","fieldModifications":[{"fieldPath":"deep","action":"SET_FIELD","setFieldOptions":{"value":${deep}}}]}}`,
      ),
      post('/wix-data/v2/items/query', `{"dataCollectionId":"Movies","query":{"filter":{"deep":{"$eq":${deep}}}}}`),
    ]);
    const [insert, bulk, patch, filter] = answers;
    for (const answer of [insert!, patch!, filter!])
      expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(400);
    for (const answer of answers) expect(answer.milliseconds).toBeLessThan(HOSTILE_REQUEST_MS);
    expect(violatedFields(insert!)).toEqual(['dataItem.data.deep']);
    // A bulk write answers per item, as on the platform: this one failed with the field named.
    const [result] = bulk!.body.results as { itemMetadata: { success: boolean; error: { description: string } } }[];
    expect(result!.itemMetadata.success).toBe(false);
    expect(result!.itemMetadata.error.description).toContain('dataItems.0.data.deep');
    expect(violatedFields(patch!)).toEqual(['patch.fieldModifications.0.setFieldOptions.value.a']);
    expect(violatedFields(filter!)).toEqual(['query.filter.deep.$eq.a']);
  });

  it('a patch cannot build a deep item from a long path either', async () => {
    const answer = await post('/wix-data/v2/items/patch', {
      dataCollectionId: 'Movies',
      patch: {
        dataItemId: 'movie-001',
        fieldModifications: [
          { fieldPath: Array(1000).fill('a').join('.'), action: 'SET_FIELD', setFieldOptions: { value: 1 } },
        ],
      },
    });
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)).toEqual(['patch.fieldModifications.0.fieldPath']);
  });

  it('an item already stored deeper than SQLite reads (an older store, an import) never makes reads fail', async () => {
    await post('/wix-data/v2/collections', { collection: { id: 'Legacy', fields: [{ key: 'title', type: 'TEXT' }] } });
    await post('/wix-data/v2/items', {
      dataCollectionId: 'Legacy',
      dataItem: { id: 'plain', data: { title: 'plain' } },
    });
    // Written straight into the store, as an older emulator (or a version 1 import) could have kept it:
    // a version 2 import refuses it at the door.
    const created = '2024-01-01T00:00:00.000Z';
    emulator.context.store.run(
      'INSERT INTO items (collection_id, id, data, created_date, owner) VALUES (?, ?, ?, ?, NULL)',
      [
        'Legacy',
        'deep',
        `{"_id":"deep","_createdDate":{"$date":"${created}"},"_updatedDate":{"$date":"${created}"},"title":"deep","deep":${nested(1500)}}`,
        created,
      ],
    );
    for (const read of await readsOf('Legacy')) expect(read.status, JSON.stringify(read.body)).toBe(200);
    const all = await post('/wix-data/v2/items/query', { dataCollectionId: 'Legacy' });
    expect((all.body.dataItems as { id: string }[]).map((item) => item.id).sort()).toEqual(['deep', 'plain']);
    const filtered = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Legacy',
      query: { filter: { title: 'plain' } },
    });
    expect((filtered.body.dataItems as { id: string }[]).map((item) => item.id)).toEqual(['plain']);
  });
});

describe('$and / $or term counts (finding 14)', () => {
  it.each([
    ['$or', 2_000],
    ['$and', 100_000],
  ])('%s with %i empty terms is a 400 naming it, in well under 2 s', async (operator, count) => {
    const answer = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Movies',
      query: { filter: { [operator]: Array.from({ length: count }, () => ({})) } },
    });
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)).toEqual([`query.filter.${operator}`]);
    expect(answer.milliseconds).toBeLessThan(HOSTILE_REQUEST_MS);
  });

  it('terms count across nesting: 40 $or lists of 40 empty terms are refused', async () => {
    const answer = await post('/wix-data/v2/items/count', {
      dataCollectionId: 'Movies',
      filter: { $and: Array.from({ length: 40 }, () => ({ $or: Array.from({ length: 40 }, () => ({})) })) },
    });
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)![0]).toMatch(/^filter\.\$and\.\d+\.\$or$/);
  });

  it('the largest allowed filter (100 conditions, 1,000 terms) answers, in well under 2 s', async () => {
    const answer = await post('/wix-data/v2/items/count', {
      dataCollectionId: 'Movies',
      filter: {
        $or: [
          ...Array.from({ length: 100 }, (_, index) => ({ year: 1900 + index })),
          ...Array.from({ length: 900 }, () => ({ $or: [] })),
        ],
      },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.totalCount).toBeGreaterThan(0);
    expect(answer.milliseconds).toBeLessThan(HOSTILE_REQUEST_MS);
  });
});

describe('list operands (issue 31, item 7)', () => {
  const values = (count: number) => Array.from({ length: count }, (_, index) => `value ${index}`);

  it('a $hasSome of 1.2 million values (inside the 16 MiB body limit of writes) is refused before it is parsed', async () => {
    // 11.5 MiB, written out before the clock starts.
    const hasSome = Array.from({ length: 1_200_000 }, (_, index) => `v${index}`);
    const body = JSON.stringify({ dataCollectionId: 'Movies', query: { filter: { title: { $hasSome: hasSome } } } });
    const answer = await post('/wix-data/v2/items/query', body, visitorToken);
    expect(answer.status).toBe(413);
    expect(answer.body.details.applicationError.code).toBe('PAYLOAD_TOO_LARGE');
    expect(answer.milliseconds).toBeLessThan(HOSTILE_REQUEST_MS);
    // A list of 100,000 values fits a read's body: the filter refuses it, naming it.
    const long = await post(
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { filter: { title: { $hasSome: hasSome.slice(0, 100_000) } } } },
      visitorToken,
    );
    expect(long.status).toBe(400);
    expect(violatedFields(long)).toEqual(['query.filter.title.$hasSome']);
  });

  it('the lists of one filter hold at most 10,000 values in all', async () => {
    const asked = async (filter: unknown) =>
      post('/wix-data/v2/items/count', { dataCollectionId: 'Movies', filter }, visitorToken);
    expect((await asked({ title: { $hasSome: values(10_000) } })).status).toBe(200);
    for (const operator of ['$hasSome', '$in', '$hasAll']) {
      const refused = await asked({ title: { [operator]: values(10_001) } });
      expect(refused.status, operator).toBe(400);
      expect(violatedFields(refused)).toEqual([`filter.title.${operator}`]);
    }
    const refused = await asked({ title: { $hasSome: values(6000) }, genres: { $in: values(6000) } });
    expect(refused.status).toBe(400);
    expect(violatedFields(refused)).toEqual(['filter.genres.$in']);
  });
});

describe('aggregations', () => {
  it('a final filter of 100 conditions over 1,200 groups answers in well under 2 s (each group built once)', async () => {
    await post('/wix-data/v2/collections', { collection: { id: 'Groups', fields: [{ key: 'n', type: 'NUMBER' }] } });
    for (const start of [0, 600])
      await post('/wix-data/v2/bulk/items/insert', {
        dataCollectionId: 'Groups',
        dataItems: Array.from({ length: 600 }, (_, index) => ({
          data: { n: start + index, half: (start + index) / 2 },
        })),
      });
    const answer = await post('/wix-data/v2/items/aggregate', {
      dataCollectionId: 'Groups',
      aggregation: {
        groupingFields: ['n'],
        operations: Array.from({ length: 20 }, (_, index) => ({
          resultFieldName: `sum${index}`,
          sum: { itemFieldName: 'half' },
        })),
      },
      finalFilter: {
        $or: Array.from({ length: 100 }, (_, index) => ({ [`sum${index % 20}`]: { $gt: 1000 + index } })),
      },
      paging: { limit: 1000 },
    });
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    expect(answer.milliseconds).toBeLessThan(HOSTILE_REQUEST_MS);
  });
});

/** A cursor as anyone can write one. */
const forged = (state: Record<string, unknown>) => Buffer.from(JSON.stringify(state)).toString('base64url');

describe('cursors are untrusted input (findings 14 and 15)', () => {
  const routes = [
    [
      'query',
      '/wix-data/v2/items/query',
      'query.cursorPaging.cursor',
      (cursor: string) => ({ query: { cursorPaging: { cursor } } }),
    ],
    [
      'distinct',
      '/wix-data/v2/items/query-distinct-values',
      'cursorPaging.cursor',
      (cursor: string) => ({ fieldName: 'year', cursorPaging: { cursor } }),
    ],
    [
      'aggregate',
      '/wix-data/v2/items/aggregate',
      'cursorPaging.cursor',
      (cursor: string) => ({
        aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }] },
        cursorPaging: { cursor },
      }),
    ],
  ] as const;
  const requests = {
    query: {},
    distinct: { fieldName: 'year' },
    aggregate: { aggregation: { operations: [{ resultFieldName: 'n', itemCount: {} }] } },
  };
  const forgeries: [string, Record<string, unknown>][] = [
    ['offset 1e30', { offset: 1e30 }],
    ['offset 2^63', { offset: 2 ** 63 }],
    ['a negative offset', { offset: -1 }],
    ['limit 1e30', { limit: 1e30 }],
    ['limit 2^63', { limit: 2 ** 63 }],
    ['limit 1,200', { limit: 1200 }],
    ['request null', { request: null }],
    ['request a string', { request: 'everything' }],
    // One wrong field for each kind: a query's sort, a distinct read's field name, an aggregation.
    ['a saved request of the wrong shape', { request: { sort: 'year', fieldName: 7, aggregation: 'all' } }],
  ];
  for (const [kind, path, field, body] of routes) {
    it.each(forgeries)(`${kind}: a cursor with %s is a 400 naming the cursor`, async (_name, change) => {
      const cursor = forged({ kind, collectionId: 'Movies', request: requests[kind], offset: 0, limit: 10, ...change });
      const answer = await post(path, { dataCollectionId: 'Movies', ...body(cursor) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(violatedFields(answer)).toEqual([field]);
    });
  }

  it('a saved request with a bad sort entry is a 400, not a 500', async () => {
    const cursor = forged({ kind: 'query', collectionId: 'Movies', request: { sort: [null] }, offset: 0, limit: 10 });
    const answer = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Movies',
      query: { cursorPaging: { cursor } },
    });
    expect(answer.status).toBe(400);
    expect(violatedFields(answer)).toEqual(['query.sort.0']);
  });

  it('the page limit of 1,000 holds whatever a cursor says; genuine cursors still page', async () => {
    await post('/wix-data/v2/collections', { collection: { id: 'Crowd', fields: [{ key: 'n', type: 'NUMBER' }] } });
    for (const start of [0, 600]) {
      const inserted = await post('/wix-data/v2/bulk/items/insert', {
        dataCollectionId: 'Crowd',
        dataItems: Array.from({ length: 600 }, (_, index) => ({ data: { n: start + index } })),
      });
      expect(inserted.status).toBe(200);
    }
    const lifted = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Crowd',
      query: {
        cursorPaging: { cursor: forged({ kind: 'query', collectionId: 'Crowd', request: {}, offset: 0, limit: 1200 }) },
      },
    });
    expect(lifted.status).toBe(400);
    expect(lifted.body.dataItems).toBeUndefined();
    const first = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Crowd',
      query: { cursorPaging: { limit: 1000 } },
    });
    const next = (first.body.pagingMetadata as { cursors: { next: string } }).cursors.next;
    const second = await post('/wix-data/v2/items/query', {
      dataCollectionId: 'Crowd',
      query: { cursorPaging: { cursor: next } },
    });
    expect(second.status).toBe(200);
    expect(second.body.dataItems).toHaveLength(200);
  });
});

describe('INCREMENT_FIELD (finding 16)', () => {
  it('an increment past the largest double is a 400 and the field keeps its value', async () => {
    const inserted = await post('/wix-data/v2/items', {
      dataCollectionId: 'Movies',
      dataItem: { data: { huge: 1.7e308 } },
    });
    const id = (inserted.body.dataItem as { id: string }).id;
    for (const value of [1.7e308, 1e308]) {
      const answer = await post('/wix-data/v2/items/patch', {
        dataCollectionId: 'Movies',
        patch: {
          dataItemId: id,
          fieldModifications: [{ fieldPath: 'huge', action: 'INCREMENT_FIELD', incrementFieldOptions: { value } }],
        },
      });
      expect(answer.status).toBe(400);
      expect(violatedFields(answer)).toEqual(['patch.fieldModifications.0.incrementFieldOptions.value']);
    }
    const stored = await emulator.fetch(`/wix-data/v2/items/${id}?dataCollectionId=Movies`, {
      headers: { authorization: emulator.info.apiKey },
    });
    expect(((await stored.json()) as { dataItem: { data: { huge: unknown } } }).dataItem.data.huge).toBe(1.7e308);
  });
});
