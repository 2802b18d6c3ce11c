/** ApiKeyStrategy: headers, elevation, validation. */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../../src/auth/index.js';
import { createClient } from '../../../src/client.js';
import { RequestError } from '../../../src/errors/index.js';

beforeEach(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('ApiKeyStrategy', () => {
  it('sends the bare key and the site/account ids, and is elevated', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'KEY', siteId: 'S', accountId: 'A' });
    expect(auth.elevated).toBe(true);
    expect(await auth.getAuthHeaders()).toEqual({ Authorization: 'KEY', 'wix-site-id': 'S', 'wix-account-id': 'A' });
    expect(await ApiKeyStrategy({ apiKey: 'K' }).getAuthHeaders()).toEqual({ Authorization: 'K' });
    nock('https://api.test')
      .get('/wix-data/v2/collections/x')
      .matchHeader('authorization', 'KEY')
      .matchHeader('wix-site-id', 'S')
      .reply(200, { collection: { id: 'x' } });
    expect(await createClient({ auth, baseUrl: 'https://api.test' }).collections.getDataCollection('x')).toEqual({ _id: 'x' });
  });

  it('a caller cannot change the headers later calls get (they are frozen)', async () => {
    const auth = ApiKeyStrategy({ apiKey: 'K' });
    const h = await auth.getAuthHeaders();
    expect(() => {
      h.Authorization = 'changed';
    }).toThrow(TypeError);
    expect((await auth.getAuthHeaders()).Authorization).toBe('K');
  });

  it('rejects a missing key', () => {
    expect(() => ApiKeyStrategy({ apiKey: '' })).toThrow(RequestError);
    expect(() => ApiKeyStrategy(undefined as never)).toThrow('apiKey');
  });
});
