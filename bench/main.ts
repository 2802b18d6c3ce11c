/**
 * `npm run bench`: every benchmark, one after the other. Each prints its figures as ratios against
 * baselines measured in the same run (see bench/timing.ts for how sides are interleaved).
 */
import { emulatorBench } from './emulator.js';
import { transportBench } from './transport.js';

await transportBench();
await emulatorBench();
