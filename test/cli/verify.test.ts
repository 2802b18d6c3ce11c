/**
 * `sitekit-sdk verify` between in-process emulators: one stands in for the live site (read with
 * its API key, as a live site is), the other is the emulator it is compared with (`--emulator`), a
 * copy of the live one; or, without `--emulator`, one verify starts itself from a pull of the site.
 * The live stand-in drifts by fault rules that answer 200 with a body of their own.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../cli/commands.js';
import type { VerifyIo } from '../../cli/verify/verify-command.js';
import { callJson } from '../helpers/json-calls.js';
import { startEmulator, type TestEmulator } from '../helpers/emulator.js';
import { addFilmCollections } from '../helpers/film-collections.js';

let live: TestEmulator;
let local: TestEmulator;
let dir: string;

/** What a run printed, and its exit code. */
interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
  /** The waits a rate limit asked for, in ms. */
  waits: number[];
}

/** Runs `verify` (against the live stand-in unless `--replay`); `io` changes the streams it gets. */
async function verify(args: string[], io: Partial<VerifyIo> = {}): Promise<Outcome> {
  const outcome: Outcome = { code: -1, stdout: '', stderr: '', waits: [] };
  const streams: VerifyIo = {
    stdout: (text) => void (outcome.stdout += text),
    stderr: (text) => void (outcome.stderr += text),
    env: {},
    sleep: async (ms) => void outcome.waits.push(ms),
    ...io,
  };
  const site = args.includes('--replay')
    ? []
    : ['--url', live.url, '--api-key', live.info.apiKey, '--site-id', live.info.siteId];
  outcome.code = await runCommand(['verify', ...site, ...args], streams);
  return outcome;
}

/** The live stand-in's data: what verify must never change outside its scratch collection. */
async function siteData(emulator: TestEmulator): Promise<unknown> {
  const state = await emulator.control.call('exportState');
  return [state.collections, state.items, state.references, state.members, state.files];
}

/** The IDs of an emulator's collections. */
async function collectionIds(emulator: TestEmulator): Promise<string[]> {
  const { collections } = await emulator.admin.collections.listDataCollections();
  return (collections ?? []).map((collection) => collection._id!);
}

/** The live stand-in's answer to verify's first read of Movies (its first page, by ID). */
async function firstMoviesPage(): Promise<{
  dataItems: { data: Record<string, unknown> }[];
  pagingMetadata: Record<string, unknown>;
}> {
  const answer = await callJson(live, 'POST', '/wix-data/v2/items/query', {
    authorization: live.info.apiKey,
    body: {
      dataCollectionId: 'Movies',
      query: { sort: [{ fieldName: '_id', order: 'ASC' }], paging: { limit: 10 } },
      returnTotalCount: true,
    },
  });
  return answer.body as never;
}

beforeAll(async () => {
  live = await startEmulator();
  dir = mkdtempSync(join(tmpdir(), 'sitekit-verify-'));
  await addFilmCollections(live.admin);
  // The emulator compared with: a copy of the live one.
  const state = join(dir, 'live-state.json');
  writeFileSync(state, await (await live.fetch('/_emulator/export')).text());
  local = await startEmulator({ seed: state });
}, 60_000);

afterAll(async () => {
  await Promise.all([live?.close(), local?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

describe('sitekit-sdk verify', () => {
  it('finds nothing between a site and the emulator it seeds from it, records, and changes nothing outside its scratch collection', async () => {
    const before = await siteData(live);
    const recording = join(dir, 'recording');
    const result = await verify(['--record', recording, '--out', join(dir, 'report.json')]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /\d+ steps: \d+ the same, 0 different, 0 schema drifts, \d+ skipped; \d+ calls to the live site; writes checked/,
    );
    expect(await siteData(live)).toEqual(before);
    expect((await collectionIds(live)).filter((id) => id.startsWith('sitekit_verify_'))).toEqual([]);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      steps: { name: string; operationId: string }[];
    };
    const operations = new Set(report.steps.map((step) => step.operationId));
    for (const operation of [
      'get',
      'queryDataItems',
      'count',
      'queryDistinctValues',
      'aggregateDataItems',
      'queryReferencedDataItems',
      'queryMembers',
      'listFiles',
      'insert',
      'update',
      'patchDataItem',
      'bulkInsertDataItems',
      'bulkInsertDataItemReferences',
      'truncate',
      'deleteDataCollection',
    ])
      expect(operations, operation).toContain(operation);
    // The recording keeps no credentials and no member's personal data.
    const recorded = readFileSync(join(recording, 'recording.json'), 'utf8');
    expect(recorded).not.toContain(live.info.apiKey);
    expect(recorded).not.toContain('ada@example.com');
    expect(recorded).not.toContain('Ada Lovelace');
  }, 120_000);

  it('a field renamed in a live answer: exit 1, naming the operation and the field path', async () => {
    const page = await firstMoviesPage();
    const { title, ...rest } = page.dataItems[0]!.data;
    page.dataItems[0]!.data = { ...rest, name: title };
    await live.faults.add({ operation: 'queryDataItems', status: 200, times: 1, body: page });
    const result = await verify(['--emulator', local.url, '--collections', 'Movies', '--read-only']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('✗ Movies: first page (queryDataItems): the answers differ');
    expect(result.stdout).toContain(`dataItems.0.data.title: live (absent), emulator ${JSON.stringify(title)}`);
    expect(result.stdout).toContain(`dataItems.0.data.name: live ${JSON.stringify(title)}, emulator (absent)`);
  }, 60_000);

  it('schema drift (a field of the wrong type): exit 1, naming the schema file and path', async () => {
    const page = await firstMoviesPage();
    await live.faults.add({
      operation: 'queryDataItems',
      status: 200,
      times: 1,
      body: { ...page, pagingMetadata: { ...page.pagingMetadata, count: String(page.pagingMetadata.count) } },
    });
    const result = await verify(['--emulator', local.url, '--collections', 'Movies', '--read-only']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '✗ schema drift in Movies: first page (queryDataItems): pagingMetadata.count is string where the schema says integer; change schema/common.yaml at components.schemas.PagingMetadata.properties.count.type',
    );
  }, 60_000);

  it('a recording replayed: exit 0 against an emulator like the site, 1 against one that drifted', async () => {
    const recording = join(dir, 'recording');
    const same = await verify(['--replay', recording, '--emulator', local.url]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    expect(same.stdout).toMatch(/0 different, 0 schema drifts.*replayed/);
    const page = await firstMoviesPage();
    page.dataItems[0]!.data.title = 'Another title';
    await local.faults.add({ operation: 'queryDataItems', status: 200, times: 1, body: page });
    const drifted = await verify(['--replay', recording, '--emulator', local.url]);
    expect(drifted.code).toBe(1);
    expect(drifted.stdout).toContain('dataItems.0.data.title: live');
    expect(drifted.stdout).toContain('emulator "Another title"');
  }, 120_000);

  it("replays the demo site's recording against an emulator loaded with its copy (as CI does: no credentials)", async () => {
    // Written by scripts/record-verify-demo.ts.
    const fixture = join(import.meta.dirname, 'fixtures/verify-demo');
    const emulator = await startEmulator({ seed: join(fixture, 'site.json') });
    try {
      const result = await verify(['--replay', fixture, '--emulator', emulator.url]);
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^\d{2} steps: \d+ the same, 0 different/m);
    } finally {
      await emulator.close();
    }
  }, 60_000);

  it('waits out a 429 as its Retry-After says, and counts it', async () => {
    await live.faults.add({ operation: 'insert', status: 429, retryAfterSeconds: 7, times: 1 });
    const result = await verify(['--emulator', local.url, '--collections', 'Directors']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.waits).toEqual([7000]);
    expect(result.stdout).toMatch(/calls to the live site \(1 wait for a rate limit\)/);
  }, 60_000);

  it('Ctrl-C stops the run and removes the scratch collection from both sites', async () => {
    const before = await siteData(live);
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    // Ctrl-C arrives as the first item goes into the scratch collection.
    const interrupting: typeof fetch = async (input, init) => {
      if (String(init?.body ?? '').includes('"verify-1"')) stop();
      return fetch(input, init);
    };
    const result = await verify(['--emulator', local.url, '--collections', 'Directors'], {
      untilStopped: () => stopped,
      fetch: interrupting,
    });
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stdout).toContain('interrupted');
    expect((await collectionIds(live)).filter((id) => id.startsWith('sitekit_verify_'))).toEqual([]);
    expect((await collectionIds(local)).filter((id) => id.startsWith('sitekit_verify_'))).toEqual([]);
    expect(await siteData(live)).toEqual(before);
  }, 60_000);

  it('says what is wrong with its command line, and with a recording it cannot replay', async () => {
    const noEmulator = await verify(['--replay', join(dir, 'recording')]);
    expect([noEmulator.code, noEmulator.stderr]).toEqual([
      2,
      expect.stringContaining('--replay needs --emulator <url>'),
    ]);
    const both = await verify(['--emulator', local.url, '--against', local.url]);
    expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('--against and --emulator say the same')]);
    const hostile = join(dir, 'hostile');
    mkdirSync(hostile, { recursive: true });
    writeFileSync(
      join(hostile, 'recording.json'),
      JSON.stringify({
        format: 'sitekit-verify-recording',
        version: 1,
        steps: [{ name: 'x', operationId: '__proto__', request: {}, answer: { status: 200, body: {} } }],
      }),
    );
    // --against, the name for --emulator, says the same.
    const refused = await verify(['--replay', hostile, '--against', local.url]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('step 0 names no operation of the schema (__proto__)');
  });

  it('stops at its budget of calls, saying so', async () => {
    const result = await verify(['--emulator', local.url, '--max-calls', '3', '--read-only']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the budget of 3 calls is spent (--max-calls)');
    expect(result.stdout).toMatch(/; 3 calls to the live site; stopped: the budget of 3 calls is spent/);
  }, 60_000);
});
