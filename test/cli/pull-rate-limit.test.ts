/**
 * A pull waits out a site's rate limit however long its `Retry-After` (up to the pull's 2
 * minutes), instead of giving up at a single call's 60 s time limit, which counts the waits between
 * retries. The clock is Vitest's: no real waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PULL_CLIENT_POLICY } from '../../cli/pull-command.js';
import { connectToSite } from '../../cli/site-connection.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * A site that answers 429 with `Retry-After: <retryAfter>` to its second request (the first is the
 * command's check that the URL is the API), then lists no collections.
 */
function rateLimitedSite(retryAfter: number | string): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  const fetchFunction = (async () => {
    calls += 1;
    if (calls === 2)
      return new Response(JSON.stringify({ message: 'Too many requests' }), {
        status: 429,
        headers: { 'Content-Type': 'application/json', 'Retry-After': String(retryAfter) },
      });
    return new Response(JSON.stringify({ dataCollections: [], pagingMetadata: { count: 0 } }), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  }) as typeof fetch;
  return { fetch: fetchFunction, calls: () => calls };
}

/** The pull's client of a {@link rateLimitedSite}, and what it said while it waited. */
async function pullClientOf(site: { fetch: typeof fetch }) {
  const said: string[] = [];
  const { client } = await connectToSite(
    { url: 'https://site.example', 'api-key': 'key', 'site-id': 'site' },
    {},
    PULL_CLIENT_POLICY,
    site.fetch,
    (line) => said.push(line),
  );
  return { client, said };
}

describe("pull's client", () => {
  it('waits a Retry-After of 90 s, saying so, and goes on (a single call gives up after 60 s in all)', async () => {
    const site = rateLimitedSite(90);
    const { client, said } = await pullClientOf(site);
    const listed = client.collections.listDataCollections();
    const outcome = listed.then(
      () => 'listed',
      (error: Error) => error.name,
    );
    await vi.advanceTimersByTimeAsync(100_000);
    expect(await outcome).toBe('listed');
    expect(site.calls()).toBe(3);
    expect(said).toEqual(['rate-limited, waiting 90 s']);
  });

  it.each([
    ['0', 'rate-limited, waiting 0 s'],
    ['1.5', 'rate-limited, waiting 2 s'],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 'rate-limited, waiting before the next try'],
  ])('says how long it waits for a Retry-After of %s, in whole seconds', async (retryAfter, expected) => {
    const site = rateLimitedSite(retryAfter);
    const { client, said } = await pullClientOf(site);
    const listed = client.collections.listDataCollections();
    await vi.advanceTimersByTimeAsync(10_000);
    await listed;
    expect(said).toEqual([expected]);
  });
});
