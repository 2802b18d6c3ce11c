/** The clients of the unit tests: one place that says how a test client is made. */
import { ApiKeyStrategy } from '../../src/auth/api-key.js';
import { createClient, type Client, type ClientOptions } from '../../src/client.js';
import { BASE } from './capture.js';

/**
 * An elevated client of the test host (BASE), without retries unless `options` says otherwise,
 * so each test sees exactly the requests it expects.
 */
export function testClient(options: Partial<ClientOptions> = {}): Client {
  return createClient({ auth: ApiKeyStrategy({ apiKey: 'k' }), baseUrl: BASE, retry: false, ...options });
}
