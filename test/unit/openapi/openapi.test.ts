/** sitekit/openapi: typed raw calls through the client's transport (auth, headers, retries, typed errors). */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../../src/auth/api-key.js';
import { createClient } from '../../../src/client.js';
import { ApplicationError, NetworkError, ValidationError } from '../../../src/errors/index.js';
import { createRawClient } from '../../../src/openapi/index.js';
import { BASE, captureAll } from '../../helpers/capture.js';

const raw = () =>
  createRawClient(
    createClient({
      auth: ApiKeyStrategy({ apiKey: 'key-1', siteId: 'site-1' }),
      baseUrl: BASE,
      headers: { 'x-app': 'test' },
      retry: { random: () => 0 },
    }),
  );

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('createRawClient', () => {
  it('sends any route with the client auth and headers, and returns the data', async () => {
    const log = captureAll(() => [200, { collection: { id: 'Movies', displayName: 'Movies' } }]);
    const { data, error } = await raw().GET('/wix-data/v2/collections/{dataCollectionId}', {
      params: { path: { dataCollectionId: 'Movies' } },
    });
    expect(error).toBeUndefined();
    expect(data?.collection?.displayName).toBe('Movies');
    expect(`${log[0]!.method} ${log[0]!.url}`).toBe('GET /wix-data/v2/collections/Movies');
    expect([log[0]!.headers.authorization, log[0]!.headers['wix-site-id'], log[0]!.headers['x-app']]).toEqual([
      'key-1',
      'site-1',
      'test',
    ]);
  });

  it('puts the query in the platform form (dotted keys, repeated arrays) and sends JSON bodies', async () => {
    const log = captureAll(() => [200, {}]);
    await raw().GET('/site-media/v1/files', {
      params: { query: { paging: { limit: 5 }, mediaTypes: ['IMAGE', 'VIDEO'] } },
    });
    expect(log[0]!.url).toBe('/site-media/v1/files?paging.limit=5&mediaTypes=IMAGE&mediaTypes=VIDEO');
    await raw().POST('/wix-data/v2/items/query', {
      body: { dataCollectionId: 'Movies', query: { paging: { limit: 2 } } },
    });
    expect(log[1]!.body).toEqual({ dataCollectionId: 'Movies', query: { paging: { limit: 2 } } });
    expect(log[1]!.headers['content-type']).toBe('application/json');
  });

  it('a failed response gives the typed error the client methods throw', async () => {
    captureAll((req) =>
      req.method === 'GET'
        ? [
            404,
            {
              message: 'Collection not found',
              details: { applicationError: { code: 'WDE0025', description: 'no such collection' } },
            },
            { 'x-wix-request-id': 'r-7' },
          ]
        : [
            400,
            {
              message: 'bad',
              details: {
                validationError: { fieldViolations: [{ field: 'collection.id', description: 'must not be empty' }] },
              },
            },
          ],
    );
    const { data, error, response } = await raw().GET('/wix-data/v2/collections/{dataCollectionId}', {
      params: { path: { dataCollectionId: 'Nope' } },
    });
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(ApplicationError);
    expect([error?.code, error?.status, error?.requestId, response.status]).toEqual(['WDE0025', 404, 'r-7', 404]);
    const created = await raw().POST('/wix-data/v2/collections', { body: { collection: { id: '' } } });
    expect(created.error).toBeInstanceOf(ValidationError);
  });

  it('retries an idempotent call as the client does, and rejects when no response ever comes', async () => {
    const log = captureAll((_req, n) => (n === 1 ? [503, {}] : [200, { collection: { id: 'M' } }]));
    const { data } = await raw().GET('/wix-data/v2/collections/{dataCollectionId}', {
      params: { path: { dataCollectionId: 'M' } },
    });
    expect(data?.collection?.id).toBe('M');
    expect(log).toHaveLength(2);
    nock.cleanAll();
    nock(BASE)
      .get('/wix-data/v2/collections/M')
      .times(3)
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    await expect(
      raw().GET('/wix-data/v2/collections/{dataCollectionId}', { params: { path: { dataCollectionId: 'M' } } }),
    ).rejects.toBeInstanceOf(NetworkError);
  });
});
