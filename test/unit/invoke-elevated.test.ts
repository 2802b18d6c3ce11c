/**
 * The elevated operations load on their first call (src/README.md): a client that cannot make
 * them is told so before anything loads, and a chunk that cannot load is a network failure.
 */
import { describe, expect, it, vi } from 'vitest';
import { OAuthStrategy } from '../../src/auth/index.js';
import { createClient } from '../../src/client.js';
import { isElevationRequiredError, isNetworkError } from '../../src/errors/index.js';
import { testClient } from '../helpers/clients.js';

// The elevated operations' chunk fails to load, as a chunk fetch does when the network is down.
vi.mock('../../generated/elevated-operations.js', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

const collection = { id: 'Movies' };

describe('elevated operations, loaded on first use', () => {
  it('a visitor client gets ElevationRequiredError without loading them', async () => {
    const visitor = createClient({ auth: OAuthStrategy({ clientId: 'c' }), baseUrl: 'https://api.test' });
    const error = await visitor.collections.createDataCollection(collection as never).catch((e: unknown) => e);
    expect(isElevationRequiredError(error)).toBe(true);
    expect((error as Error).message).toBe('createDataCollection requires an elevated client (ApiKeyStrategy)');
  });

  it('an API-key client whose chunk cannot load gets NetworkError', async () => {
    const error = await testClient()
      .collections.createDataCollection(collection as never)
      .catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
  });
});
