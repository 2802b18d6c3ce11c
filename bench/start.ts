/**
 * The start benchmark: `startEmulator({ memory: true, port: 0 })` of the built package
 * (dist/emulator.mjs, what users import) to its first answer (`GET /_emulator/info`), repeated in
 * this process (the first start also loads the code: shown apart). Beside it, what making the demo
 * data's slow parts (the demo password's scrypt hash, the demo images) costs: each start paid it
 * until they were made at build (`emulator/demo-assets.ts`); measured here in the same run, so the
 * two figures compare on this machine's load.
 */
import { fileURLToPath } from 'node:url';
import { makeDemoAssets } from '../emulator/demo-assets.js';
import { median } from './timing.js';

type EmulatorModule = typeof import('../emulator/index.js');

const RUNS = Number(process.env.BENCH_START_RUNS ?? 15);

/** Wall-clock and CPU (this process's, user + system) milliseconds of one measured piece of work. */
interface Cost {
  wall: number;
  cpu: number;
}

/** Measures `work` (awaited). */
async function cost(work: () => unknown): Promise<Cost> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/** From calling `start` to the first answer of the started emulator (closing it is not counted). */
async function startToFirstAnswer(start: EmulatorModule['startEmulator']): Promise<Cost> {
  let close = async () => {};
  const measured = await cost(async () => {
    // No sites' key pairs made ahead: they are made in the background, and their CPU is not the start's.
    const emulator = await start({ memory: true, port: 0, sitePool: 0 });
    close = () => emulator.close();
    const response = await fetch(`${emulator.url}/_emulator/info`);
    if (!response.ok) throw new Error(`GET /_emulator/info answered ${response.status}`);
    await response.arrayBuffer();
  });
  await close();
  return measured;
}

/** Runs the benchmark and prints its figures. */
export async function startBench(): Promise<void> {
  const entry = fileURLToPath(new URL('../dist/emulator.mjs', import.meta.url));
  let startEmulator!: EmulatorModule['startEmulator'];
  const loading = await cost(async () => ({ startEmulator } = (await import(entry)) as EmulatorModule));
  const first = await startToFirstAnswer(startEmulator);
  const starts: Cost[] = [];
  const demoAssets: Cost[] = [];
  // Interleaved, so that both see the same load.
  for (let run = 0; run < RUNS; run++) {
    starts.push(await startToFirstAnswer(startEmulator));
    demoAssets.push(await cost(makeDemoAssets));
  }
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const medians = (costs: Cost[]) => ({
    wall: median(costs.map((c) => c.wall)),
    cpu: median(costs.map((c) => c.cpu)),
  });
  const start = medians(starts);
  const assets = medians(demoAssets);
  console.log('\nstart (the built package, in memory, port 0; medians of %d runs)', RUNS);
  console.log(
    `  startEmulator() to first answer: ${ms(start.wall)} (CPU ${ms(start.cpu)}); the first start, loading the code: ${ms(loading.wall + first.wall)} (${ms(loading.wall)} of it importing)`,
  );
  console.log(
    `  demo password hash + demo images, made at build now, which every start made before: ${ms(assets.wall)} (CPU ${ms(assets.cpu)}, ${((assets.cpu / (start.cpu + assets.cpu)) * 100).toFixed(0)} % of such a start's CPU)`,
  );
}
