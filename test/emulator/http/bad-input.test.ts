/** Bad input at the HTTP level (raw fetch, as any client could send it): production error shapes, never a 500. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type TestEmulator } from '../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

/** POSTs `body` (a string is sent as is) with the API key; returns status, body and request id. */
async function post(path: string, body: unknown) {
  const response = await emulator.fetch(path, {
    method: 'POST',
    headers: { authorization: emulator.info.apiKey, 'content-type': 'application/json' },
    body: typeof body == 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json(), requestId: response.headers.get('x-wix-request-id') };
}

const violationsOf = (body: {
  details: { validationError?: { fieldViolations: { field: string; violatedRule: string }[] } };
}) => body.details.validationError?.fieldViolations.map((violation) => `${violation.field}:${violation.violatedRule}`);

describe('items: bad input', () => {
  it.each([
    ['a missing collection id', '/wix-data/v2/items', { dataItem: { data: {} } }, ['dataCollectionId:REQUIRED_FIELD']],
    [
      'wrong types',
      '/wix-data/v2/items/query',
      { dataCollectionId: 7, query: { paging: { limit: 'ten' } } },
      ['dataCollectionId:VALIDATION', 'query.paging.limit:VALIDATION'],
    ],
    [
      'a negative offset',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { paging: { offset: -1 } } },
      ['query.paging.offset:MIN'],
    ],
    [
      'a page over the maximum',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { paging: { limit: 5000 } } },
      ['query.paging.limit:MAX'],
    ],
    [
      'an unknown filter operator',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { filter: { year: { $near: 3 } } } },
      ['query.filter.year.$near:VALIDATION'],
    ],
    [
      'an operand of the wrong type',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { filter: { title: { $contains: 5 } } } },
      ['query.filter.title.$contains:VALIDATION'],
    ],
    [
      '$hasSome without an array',
      '/wix-data/v2/items/count',
      { dataCollectionId: 'Movies', filter: { genres: { $hasSome: 'Drama' } } },
      ['filter.genres.$hasSome:VALIDATION'],
    ],
    [
      'an invalid date',
      '/wix-data/v2/items',
      { dataCollectionId: 'Movies', dataItem: { data: { when: { $date: 'yesterday' } } } },
      ['dataItem.data.when:FORMAT'],
    ],
    [
      'a bad sort order',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { sort: [{ fieldName: 'year', order: 'UP' }] } },
      ['query.sort.0.order:INVALID_ENUM_VALUE'],
    ],
    [
      'too many sort keys',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { sort: Array.from({ length: 3000 }, () => ({ fieldName: 'year' })) } },
      ['query.sort:MAX_SIZE'],
    ],
    [
      'too many aggregation fields',
      '/wix-data/v2/items/aggregate',
      {
        dataCollectionId: 'Movies',
        aggregation: { groupingFields: Array.from({ length: 600 }, (_, index) => `field${index}`) },
      },
      ['aggregation:MAX_SIZE'],
    ],
    [
      'a forged cursor',
      '/wix-data/v2/items/query',
      { dataCollectionId: 'Movies', query: { cursorPaging: { cursor: 'not-a-cursor' } } },
      ['query.cursorPaging.cursor:FORMAT'],
    ],
    [
      'a patch of a system field',
      '/wix-data/v2/items/patch',
      {
        dataCollectionId: 'Movies',
        patch: {
          dataItemId: 'movie-001',
          fieldModifications: [{ fieldPath: '_owner', action: 'SET_FIELD', setFieldOptions: { value: 'me' } }],
        },
      },
      ['patch.fieldModifications.0.fieldPath:FIELD_NOT_ALLOWED'],
    ],
    [
      'too many bulk items',
      '/wix-data/v2/bulk/items/insert',
      { dataCollectionId: 'Movies', dataItems: Array.from({ length: 1001 }, () => ({ data: {} })) },
      ['dataItems:MAX_SIZE'],
    ],
  ] as const)('%s is a 400 with its violations', async (_name, path, body, expected) => {
    const result = await post(path, body);
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/^INVALID_ARGUMENT: /);
    expect(violationsOf(result.body)).toEqual(expected);
    expect(result.requestId).toMatch(/[0-9a-f-]{36}/);
  });

  it('query strings are typed by the schema: dotted keys, repeated keys, numbers', async () => {
    const headers = { authorization: emulator.info.apiKey };
    const list = await (
      await emulator.fetch('/wix-data/v2/collections?paging.limit=1&paging.offset=0', { headers })
    ).json();
    expect(list.pagingMetadata).toMatchObject({ count: 1, offset: 0 });
    const item = await (
      await emulator.fetch('/wix-data/v2/items/movie-001?dataCollectionId=Movies&fields=title&fields=year', { headers })
    ).json();
    expect(Object.keys(item.dataItem.data).sort()).toEqual(['_id', 'title', 'year']);
    const wrong = await emulator.fetch('/wix-data/v2/collections?paging.limit=many', { headers });
    expect(wrong.status).toBe(400);
    expect(violationsOf(await wrong.json())).toEqual(['paging.limit:VALIDATION']);
  });

  it('filters nested too deep or too large are 400s; long hasSome lists are fine', async () => {
    // Written as text: JSON.stringify itself would overflow the stack on 5,000 levels.
    const deep = '{"$and":['.repeat(5000) + '{"year":1}' + ']}'.repeat(5000);
    const nested = await post('/wix-data/v2/items/query', `{"dataCollectionId":"Movies","query":{"filter":${deep}}}`);
    expect(nested.status).toBe(400);
    expect(violationsOf(nested.body)).toEqual(['query.filter:VALIDATION']);
    const wide = await post('/wix-data/v2/items/count', {
      dataCollectionId: 'Movies',
      filter: { $or: Array.from({ length: 600 }, (_, year) => ({ year })) },
    });
    expect(wide.status).toBe(400);
    const titles = Array.from({ length: 5000 }, (_, index) => `Title ${index}`);
    const long = await post('/wix-data/v2/items/count', {
      dataCollectionId: 'Movies',
      filter: { title: { $hasSome: [...titles, 'The Silent River'] } },
    });
    expect(long).toMatchObject({ status: 200, body: { totalCount: 1 } });
  });

  it('an unknown collection is WDE0025', async () => {
    const result = await post('/wix-data/v2/items/query', { dataCollectionId: 'Nope' });
    expect(result.status).toBe(404);
    expect(result.body.details.applicationError).toMatchObject({ code: 'WDE0025' });
  });

  it('a GET of a missing item is WDE0073 (the SDK turns it into null)', async () => {
    const response = await emulator.fetch('/wix-data/v2/items/ghost?dataCollectionId=Movies', {
      headers: { authorization: emulator.info.apiKey },
    });
    expect(response.status).toBe(404);
    expect((await response.json()).details.applicationError.code).toBe('WDE0073');
  });

  it('an undecodable .r is a 400', async () => {
    const response = await emulator.fetch('/wix-data/v2/items/query?.r=%%%', {
      headers: { authorization: emulator.info.apiKey },
    });
    expect(response.status).toBe(400);
    expect(violationsOf(await response.json())).toEqual(['.r:FORMAT']);
  });

  it('a body that is not JSON, a JSON array, or the wrong content type: clean 4xx', async () => {
    expect((await post('/wix-data/v2/items/query', '{nope')).status).toBe(400);
    expect((await post('/wix-data/v2/items/query', '[1,2]')).status).toBe(400);
    const text = await emulator.fetch('/wix-data/v2/items/query', {
      method: 'POST',
      headers: { authorization: emulator.info.apiKey, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect(text.status).toBe(415);
    expect((await text.json()).details.applicationError.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('an expired token is a 401 (the emulator clock moved past its expiry, no waiting)', async () => {
    const token = await (
      await emulator.fetch('/oauth2/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: emulator.info.clientId, grantType: 'anonymous' }),
      })
    ).json();
    const query = () =>
      emulator.fetch('/wix-data/v2/items/query', {
        method: 'POST',
        headers: { authorization: token.access_token, 'content-type': 'application/json' },
        body: JSON.stringify({ dataCollectionId: 'Movies' }),
      });
    const moveClock = (body: object) =>
      emulator.fetch('/_emulator/clock', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    try {
      await moveClock({ advanceSeconds: token.expires_in - 5 });
      expect((await query()).status).toBe(200);
      await moveClock({ advanceSeconds: 10 });
      const response = await query();
      expect(response.status).toBe(401);
      expect((await response.json()).details.applicationError.description).toMatch(/expired/);
    } finally {
      await moveClock({ reset: true });
    }
  });

  it('a refused write changes nothing', async () => {
    const before = await (await emulator.fetch('/_emulator/export')).text();
    await post('/wix-data/v2/bulk/items/insert', {
      dataCollectionId: 'Movies',
      dataItems: [{ data: { ok: 1 } }, 'not an item'],
    });
    const after = await (await emulator.fetch('/_emulator/export')).text();
    const { exportedAt: _before, ...stateBefore } = JSON.parse(before);
    const { exportedAt: _after, ...stateAfter } = JSON.parse(after);
    expect(stateAfter).toEqual(stateBefore);
  });
});
