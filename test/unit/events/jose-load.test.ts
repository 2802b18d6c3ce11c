/** A jose chunk that cannot load is a network failure, never a key problem (NO_PUBLIC_KEY). */
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../src/client.js';
import { isNetworkError, isWebhookError } from '../../../src/errors/index.js';

// The dynamic import of jose fails, as a chunk fetch does when the network is down.
vi.mock('jose', () => {
  throw new TypeError('Failed to fetch dynamically imported module');
});

describe('webhooks: jose cannot load', () => {
  it('rejects with NetworkError, not WebhookError', async () => {
    const client = createClient({
      webhooks: { publicKey: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----' },
    });
    const error = await client.webhooks.process('header.payload.signature').catch((e: unknown) => e);
    expect(isWebhookError(error)).toBe(false);
    expect(isNetworkError(error)).toBe(true);
  });
});
