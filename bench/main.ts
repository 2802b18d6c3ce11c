/**
 * `npm run bench`: every benchmark, one after the other. Each prints its figures as ratios against
 * baselines measured in the same run (see bench/timing.ts for how sides are interleaved).
 * `npm run bench -- transport` (or `emulator`, `engines`, `in-process`, `decisions`, `snapshots`, `sites`,
 * `start`) runs one of them.
 */
import { decisionsBench } from './decisions.js';
import { emulatorBench } from './emulator.js';
import { enginesBench } from './engines.js';
import { inProcessBench } from './in-process.js';
import { sitesBench } from './sites.js';
import { snapshotsBench } from './snapshots.js';
import { startBench } from './start.js';
import { transportBench } from './transport.js';

const benches: Record<string, () => Promise<void>> = {
  transport: transportBench,
  emulator: emulatorBench,
  engines: enginesBench,
  'in-process': inProcessBench,
  decisions: decisionsBench,
  snapshots: snapshotsBench,
  sites: sitesBench,
  start: startBench,
};
const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in benches));
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}: choose from ${Object.keys(benches).join(', ')}`);
  process.exit(2);
}
for (const name of chosen.length > 0 ? chosen : Object.keys(benches)) await benches[name]!();
