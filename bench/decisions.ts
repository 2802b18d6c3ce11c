/**
 * The permission decisions' bookkeeping (emulator/auth/decisions.ts), A/B against an earlier
 * version of the same file (`BENCH_DECISIONS_BASE`, a git revision; default the packed-number
 * version the nested maps replaced), interleaved in one process (bench/timing.ts):
 * - the lookup: `recordDecision` on a fresh request, for a mix of the decisions a site takes (one
 *   decision most of the time, as most requests take the same one), CPU per call in ns;
 * - `items.get` through our SDK on an in-process emulator (the current version only: the emulator
 *   imports one), CPU per call in µs for client and server together; compare two runs of this
 *   bench at the two revisions for the A/B of that one.
 * Asserts nothing: the figures vary with the machine.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import type { CollectionDecision } from '../emulator/auth/decisions.js';
import { medianOf, sequential, type Measurement } from './timing.js';

type DecisionsModule = typeof import('../emulator/auth/decisions.js');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The version measured against: the last one keyed by a packed number. */
const BASE = process.env.BENCH_DECISIONS_BASE ?? 'c6c1375';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Calls per measured unit of the lookup (one unit is one side's turn). */
const LOOKUPS_PER_UNIT = 20_000;
const GETS_PER_UNIT = 200;

/** The decisions of the mix: 9 of 10 calls take the first (as most requests do), the rest spread over 48 others. */
function decisionMix(): CollectionDecision[] {
  const common: CollectionDecision = {
    kind: 'collection',
    allowed: true,
    enforced: true,
    collectionId: 'Movies',
    action: 'read',
    requiredRole: 'ANYONE',
    callerKind: 'visitor',
  };
  const others: CollectionDecision[] = [];
  for (const collectionId of ['Movies', 'Books', 'Orders'])
    for (const action of ['read', 'insert', 'update', 'remove'] as const)
      for (const callerKind of ['visitor', 'member', 'elevated', 'none'] as const)
        others.push({
          ...common,
          collectionId,
          action,
          callerKind,
          requiredRole: action == 'read' ? 'ANYONE' : 'SITE_MEMBER_AUTHOR',
          allowed: callerKind != 'visitor',
          ...(callerKind == 'member' && action != 'insert' ? { ownItemsOnly: true } : {}),
        });
  return Array.from({ length: 100 }, (_, index) => (index % 10 ? common : others[index % others.length]!));
}

/** The decisions module of git revision `revision`, loaded from a copy (its imports are types only). */
async function decisionsAt(revision: string, directory: string): Promise<DecisionsModule> {
  const source = execFileSync('git', ['show', `${revision}:emulator/auth/decisions.ts`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const path = join(directory, `decisions-${revision}.ts`);
  writeFileSync(path, source);
  return (await import(path)) as DecisionsModule;
}

/** A side of the lookup comparison: a unit of {@link LOOKUPS_PER_UNIT} decisions, each on a fresh request. */
function lookups(module: DecisionsModule, mix: CollectionDecision[]) {
  return async () => {
    for (let index = 0; index < LOOKUPS_PER_UNIT; index++) {
      // A fresh decision object each call, as the items service builds one per request.
      module.recordDecision({} as FastifyRequest, { ...mix[index % mix.length]! });
    }
  };
}

/** ns of CPU per call from a measurement of units of `perUnit` calls. */
const nanosPerCall = (run: Measurement, side: string, perUnit: number): number =>
  (run.cpuMicrosPerCall[side]! * 1000) / perUnit;

async function lookupComparison(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), 'sitekit-bench-decisions-'));
  try {
    const current = (await import('../emulator/auth/decisions.js')) as DecisionsModule;
    const base = await decisionsAt(BASE, directory);
    const mix = decisionMix();
    const sides = { current: lookups(current, mix), base: lookups(base, mix) };
    await sequential(sides, 3);
    const runs: Measurement[] = [];
    for (let run = 0; run < ROUNDS; run++) runs.push(await sequential(sides, 4));
    const middle = medianOf(runs);
    const now = nanosPerCall(middle, 'current', LOOKUPS_PER_UNIT);
    const before = nanosPerCall(middle, 'base', LOOKUPS_PER_UNIT);
    const perRun = runs.map((run) => run.cpuMicrosPerCall.base! / run.cpuMicrosPerCall.current!).sort((a, b) => a - b);
    console.log(
      `decision lookup (recordDecision), interleaved, ${ROUNDS} runs of ${4 * LOOKUPS_PER_UNIT} calls a side`,
    );
    console.log(
      `  current ${now.toFixed(0)} ns CPU per call, ${BASE} ${before.toFixed(0)} ns: ${(before / now).toFixed(2)}× (per run ${perRun.map((ratio) => ratio.toFixed(2)).join(', ')}; above 1: current cheaper)`,
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function itemsGet(): Promise<void> {
  const { startEmulator } = await import('../emulator/index.js');
  const { ApiKeyStrategy, createClient } = await import('../src/index.js');
  const emulator = await startEmulator({ port: 0, memory: true });
  try {
    const { apiKey, siteId } = emulator.info;
    const client = createClient({ baseUrl: emulator.url, auth: ApiKeyStrategy({ apiKey, siteId }) });
    const { items } = await client.items.query('Movies').limit(1).find();
    const itemId = items[0]!._id;
    const sides = {
      get: async () => {
        for (let index = 0; index < GETS_PER_UNIT; index++) await client.items.get('Movies', itemId);
      },
    };
    await sequential(sides, 3);
    const runs: Measurement[] = [];
    for (let run = 0; run < ROUNDS; run++) runs.push(await sequential(sides, 3));
    const perCall = runs.map((run) => run.cpuMicrosPerCall.get! / GETS_PER_UNIT).sort((a, b) => a - b);
    console.log(
      `items.get on the emulator in-process (client and server), ${ROUNDS} runs of ${3 * GETS_PER_UNIT} calls`,
    );
    console.log(
      `  ${(medianOf(runs).cpuMicrosPerCall.get! / GETS_PER_UNIT).toFixed(1)} µs CPU per call (per run ${perCall.map((value) => value.toFixed(0)).join(', ')})`,
    );
  } finally {
    await emulator.close();
  }
}

/** Runs the decisions benchmark and prints its figures. */
export async function decisionsBench(): Promise<void> {
  await lookupComparison();
  await itemsGet();
}
