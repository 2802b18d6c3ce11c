/**
 * The in-process emulator (issue 29): `createEmulator()` reached through `emulator.fetch`,
 * against the same emulator listening on loopback (`startEmulator({port: 0})`) reached by the
 * SDK's Node handler (node:http, keep-alive), both in this process and in memory, so the server's
 * work counts on both sides and only the way between client and server differs. The SDK is the
 * package's node build (bench/built-sdk.ts). Prints:
 * - calls per second and this process's CPU per call, interleaved (bench/timing.ts), for
 *   `items.get`, `items.query` (a page of 10) and `items.insert`, sequential and a steady pool
 *   of 16 in flight (goal: in-process ≥ 1.3× the calls per second over loopback);
 * - `createEmulator()` to the first answer (an API key `items.get`): the first in the process
 *   (modules loaded), then the median and p90 of START_RUNS more (goal ≤ 300 ms median), and the
 *   part of it one RSA key pair takes (each emulator makes its own);
 * - `items.get` in-process, run after run in one process: CPU per call and heap after each run,
 *   to see whether a long suite slows down or grows (both must stay flat).
 * Asserts nothing: figures vary with the machine, only the ratios are meant to be compared.
 */
import { generateKeyPair } from 'jose';
import { createEmulator, startEmulator, type Emulator } from '../emulator/index.js';
import { SIGNING_ALGORITHM } from '../emulator/site.js';
import { builtSdk } from './built-sdk.js';
import { median, medianOf, sequential, steadyPool, type Call, type Measurement } from './timing.js';

type SiteKit = typeof import('../src/index.js');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const START_RUNS = Number(process.env.BENCH_START_RUNS ?? 15);
const DRIFT_RUNS = Number(process.env.BENCH_DRIFT_RUNS ?? 8);
const DRIFT_CALLS = 2000;
const POOL = 16;

const fixed = (value: number) => value.toFixed(2);
/** The value below which `share` of the values lie. */
const percentile = (values: number[], share: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

/** A client of `emulator` with the API key, through `fetch` when given (else the SDK's Node handler). */
async function apiKeyClient(emulator: Emulator, fetch?: typeof globalThis.fetch) {
  const { ApiKeyStrategy, createClient } = (await import(builtSdk)) as SiteKit;
  const { url, apiKey, siteId } = emulator.info;
  return createClient({ baseUrl: url, auth: ApiKeyStrategy({ apiKey, siteId }), ...(fetch ? { fetch } : {}) });
}

/** The calls compared, on one client: a demo movie by id, a page of 10 movies, an insert. */
async function callsOf(emulator: Emulator, fetch?: typeof globalThis.fetch): Promise<Record<string, Call>> {
  const client = await apiKeyClient(emulator, fetch);
  const [movie] = (await client.items.query('Movies').limit(1).find()).items;
  let inserted = 0;
  return {
    'items.get': () => client.items.get('Movies', movie!._id!),
    'items.query (10)': () => client.items.query('Movies').limit(10).find(),
    'items.insert': () => client.items.insert('Movies', { title: `bench ${++inserted}` }),
  };
}

/** One line of a comparison: each side's median figures over the runs, and their ratio with its spread. */
function compareLine(title: string, runs: Measurement[]): string {
  const { callsPerSecond, cpuMicrosPerCall } = medianOf(runs);
  const ratios = runs
    .map((run) => run.callsPerSecond['in-process']! / run.callsPerSecond.loopback!)
    .sort((a, b) => a - b);
  return `  ${title}: in-process ${callsPerSecond['in-process']!.toFixed(0)} calls/s (${cpuMicrosPerCall['in-process']!.toFixed(0)} µs CPU), loopback ${callsPerSecond.loopback!.toFixed(0)} calls/s (${cpuMicrosPerCall.loopback!.toFixed(0)} µs CPU): ${fixed(median(ratios))}× the calls per second (per run ${fixed(ratios[0]!)}–${fixed(ratios[ratios.length - 1]!)})`;
}

/** In-process against loopback HTTP, call by call. */
async function throughput(): Promise<void> {
  const listening = await startEmulator({ port: 0, memory: true });
  const inProcess = await createEmulator();
  try {
    const overHttp = await callsOf(listening);
    const overFetch = await callsOf(inProcess, inProcess.fetch);
    console.log(
      `in-process (emulator.fetch) against loopback HTTP, same process, interleaved, ${ROUNDS} runs (goal ≥ 1.3×)`,
    );
    for (const name of Object.keys(overHttp)) {
      const sides = { 'in-process': overFetch[name]!, loopback: overHttp[name]! };
      await sequential(sides, 50); // warm-up
      const sequentialRuns: Measurement[] = [];
      const poolRuns: Measurement[] = [];
      for (let run = 0; run < ROUNDS; run++) {
        sequentialRuns.push(await sequential(sides, 6, 50));
        poolRuns.push(await steadyPool(sides, 1, POOL, 600));
      }
      console.log(compareLine(`${name}, sequential`, sequentialRuns));
      console.log(compareLine(`${name}, steady pool of ${POOL}`, poolRuns));
    }
  } finally {
    await inProcess.close();
    await listening.close();
  }
}

/** Milliseconds from `createEmulator()` to its first answer. */
async function startToFirstAnswer(): Promise<number> {
  const started = performance.now();
  const emulator = await createEmulator();
  const client = await apiKeyClient(emulator, emulator.fetch);
  await client.items.query('Movies').limit(1).find();
  const elapsed = performance.now() - started;
  await emulator.close();
  return elapsed;
}

/** `createEmulator()` to the first answer, and what one key pair costs of it. */
async function startTimes(): Promise<void> {
  const first = await startToFirstAnswer();
  const times: number[] = [];
  for (let run = 0; run < START_RUNS; run++) times.push(await startToFirstAnswer());
  const keyPairs: number[] = [];
  for (let run = 0; run < START_RUNS; run++) {
    const started = performance.now();
    await generateKeyPair(SIGNING_ALGORITHM, { extractable: true, modulusLength: 2048 });
    keyPairs.push(performance.now() - started);
  }
  console.log(`createEmulator() to the first answer (in memory; goal ≤ 300 ms median)`);
  console.log(
    `  first in the process ${first.toFixed(0)} ms (modules loaded); then median ${median(times).toFixed(0)} ms, p90 ${percentile(times, 0.9).toFixed(0)} ms over ${START_RUNS} runs; of which one RSA-2048 key pair: median ${median(keyPairs).toFixed(0)} ms`,
  );
}

/** `items.get` in-process, run after run: this process's CPU per call in each run. */
async function drift(): Promise<void> {
  const emulator = await createEmulator();
  try {
    const get = (await callsOf(emulator, emulator.fetch))['items.get']!;
    const perRun: number[] = [];
    const heap: number[] = [];
    for (let run = 0; run < DRIFT_RUNS; run++) {
      const { cpuMicrosPerCall } = await sequential({ get }, 1, DRIFT_CALLS);
      perRun.push(cpuMicrosPerCall.get!);
      heap.push(process.memoryUsage().heapUsed / 1e6);
    }
    console.log(
      `items.get in-process, ${DRIFT_RUNS} runs of ${DRIFT_CALLS} calls in one process (goal: flat): CPU per call ${perRun.map((micros) => micros.toFixed(0)).join(', ')} µs; heap after each ${heap.map((megabytes) => megabytes.toFixed(0)).join(', ')} MB`,
    );
  } finally {
    await emulator.close();
  }
}

/** Runs the in-process benchmark and prints its figures. */
export async function inProcessBench(): Promise<void> {
  await startTimes();
  await throughput();
  await drift();
}
