/**
 * The wire-form calls of `pull` (its media search) and `verify` (cli/raw-calls.ts), against an
 * in-process emulator whose fault rules rate-limit them: a 429 is waited out as its `Retry-After`
 * says (1 s without one), at most 5 times for one call, and never for more than 2 minutes; an
 * error answer resolves as its status and code.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, isWrite } from '../../cli/raw-calls.js';
import { ApiKeyStrategy, createClient, type ApiKeyAuth, type Client } from '../../src/index.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';

let site: TestEmulator;
let client: Client<ApiKeyAuth>;

beforeAll(async () => {
  site = await startEmulator();
  // As pull and verify make theirs for raw calls: the SDK does not retry, callRaw waits.
  client = createClient({
    baseUrl: site.url,
    auth: ApiKeyStrategy({ apiKey: site.info.apiKey, siteId: site.info.siteId }),
    retry: false,
  });
});
afterEach(() => site.faults.clear());
afterAll(() => site?.close());

/** A media search through callRaw; the waits it asked for, in ms (none really waited). */
async function search(): Promise<{ outcome: Promise<{ status: number; body: unknown }>; waits: number[] }> {
  const waits: number[] = [];
  const outcome = callRaw(
    client,
    'searchFiles',
    { rootFolder: 'MEDIA_ROOT', paging: { limit: 1 } },
    { sleep: async (ms) => void waits.push(ms) },
  );
  return { outcome, waits };
}

describe('callRaw', () => {
  it('waits out a 429 as its Retry-After says, 1 s without one, then answers as the site does', async () => {
    await site.faults.add({ operation: 'searchFiles', status: 429, retryAfterSeconds: 7, times: 1 });
    await site.faults.add({ operation: 'searchFiles', status: 429, times: 1 });
    const { outcome, waits } = await search();
    const answer = await outcome;
    expect(answer.status).toBe(200);
    expect((answer.body as { files: unknown[] }).files).toHaveLength(1);
    expect(waits).toEqual([7000, 1000]);
  });

  it('waits 5 times for one call at most, then fails saying the site keeps rate-limiting', async () => {
    await site.faults.add({ operation: 'searchFiles', status: 429, retryAfterSeconds: 1 });
    const { outcome, waits } = await search();
    await expect(outcome).rejects.toThrow(
      'the site keeps answering 429 (rate limited) to searchFiles; try again later',
    );
    expect(waits).toEqual([1000, 1000, 1000, 1000, 1000]);
  });

  it('waits 2 minutes, not longer: a longer Retry-After fails the call at once', async () => {
    await site.faults.add({ operation: 'searchFiles', status: 429, retryAfterSeconds: 120, times: 1 });
    const waited = await search();
    expect((await waited.outcome).status).toBe(200);
    expect(waited.waits).toEqual([120_000]);

    await site.faults.add({ operation: 'searchFiles', status: 429, retryAfterSeconds: 121, times: 1 });
    const refused = await search();
    await expect(refused.outcome).rejects.toThrow('keeps answering 429');
    expect(refused.waits).toEqual([]);
  });

  it('resolves an error answer as its status and code, without waiting', async () => {
    await site.faults.add({ operation: 'searchFiles', status: 503, times: 1 });
    const { outcome, waits } = await search();
    expect(await outcome).toEqual({ status: 503, body: { code: 'SYSTEM_ERROR' } });
    expect(waits).toEqual([]);
  });
});

describe('callRaw, as the commands call it', () => {
  it('waits for real when given no sleep (a Retry-After of 0 here)', async () => {
    await site.faults.add({ operation: 'searchFiles', status: 429, retryAfterSeconds: 0, times: 1 });
    const answer = await callRaw(client, 'searchFiles', { rootFolder: 'MEDIA_ROOT', paging: { limit: 1 } });
    expect(answer.status).toBe(200);
  });

  it('sends a GET with its query, and answers its JSON', async () => {
    await site.admin.collections.createDataCollection({ _id: 'Raw', fields: [{ key: 'title', type: 'TEXT' }] });
    const answer = await callRaw(client, 'listDataCollections', { paging: { limit: 1 } });
    expect(answer.status).toBe(200);
    expect((answer.body as { collections: unknown[] }).collections).toHaveLength(1);
  });

  it('rejects when nothing answers (no status to resolve with)', async () => {
    const nowhere = createClient({
      baseUrl: 'http://127.0.0.1:1',
      auth: ApiKeyStrategy({ apiKey: 'key', siteId: 'site' }),
      retry: false,
    });
    await expect(callRaw(nowhere, 'searchFiles', { rootFolder: 'MEDIA_ROOT' })).rejects.toThrow();
  });
});

describe('isWrite', () => {
  it('is true of an operation that changes the site, false of a GET and of a read-only POST', () => {
    expect(isWrite('insert')).toBe(true);
    expect(isWrite('getDataCollection')).toBe(false);
    expect(isWrite('queryDataItems')).toBe(false);
  });
});
