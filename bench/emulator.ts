/**
 * The emulator benchmark: the emulator as `npm start` runs it (the built CLI, a file-backed
 * store), against its limit, a bare Fastify + better-sqlite3 server doing the same SQL work
 * (bench/bare-server.mjs). Each server runs in its own process; one HTTP client (node:http,
 * keep-alive) sends both the same requests, so only the servers differ. Interleaved in rounds of
 * rotating order (bench/timing.ts's reasoning). Prints, for each shape, each side's figures and
 * their ratio, with p50/p99 latencies:
 * - bulk insert: 100,000 items in calls of 1,000, measured per run of 10,000 (a round: one run each);
 * - memory (RSS) of each server after those 100,000 items;
 * - query over the 100,000 items (filter, sort, limit 50);
 * - mixed load: 50 clients, each looping 4 reads (an item by id) to 1 write (an insert);
 * - start to healthy: the built CLI, `npm start`, the bare server;
 * - sitekit (the package's node build) against the official SDK (@wix/sdk and @wix/data), the same
 *   `items.get` against the same emulator: calls per second and this process's CPU per call.
 * Asserts nothing: figures vary with the machine, only the ratios are meant to be compared.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { filterToSql } from '../emulator/services/data/items/filter-sql.js';
import { orderBy } from '../emulator/services/data/items/paging-sql.js';
import { median, medianOf, sequential, steadyPool, type Measurement } from './timing.js';
import { builtSdk } from './built-sdk.js';
import { originRewritingFetch } from '../test/helpers/origin-rewriting-fetch.js';

type SiteKit = typeof import('../src/index.js');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ITEM_COUNT = Number(process.env.BENCH_EMULATOR_ITEMS ?? 100_000);
const BULK_BATCH = 1000;
/** Items per measured bulk run (one side's turn in a round). */
const BULK_RUN = 10_000;
const QUERY_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const QUERY_BLOCK = 10;
const MIXED_CLIENTS = 50;
const MIXED_ROUNDS = Number(process.env.BENCH_MIXED_ROUNDS ?? 4);
const MIXED_TURN_MS = Number(process.env.BENCH_MIXED_TURN_MS ?? 2000);
const MIXED_WARM_UP_MS = 1000;
const START_RUNS = 3;
const GENRES = ['Drama', 'Comedy', 'Thriller', 'Sci-Fi', 'Romance'];

/** The `index`-th generated item's data, as a client sends it. */
function benchItem(index: number, prefix: string) {
  return {
    _id: `${prefix}-${index}`,
    title: `Title ${index}`,
    year: 1950 + ((index * 31) % 74),
    rating: ((index * 53) % 91) / 10,
    genre: GENRES[index % GENRES.length],
    tags: [GENRES[(index + 1) % GENRES.length], GENRES[(index + 2) % GENRES.length]],
  };
}

/** The benchmark's query: the body both servers get, and the SQL the emulator builds for it. */
const QUERY_BODY = {
  dataCollectionId: 'Bench',
  query: {
    filter: { year: { $gt: 1990 }, genre: 'Drama' },
    sort: [{ fieldName: 'rating', order: 'DESC' as const }],
    paging: { limit: 50 },
  },
};
function querySql(): { sql: string; params: unknown[] } {
  const where = filterToSql(QUERY_BODY.query.filter, 'items.data', 'query.filter');
  const order = orderBy(QUERY_BODY.query.sort, 'items.data', 'query.sort');
  return {
    sql: `SELECT items.data FROM items WHERE items.collection_id = ? AND (${where.sql}) ORDER BY ${order.sql}, items.id ASC LIMIT ? OFFSET ?`,
    params: [...where.params, ...order.params],
  };
}

/** One server under test: its process, base URL and the headers every request carries. */
export interface Server {
  name: string;
  process: ChildProcess;
  host: string;
  port: number;
  headers: Record<string, string>;
  /** Milliseconds from spawn to the first healthy answer. */
  startMs: number;
}

/** A keep-alive HTTP client; both servers get the same one, so only the servers differ. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Closes the client's idle connections (a bench ends with its servers). */
export const closeConnections = (): void => agent.destroy();

export function call(server: Server, method: string, path: string, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        agent,
        host: server.host,
        port: server.port,
        method,
        path,
        headers: payload === undefined ? server.headers : { ...server.headers, 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          if ((response.statusCode ?? 500) >= 300)
            reject(
              new Error(`${server.name}: ${method} ${path} answered ${response.statusCode}: ${text.slice(0, 300)}`),
            );
          else resolve(JSON.parse(text));
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/** Polls `path` until it answers 200; resolves with the time since `started`. */
async function healthy(host: string, port: number, path: string, started: number): Promise<number> {
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const outgoing = request({ host, port, path, agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode == 200);
      });
      outgoing.on('error', () => resolve(false));
      outgoing.end();
    });
    if (ok) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Spawns `command`, waits for a line matching `ready` on its stdout, and returns the match. */
async function spawnUntil(
  command: string,
  args: string[],
  ready: RegExp,
  detached = false,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'], detached });
  let output = '';
  for (;;) {
    const [chunk] = (await Promise.race([
      once(child.stdout!, 'data'),
      once(child, 'exit').then(() => {
        throw new Error(`${command} ${args.join(' ')} exited before it was ready:\n${output}`);
      }),
    ])) as [Buffer];
    output += chunk.toString();
    const match = output.match(ready);
    if (match) return { child, match };
  }
}

const LISTENING = /listening on http:\/\/([^:\s]+):(\d+)/;

/** How {@link startEmulator} runs the built CLI: on a data folder (by default) or other arguments, with a Node binary. */
export interface EmulatorProcessOptions {
  /** Its name in the figures. Default `emulator`. */
  name?: string;
  /** The Node binary. Default this process's. */
  node?: string;
  /** Where it keeps its data (`--data-dir`), or its storage arguments (`['--memory', '--engine', 'wasm']`). */
  storage: string | string[];
}

/** Starts the built CLI's emulator in its own process; resolves once it is healthy. */
export async function startEmulator(dataDirOrOptions: string | EmulatorProcessOptions): Promise<Server> {
  const options = typeof dataDirOrOptions == 'string' ? { storage: dataDirOrOptions } : dataDirOrOptions;
  const storage = typeof options.storage == 'string' ? ['--data-dir', options.storage] : options.storage;
  const started = performance.now();
  const { child, match } = await spawnUntil(
    options.node ?? process.execPath,
    [process.env.BENCH_CLI ?? 'dist/cli.mjs', 'emulator', '--port', '0', ...storage],
    LISTENING,
  );
  const [, host, port] = match as [string, string, string];
  const startMs = await healthy(host, Number(port), '/_emulator/health', started);
  const name = options.name ?? 'emulator';
  const server: Server = { name, process: child, host, port: Number(port), headers: {}, startMs };
  const info = (await call(server, 'GET', '/_emulator/info')) as { apiKey: string; siteId: string };
  server.headers = { authorization: info.apiKey, 'wix-site-id': info.siteId };
  return server;
}

async function startBare(dataDir: string): Promise<Server> {
  const started = performance.now();
  const { child, match } = await spawnUntil(
    process.execPath,
    ['bench/bare-server.mjs', join(dataDir, 'bare.sqlite'), JSON.stringify(querySql())],
    /^(\d+)$/m,
  );
  const port = Number(match[1]);
  const startMs = await healthy('127.0.0.1', port, '/health', started);
  // The same header fields as the emulator gets (the bare server ignores them).
  const headers = { authorization: 'x'.repeat(36), 'wix-site-id': 'x'.repeat(36) };
  return { name: 'bare', process: child, host: '127.0.0.1', port, headers, startMs };
}

/** Milliseconds from `npm start` to a healthy emulator (prestart's check of the build included). */
async function npmStartMs(dataDir: string): Promise<number> {
  const started = performance.now();
  const { child, match } = await spawnUntil(
    'npm',
    ['start', '--silent', '--', '--port', '0', '--data-dir', dataDir],
    LISTENING,
    true,
  );
  const elapsed = await healthy(match[1]!, Number(match[2]), '/_emulator/health', started);
  // npm runs the emulator in a shell of its own process group: stop the group.
  process.kill(-child.pid!, 'SIGTERM');
  await once(child, 'exit');
  return elapsed;
}

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024;
}

/** The `fraction` quantile of some latencies. */
const quantile = (values: number[], fraction: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
};

/** Rotated order of the sides for round `round`. */
const inTurn = <Side>(sides: Side[], round: number): Side[] =>
  sides.map((_, index) => sides[(index + round) % sides.length]!);

/** What one side did in one shape: total work, time, latencies of each call in ms. */
export interface Tally {
  units: number;
  ms: number;
  latencies: number[];
  /** The side's rate in each round (units per second), for min–median–max of the ratio. */
  rates: number[];
}
const newTally = (): Tally => ({ units: 0, ms: 0, latencies: [], rates: [] });

const fixed = (value: number, digits = 2) => value.toFixed(digits);

/** Prints one side's rate and latencies in a shape. */
function reportSide(name: string, tally: Tally, unit: string): void {
  const rate = (tally.units * 1000) / tally.ms;
  console.log(
    `  ${name.padEnd(8)} ${rate.toFixed(0)} ${unit} (p50 ${fixed(quantile(tally.latencies, 0.5))} ms, p99 ${fixed(quantile(tally.latencies, 0.99))} ms)`,
  );
}

/** Prints the ratio `side` / `baseline` of a shape (min–median–max per round) and the p99s' ratio. */
export function reportRatio(names: [string, string], side: Tally, baseline: Tally, goal: string): void {
  const rate = (tally: Tally) => (tally.units * 1000) / tally.ms;
  const roundRatios = side.rates.map((value, index) => value / baseline.rates[index]!).sort((a, b) => a - b);
  console.log(
    `  ${names[0]} / ${names[1]} ${fixed(rate(side) / rate(baseline))}× (per round ${fixed(roundRatios[0]!)}–${fixed(median(roundRatios))}–${fixed(roundRatios[roundRatios.length - 1]!)}), p99 ${fixed(quantile(side.latencies, 0.99) / quantile(baseline.latencies, 0.99))}× (goal ${goal})`,
  );
}

/**
 * Prints one shape: each server's rate and latencies, and each other server's ratio to `baseline`
 * (the first server unless named), with its goal.
 */
export function report(
  title: string,
  unit: string,
  tallies: Map<Server, Tally>,
  goals: Record<string, string>,
  baseline: Server = [...tallies.keys()][0]!,
): void {
  console.log(`${title}`);
  for (const [server, tally] of tallies) reportSide(server.name, tally, unit);
  for (const server of tallies.keys())
    if (server != baseline)
      reportRatio(
        [server.name, baseline.name],
        tallies.get(server)!,
        tallies.get(baseline)!,
        goals[server.name] ?? '–',
      );
}

/** Times `work` for `tally`, counting `units` done and the round's rate. */
async function timed(tally: Tally, units: number, work: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  tally.units += units;
  tally.ms += ms;
  tally.rates.push((units * 1000) / ms);
}

/** Loads ITEM_COUNT items into `Bench` on both servers in calls of 1,000, measured per run of 10,000. */
export async function bulkInsert(servers: Server[]): Promise<Map<Server, Tally>> {
  const tallies = new Map(servers.map((server) => [server, newTally()]));
  const runs = Math.max(1, Math.round(ITEM_COUNT / BULK_RUN));
  const batchesPerRun = Math.max(1, Math.round(Math.min(BULK_RUN, ITEM_COUNT) / BULK_BATCH));
  for (let run = 0; run < runs; run++) {
    for (const server of inTurn(servers, run)) {
      const tally = tallies.get(server)!;
      await timed(tally, batchesPerRun * BULK_BATCH, async () => {
        for (let batch = 0; batch < batchesPerRun; batch++) {
          const first = (run * batchesPerRun + batch) * BULK_BATCH;
          const dataItems = Array.from({ length: BULK_BATCH }, (_, index) => ({
            data: benchItem(first + index, 'item'),
          }));
          const started = performance.now();
          await call(server, 'POST', '/wix-data/v2/bulk/items/insert', { dataCollectionId: 'Bench', dataItems });
          tally.latencies.push(performance.now() - started);
        }
      });
    }
  }
  return tallies;
}

/** The query, sequential calls in blocks of QUERY_BLOCK per side per round. */
export async function queries(servers: Server[]): Promise<Map<Server, Tally>> {
  const tallies = new Map(servers.map((server) => [server, newTally()]));
  const answers = await Promise.all(
    servers.map((server) => call(server, 'POST', '/wix-data/v2/items/query', QUERY_BODY)),
  );
  const firstIds = answers.map((answer) => (answer as { dataItems: { id: string }[] }).dataItems[0]?.id);
  if (new Set(firstIds).size != 1) throw new Error(`the servers disagree on the query's first item: ${firstIds}`);
  for (let round = 0; round < QUERY_ROUNDS * 2; round++) {
    for (const server of inTurn(servers, round)) {
      const tally = tallies.get(server)!;
      await timed(tally, QUERY_BLOCK, async () => {
        for (let index = 0; index < QUERY_BLOCK; index++) {
          const started = performance.now();
          await call(server, 'POST', '/wix-data/v2/items/query', QUERY_BODY);
          tally.latencies.push(performance.now() - started);
        }
      });
    }
  }
  return tallies;
}

/**
 * Mixed load: MIXED_CLIENTS clients each loop (4 reads of an item by id, then 1 insert of a new
 * item) for one turn of MIXED_TURN_MS per side per round; throughput is calls per second. Each
 * side first gets one unmeasured turn of MIXED_WARM_UP_MS: the first turn otherwise opened the 50
 * connections and compiled the servers' code for this shape while measured (its calls were up to
 * 0.3 s, for either side), which weighed most on the slower side and set the p99 of the whole load.
 */
export async function mixedLoad(servers: Server[]): Promise<Map<Server, Tally>> {
  const tallies = new Map(servers.map((server) => [server, newTally()]));
  let written = 0;
  /** The clients' loop against `server` until `until`; each call's latency goes to `latencies`. */
  const turn = async (server: Server, until: number, latencies: number[]): Promise<number> => {
    let calls = 0;
    await Promise.all(
      Array.from({ length: MIXED_CLIENTS }, async (_, client) => {
        for (let step = 0; performance.now() < until; step++) {
          const callStarted = performance.now();
          if (step % 5 == 4) {
            const data = benchItem(written++, 'mixed');
            await call(server, 'POST', '/wix-data/v2/items', { dataCollectionId: 'Bench', dataItem: { data } });
          } else {
            const id = `item-${(client * 7919 + step * 104_729) % ITEM_COUNT}`;
            await call(server, 'GET', `/wix-data/v2/items/${id}?dataCollectionId=Bench`);
          }
          latencies.push(performance.now() - callStarted);
          calls++;
        }
      }),
    );
    return calls;
  };
  for (const server of servers) await turn(server, performance.now() + MIXED_WARM_UP_MS, []);
  for (let round = 0; round < MIXED_ROUNDS; round++) {
    for (const server of inTurn(servers, round)) {
      const tally = tallies.get(server)!;
      const started = performance.now();
      const calls = await turn(server, started + MIXED_TURN_MS, tally.latencies);
      const ms = performance.now() - started;
      tally.units += calls;
      tally.ms += ms;
      tally.rates.push((calls * 1000) / ms);
    }
  }
  return tallies;
}

/**
 * sitekit and the official SDK, the same `items.get` against the emulator, interleaved: sequential
 * calls and a steady pool of 64 in flight. The official client builds https://www.wixapis.com
 * URLs: its fetch sends them to the emulator (path and query unchanged), as the fidelity tests do.
 */
async function officialComparison(emulator: Server): Promise<void> {
  const { ApiKeyStrategy, createClient } = (await import(builtSdk)) as SiteKit;
  const official = await import('@wix/sdk');
  const { items } = await import('@wix/data');
  const origin = `http://${emulator.host}:${emulator.port}`;
  const apiKey = emulator.headers.authorization!;
  const siteId = emulator.headers['wix-site-id']!;
  const theirs = official.createClient({
    modules: { items },
    auth: official.ApiKeyStrategy({ apiKey, siteId }),
    fetch: originRewritingFetch(origin, fetch),
  });
  const ours = createClient({ baseUrl: origin, auth: ApiKeyStrategy({ apiKey, siteId }) });
  const sides = {
    sitekit: () => ours.items.get('Bench', 'item-1'),
    official: () => theirs.items.get('Bench', 'item-1'),
  };
  const line = (title: string, runs: Measurement[]) => {
    const { callsPerSecond, cpuMicrosPerCall } = medianOf(runs);
    const perRun = runs.map((run) => run.callsPerSecond.sitekit! / run.callsPerSecond.official!).sort((a, b) => a - b);
    console.log(
      `  ${title}: sitekit ${callsPerSecond.sitekit!.toFixed(0)} calls/s (${cpuMicrosPerCall.sitekit!.toFixed(0)} µs CPU), official ${callsPerSecond.official!.toFixed(0)} calls/s (${cpuMicrosPerCall.official!.toFixed(0)} µs CPU): ${fixed(callsPerSecond.sitekit! / callsPerSecond.official!)}× its throughput (per run ${fixed(perRun[0]!)}–${fixed(median(perRun))}–${fixed(perRun[perRun.length - 1]!)}), ${fixed(cpuMicrosPerCall.official! / cpuMicrosPerCall.sitekit!)}× less CPU`,
    );
  };
  await sequential(sides, 100);
  const sequentialRuns: Measurement[] = [];
  const poolRuns: Measurement[] = [];
  for (let run = 0; run < QUERY_ROUNDS; run++) {
    sequentialRuns.push(await sequential(sides, 6, 50));
    poolRuns.push(await steadyPool(sides, 1, 64, 640));
  }
  console.log(
    `sitekit against the official SDK: items.get on the emulator, interleaved, ${QUERY_ROUNDS} runs (goal: keep)`,
  );
  line('sequential', sequentialRuns);
  line('steady pool of 64', poolRuns);
}

/** Creates the `Bench` collection the shapes write to, on an emulator. */
export async function createBenchCollection(emulator: Server): Promise<void> {
  const permissions = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' };
  await call(emulator, 'POST', '/wix-data/v2/collections', { collection: { id: 'Bench', permissions } });
}

/** Warm-up, not measured: each route's first request compiles its validator and its code paths. */
export async function warmUp(servers: Server[]): Promise<void> {
  for (const server of servers) {
    for (let round = 0; round < 3; round++) {
      const dataItems = Array.from({ length: 100 }, (_, index) => ({ data: benchItem(round * 100 + index, 'warm') }));
      await call(server, 'POST', '/wix-data/v2/bulk/items/insert', { dataCollectionId: 'Bench', dataItems });
      await call(server, 'POST', '/wix-data/v2/items', {
        dataCollectionId: 'Bench',
        dataItem: { data: benchItem(round, 'warm-single') },
      });
      await call(server, 'GET', `/wix-data/v2/items/warm-${round}?dataCollectionId=Bench`);
      await call(server, 'POST', '/wix-data/v2/items/query', QUERY_BODY);
    }
  }
}

/** Runs the emulator benchmark and prints its figures. */
export async function emulatorBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitekit-bench-'));
  const servers: Server[] = [];
  try {
    // Start times first, each server alone on the machine, on a data directory seeded by one
    // untimed start (as `npm start` runs after the first time): the built CLI, the bare server,
    // then `npm start` itself (prestart's check of the build included).
    const startTimes = { emulator: [] as number[], bare: [] as number[], npmStart: [] as number[] };
    const startDir = join(dataDir, 'start');
    const stop = async (server: Server) => {
      server.process.kill();
      if (server.process.exitCode === null) await once(server.process, 'exit');
    };
    await stop(await startEmulator(startDir));
    for (let run = 0; run < START_RUNS; run++) {
      const emulator = await startEmulator(startDir);
      startTimes.emulator.push(emulator.startMs);
      await stop(emulator);
      const bare = await startBare(startDir);
      startTimes.bare.push(bare.startMs);
      await stop(bare);
    }
    // `npm start` after one untimed run, which builds what is stale.
    let npmStartProblem = '';
    try {
      if (process.env.BENCH_NPM_START == '0') throw new Error('not measured (BENCH_NPM_START=0)');
      await npmStartMs(startDir);
      for (let run = 0; run < START_RUNS; run++) startTimes.npmStart.push(await npmStartMs(startDir));
    } catch (error) {
      npmStartProblem = (error as Error).message.split('\n')[0]!;
    }

    const emulator = await startEmulator(join(dataDir, 'emulator'));
    servers.push(emulator);
    const bare = await startBare(dataDir);
    servers.push(bare);
    await createBenchCollection(emulator);
    await warmUp(servers);

    console.log(
      `emulator (built CLI, file store) against a bare Fastify + better-sqlite3 server, each in its own process, one keep-alive client; interleaved in rounds`,
    );
    const bulk = await bulkInsert(servers);
    report(
      `bulk insert: ${ITEM_COUNT.toLocaleString('en')} items in calls of ${BULK_BATCH}, runs of ${BULK_RUN.toLocaleString('en')} (latency per call)`,
      'items/s',
      bulk,
      { emulator: '≥ 0.7' },
      bare,
    );
    const [emulatorRss, bareRss] = [rssMiB(emulator.process), rssMiB(bare.process)];
    console.log(
      `memory after ${ITEM_COUNT.toLocaleString('en')} items (RSS): emulator ${emulatorRss.toFixed(0)} MiB, bare ${bareRss.toFixed(0)} MiB; ratio ${fixed(emulatorRss / bareRss)}× (goal ≤ 1.3)`,
    );
    const query = await queries(servers);
    report(
      'query: year > 1990 and genre = Drama, sorted by rating desc, limit 50',
      'calls/s',
      query,
      { emulator: 'keep ≈ 1' },
      bare,
    );
    const mixed = await mixedLoad(servers);
    report(
      `mixed load: ${MIXED_CLIENTS} clients, 80 % reads / 20 % writes, ${MIXED_ROUNDS} turns of ${MIXED_TURN_MS} ms per side`,
      'calls/s',
      mixed,
      { emulator: '≥ 0.8, p99 ≤ 1.3×' },
      bare,
    );
    await officialComparison(emulator);
    const range = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${fixed(sorted[0]! / 1000)}–${fixed(median(sorted) / 1000)}–${fixed(sorted[sorted.length - 1]! / 1000)} s`;
    };
    console.log(
      `start to healthy (min–median–max of ${START_RUNS}): npm start ${npmStartProblem ? `failed (${npmStartProblem})` : range(startTimes.npmStart)} (goal ≤ 0.8 s), built CLI ${range(startTimes.emulator)}, bare server ${range(startTimes.bare)}`,
    );
  } finally {
    agent.destroy();
    for (const server of servers) {
      server.process.kill();
      if (server.process.exitCode === null) await once(server.process, 'exit');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}
