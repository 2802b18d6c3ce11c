/**
 * An abort or a time limit that fires while the client waits between attempts (a backoff, or a
 * server's Retry-After) ends the call at once: the wait is an hour, so a client that sat it out
 * would never settle within the test.
 */
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { isAbortedError, isTimeoutError } from '../../../src/errors/index.js';
import { BASE, useNock } from '../../helpers/capture.js';
import { testClient } from '../../helpers/clients.js';

const HOUR_MS = 3_600_000;
const PATH = '/wix-data/v2/collections/c';

useNock();

/** Answers the first GET with 503 (and `headers`), and calls `onFirstAnswer` once it is sent. */
function unavailableOnce(headers: Record<string, string>, onFirstAnswer: () => void) {
  return nock(BASE)
    .get(PATH)
    .reply(() => {
      setTimeout(onFirstAnswer, 20);
      return [503, { message: 'busy' }, headers];
    })
    .get(PATH)
    .reply(200, { collection: { id: 'c' } });
}

describe('waits between attempts end with the call', () => {
  it('an abort during a backoff rejects with AbortedError, and nothing more is sent', async () => {
    const client = testClient({ retry: { retries: 3, baseDelayMs: HOUR_MS, maxDelayMs: HOUR_MS, random: () => 0.99 } });
    const controller = new AbortController();
    const scope = unavailableOnce({}, () => controller.abort());
    const error = await client.collections
      .getDataCollection('c', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isAbortedError(error)).toBe(true);
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('an abort during a Retry-After wait rejects with AbortedError', async () => {
    const client = testClient({ retry: { retries: 3, maxRetryAfterMs: 2 * HOUR_MS } });
    const controller = new AbortController();
    const scope = unavailableOnce({ 'retry-after': String(HOUR_MS / 1000) }, () => controller.abort());
    const error = await client.collections
      .getDataCollection('c', { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(isAbortedError(error)).toBe(true);
    expect(scope.pendingMocks()).toHaveLength(1);
  });

  it('a time limit that passes during a Retry-After wait rejects with TimeoutError', async () => {
    const client = testClient({ retry: { retries: 3, maxRetryAfterMs: 2 * HOUR_MS } });
    const scope = unavailableOnce({ 'retry-after': String(HOUR_MS / 1000) }, () => undefined);
    const error = await client.collections.getDataCollection('c', { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(isTimeoutError(error)).toBe(true);
    expect(scope.pendingMocks()).toHaveLength(1);
  });
});
