/**
 * Named snapshots of the demo site (issue 30): what a test suite pays to save one and to restore it
 * before every test, through the test bench (`emulator.snapshots.save/restore`, one control API
 * call each, HTTP included), on an emulator in this process, on every engine that loads here: with
 * a file store (as `npm start` runs it: snapshots are also written to disk) where the engine keeps
 * one, and in memory (`memory: true`, as tests run it).
 * - save: median and p90 of SAVES saves;
 * - restore, idle: median and p90 of RESTORES restores (goal ≤ 20 ms median);
 * - restore under load: the same while LOAD_CLIENTS clients loop reads and writes of items against
 *   the same emulator (clients in this process too: they share its two cores; bar ≤ 250 ms).
 * Asserts nothing: the figures vary with the machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../emulator/index.js';
import { chooseEngine } from '../emulator/store/choose-engine.js';
import { type Engine, StoreEngineError } from '../emulator/store/engine.js';
import { ENGINE_NAMES, type EngineName } from '../emulator/store/engine-names.js';
import { median } from './timing.js';

const SAVES = Number(process.env.BENCH_SNAPSHOT_SAVES ?? 30);
const RESTORES = Number(process.env.BENCH_SNAPSHOT_RESTORES ?? 50);
const LOAD_CLIENTS = 16;

/** The value below which `share` of the values lie. */
const percentile = (values: number[], share: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

/** Milliseconds of each of `runs` calls of `work`, one after the other. */
async function timings(runs: number, work: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

const figures = (times: number[]) =>
  `median ${median(times).toFixed(1)} ms, p90 ${percentile(times, 0.9).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`;

/** Clients looping 4 reads of a demo movie to 1 insert, until `stop()`; resolves how many calls they made. */
function load(emulator: Emulator): { stop: () => Promise<number> } {
  const headers = { authorization: emulator.info.apiKey, 'wix-site-id': emulator.info.siteId };
  let running = true;
  let calls = 0;
  const client = async (index: number) => {
    for (let step = 0; running; step++) {
      // Reads and writes that a restore may pull the rows from under: a 404 is an answer too.
      const response =
        step % 5 == 4
          ? await fetch(`${emulator.url}/wix-data/v2/items`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({
                dataCollectionId: 'Movies',
                dataItem: { data: { title: `load ${index}-${step}` } },
              }),
            })
          : await fetch(`${emulator.url}/wix-data/v2/items/query`, {
              method: 'POST',
              headers: { ...headers, 'content-type': 'application/json' },
              body: JSON.stringify({ dataCollectionId: 'Movies', query: { paging: { limit: 10 } } }),
            });
      await response.arrayBuffer();
      calls++;
    }
  };
  const clients = Promise.all(Array.from({ length: LOAD_CLIENTS }, (_, index) => client(index)));
  return {
    async stop() {
      running = false;
      await clients;
      return calls;
    },
  };
}

/** Save and restore figures of the demo site on an emulator started with `options`. */
async function measure(
  title: string,
  options: { engine: EngineName } & ({ memory: true } | { dataDir: string }),
): Promise<void> {
  const emulator = await startEmulator({ port: 0, ...options });
  try {
    // Warm-up, not measured: the routes' validators compile on their first request.
    await emulator.snapshots.save('warm-up');
    await emulator.snapshots.restore('warm-up');
    const saves = await timings(SAVES, () => emulator.snapshots.save('demo'));
    const { sizeBytes } = (await emulator.snapshots.list()).find((snapshot) => snapshot.name == 'demo')!;
    const restores = await timings(RESTORES, () => emulator.snapshots.restore('demo'));
    const busy = load(emulator);
    const loaded = await timings(RESTORES, () => emulator.snapshots.restore('demo'));
    const loadCalls = await busy.stop();
    console.log(`${title}: the demo site's snapshot holds ${(sizeBytes / 1024).toFixed(0)} KiB`);
    console.log(`  save: ${figures(saves)}`);
    console.log(`  restore, idle: ${figures(restores)} (goal ≤ 20 ms median)`);
    console.log(
      `  restore under load (${LOAD_CLIENTS} clients, ${loadCalls} item calls meanwhile): ${figures(loaded)} (bar ≤ 250 ms)`,
    );
  } finally {
    await emulator.close();
  }
}

/** The engines that load here (node:sqlite needs Node 22.13+, better-sqlite3 its build). */
async function availableEngines(): Promise<Engine[]> {
  const engines: Engine[] = [];
  for (const name of ENGINE_NAMES) {
    try {
      engines.push(await chooseEngine(name));
    } catch (error) {
      if (!(error instanceof StoreEngineError)) throw error;
    }
  }
  return engines;
}

/** `npm run bench -- snapshots`: on every engine that loads here, in memory, and on a file store where it keeps one. */
export async function snapshotsBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sitekit-bench-snapshots-'));
  try {
    console.log('named snapshots of the demo site, through the test bench (one control API call each), in-process');
    for (const engine of await availableEngines()) {
      if (engine.holdsFiles)
        await measure(`${engine.name}, file store (npm start)`, {
          engine: engine.name,
          dataDir: join(dataDir, engine.name),
        });
      await measure(`${engine.name}, memory (tests)`, { engine: engine.name, memory: true });
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
