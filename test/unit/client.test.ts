/** createClient refuses options that cannot work at once, with a RequestError naming the option. */
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../src/auth/api-key.js';
import { createClient, type ClientOptions } from '../../src/client.js';
import { isRequestError, type RequestError } from '../../src/errors/index.js';

/** The RequestError createClient throws for `options`. */
function refusal(options: unknown): RequestError {
  try {
    createClient(options as ClientOptions);
  } catch (error) {
    expect(isRequestError(error)).toBe(true);
    return error as RequestError;
  }
  throw new Error('createClient accepted the options');
}

describe('createClient validates its options', () => {
  it.each([
    ['options that are not an object', 'yes', 'options'],
    ['null options', null, 'options'],
    ['an auth that is not a strategy', { auth: 'my-api-key' }, 'auth'],
    ['an auth object without getAuthHeaders', { auth: { apiKey: 'k' } }, 'auth'],
    ['webhooks that are not an object', { webhooks: 'pem' }, 'webhooks'],
    ['a webhook public key that is not a string', { webhooks: { publicKey: 42 } }, 'webhooks.publicKey'],
  ])('%s', (_, options, field) => {
    const error = refusal(options);
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`createClient: ${field} must be`)).toBe(true);
  });

  it('accepts no options, a strategy, and webhooks without a key yet', () => {
    expect(() => createClient()).not.toThrow();
    expect(() => createClient({ auth: ApiKeyStrategy({ apiKey: 'k' }), webhooks: {} as never })).not.toThrow();
  });
});
