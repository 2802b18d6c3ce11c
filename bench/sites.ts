/**
 * Sites on demand (issue 30), through the test bench (`emulator.createSite()`, one control API call,
 * HTTP included), on an emulator in this process in memory (as tests run it):
 * - a site from the demo template, one at a time: median and p90 of SITES sites (goal ≤ 50 ms
 *   median), once their key pairs are made ahead (the first site after a start waits for the
 *   template and for its key pair: its time is printed apart, and so is the time the pool takes);
 * - 8 sites asked for at once: the median of their times (bar ≤ 250 ms);
 * - memory per extra demo site: the heap and RSS growth over SITES sites, each after a full collection;
 * - 8 sites under the mixed load against one site under the same total load: LOAD_CLIENTS clients
 *   looping 4 reads to 1 write, all on one site, then spread over 8 sites, in alternating turns
 *   (goal ≥ 0.9× the one site's calls per second).
 * Asserts nothing: the figures vary with the machine.
 */
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { assembleEmulator } from '../emulator/assemble.js';
import { createSite, type EmulatorSite } from '../emulator/index.js';
import { median } from './timing.js';

const SITES = Number(process.env.BENCH_SITES ?? 20);
const LOAD_CLIENTS = 16;
const LOAD_TURNS = 6;
const TURN_MS = 1500;

/** The value below which `share` of the values lie. */
const percentile = (values: number[], share: number): number =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

/** A site made, and how long it took. */
async function timedSite(url: string): Promise<{ site: EmulatorSite; ms: number }> {
  const started = performance.now();
  const site = await createSite(url, { from: 'demo' });
  return { site, ms: performance.now() - started };
}

// A full collection before each reading, without `node --expose-gc`: the flag set at run time
// shows \`gc\` to a new context.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The bytes of the heap and of the whole process, after a full collection. */
function memory(): { heap: number; rss: number } {
  collectGarbage();
  const { heapUsed, rss } = process.memoryUsage();
  return { heap: heapUsed, rss };
}

/** What one site's connection needs for raw calls. */
interface Target {
  url: string;
  apiKey: string;
  siteId: string;
}

/** Clients looping 4 reads of the site's movies to 1 insert for `ms`, each on `targetOf(client)`; resolves the calls made. */
async function loadFor(ms: number, targetOf: (client: number) => Target): Promise<number> {
  const until = performance.now() + ms;
  let calls = 0;
  await Promise.all(
    Array.from({ length: LOAD_CLIENTS }, async (_, client) => {
      const { url, apiKey, siteId } = targetOf(client);
      const headers = { authorization: apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' };
      for (let step = 0; performance.now() < until; step++) {
        const response =
          step % 5 == 4
            ? await fetch(`${url}/wix-data/v2/items`, {
                method: 'POST',
                headers,
                body: JSON.stringify({
                  dataCollectionId: 'Movies',
                  dataItem: { data: { title: `load ${client}-${step}` } },
                }),
              })
            : await fetch(`${url}/wix-data/v2/items/query`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ dataCollectionId: 'Movies', query: { paging: { limit: 10 } } }),
              });
        await response.arrayBuffer();
        calls++;
      }
    }),
  );
  return calls;
}

/** `npm run bench -- sites`. */
export async function sitesBench(): Promise<void> {
  console.log('sites on demand, through the test bench (one control API call each), in-process, in memory');
  // Assembled here rather than started: the bench waits for the key pairs made ahead.
  const host = '127.0.0.1';
  const emulator = await assembleEmulator({ host, memory: true, sitePool: SITES + 8 });
  const made: EmulatorSite[] = [];
  try {
    await emulator.app.listen({ port: 0, host });
    const url = `http://${host}:${(emulator.app.server.address() as AddressInfo).port}`;
    emulator.setUrl(url);
    const first = await timedSite(url);
    made.push(first.site);
    console.log(
      `  the first site after the start (the demo template made then, and its key pair unless one was made ahead): ${first.ms.toFixed(0)} ms`,
    );
    const keysStarted = performance.now();
    await emulator.sites.prepare();
    const keySeconds = (performance.now() - keysStarted) / 1000;
    console.log(`  ${SITES + 8} key pairs made ahead, in the background: ${keySeconds.toFixed(1)} s`);

    const before = memory();
    const times: number[] = [];
    for (let index = 0; index < SITES; index++) {
      const { site, ms } = await timedSite(url);
      made.push(site);
      times.push(ms);
    }
    const after = memory();
    console.log(
      `  a site from the demo template, one at a time: median ${median(times).toFixed(1)} ms, p90 ${percentile(times, 0.9).toFixed(1)} ms (goal ≤ 50 ms median)`,
    );
    console.log(
      `  memory per extra demo site: heap ${((after.heap - before.heap) / SITES / 1024).toFixed(0)} KiB, RSS ${((after.rss - before.rss) / SITES / 1024).toFixed(0)} KiB`,
    );
    const atOnce = await Promise.all(Array.from({ length: 8 }, () => timedSite(url)));
    made.push(...atOnce.map(({ site }) => site));
    console.log(
      `  8 sites asked for at once: median ${median(atOnce.map(({ ms }) => ms)).toFixed(0)} ms, slowest ${Math.max(...atOnce.map(({ ms }) => ms)).toFixed(0)} ms (bar ≤ 250 ms median)`,
    );

    const eight = made.slice(-8).map(({ info }) => info);
    const one = eight[0]!;
    // Not measured: a turn of each side first, so neither pays for the first calls' compiling.
    await loadFor(TURN_MS / 2, () => one);
    await loadFor(TURN_MS / 2, (client) => eight[client % 8]!);
    let oneCalls = 0;
    let eightCalls = 0;
    for (let turn = 0; turn < LOAD_TURNS; turn++) {
      // Alternating turns, so a drift of the machine lands on both sides alike.
      if (turn % 2 == 0) oneCalls += await loadFor(TURN_MS, () => one);
      else eightCalls += await loadFor(TURN_MS, (client) => eight[client % 8]!);
    }
    const seconds = (LOAD_TURNS / 2) * (TURN_MS / 1000);
    console.log(
      `  mixed load, ${LOAD_CLIENTS} clients (80 % reads / 20 % writes): one site ${(oneCalls / seconds).toFixed(0)} calls/s, 8 sites ${(eightCalls / seconds).toFixed(0)} calls/s: ${(eightCalls / oneCalls).toFixed(2)}× (goal ≥ 0.9×)`,
    );
  } finally {
    await Promise.allSettled(made.map((site) => site.remove()));
    await emulator.close();
  }
}
