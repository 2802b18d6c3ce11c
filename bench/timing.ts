/**
 * Timing helpers shared by the benchmarks: every side of a comparison runs in the same stretch of
 * time, interleaved in blocks of calls (or batches) in rotating order, and each side's time is
 * summed, so drift of the machine (a VM's neighbours, GC, JIT) lands on all sides alike.
 */

/** One call of one side of a comparison. */
export type Call = () => Promise<unknown>;

/** Calls per second of each side. */
export type Throughput = Record<string, number>;

/** What one measurement gives: calls per second, and this process's CPU time per call in µs. */
export interface Measurement {
  callsPerSecond: Throughput;
  cpuMicrosPerCall: Throughput;
}

/** Microseconds of CPU (user + system) this process has used. */
const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

/** Sums wall time and CPU time per side, and turns them into a measurement of `calls` calls per side. */
class Stopwatch {
  private readonly wall: Record<string, number> = {};
  private readonly cpu: Record<string, number> = {};

  async time(name: string, work: () => Promise<unknown>): Promise<void> {
    const wallStart = performance.now();
    const cpuStart = cpuMicros();
    await work();
    this.cpu[name] = (this.cpu[name] ?? 0) + cpuMicros() - cpuStart;
    this.wall[name] = (this.wall[name] ?? 0) + performance.now() - wallStart;
  }

  result(calls: number): Measurement {
    const names = Object.keys(this.wall);
    return {
      callsPerSecond: Object.fromEntries(names.map((name) => [name, (calls * 1000) / this.wall[name]!])),
      cpuMicrosPerCall: Object.fromEntries(names.map((name) => [name, this.cpu[name]! / calls])),
    };
  }
}

/** The order of `names` for round `round`: rotated, so no side is always first. */
const rotated = (names: string[], round: number): string[] =>
  names.map((_, index) => names[(index + round) % names.length]!);

/**
 * Runs `rounds` rounds, in each of which every side's `unit` (one call, or one batch of calls)
 * runs `perRound` times in a row, and measures per call (`callsPerUnit` calls in each unit).
 * Blocks of units rather than single ones: work a client defers past its own call (Node's fetch
 * tidies up its streams and signals after the promise resolves) then lands in its own block, not
 * on the next side's.
 */
async function interleaved(
  units: Record<string, Call>,
  rounds: number,
  perRound: number,
  callsPerUnit: number,
): Promise<Measurement> {
  const names = Object.keys(units);
  const stopwatch = new Stopwatch();
  for (let round = 0; round < rounds; round++) {
    for (const name of rotated(names, round)) {
      const unit = units[name]!;
      await stopwatch.time(name, async () => {
        for (let index = 0; index < perRound; index++) await unit();
      });
    }
  }
  return stopwatch.result(rounds * perRound * callsPerUnit);
}

/** Sequential calls: `rounds` rounds, in each of which every side makes `perRound` calls one after the other. */
export const sequential = (sides: Record<string, Call>, rounds: number, perRound = 1): Promise<Measurement> =>
  interleaved(sides, rounds, perRound, 1);

/**
 * Concurrent calls: `rounds` rounds, in each of which every side runs `perRound` batches of
 * `concurrency` calls at once, waiting for each batch.
 */
export function concurrent(
  sides: Record<string, Call>,
  rounds: number,
  concurrency: number,
  perRound = 1,
): Promise<Measurement> {
  const batches = Object.fromEntries(
    Object.entries(sides).map(([name, call]) => [name, () => Promise.all(Array.from({ length: concurrency }, call))]),
  );
  return interleaved(batches, rounds, perRound, concurrency);
}

/**
 * A steady pool: `rounds` rounds, in each of which every side makes `callsPerTurn` calls with
 * `concurrency` of them in flight at all times (a call ends, the next one starts), as a busy
 * server handles requests; not batches waiting for their slowest call.
 */
export function steadyPool(
  sides: Record<string, Call>,
  rounds: number,
  concurrency: number,
  callsPerTurn: number,
): Promise<Measurement> {
  const turns = Object.fromEntries(
    Object.entries(sides).map(([name, call]) => [
      name,
      async () => {
        let started = 0;
        const worker = async () => {
          while (started < callsPerTurn) {
            started++;
            await call();
          }
        };
        await Promise.all(Array.from({ length: concurrency }, worker));
      },
    ]),
  );
  return interleaved(turns, rounds, 1, callsPerTurn);
}

/** The median of some numbers. */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median of each side's figures over several measurements. */
export function medianOf(runs: Measurement[]): Measurement {
  const medianBy = (pick: (run: Measurement) => Throughput): Throughput =>
    Object.fromEntries(Object.keys(pick(runs[0]!)).map((name) => [name, median(runs.map((run) => pick(run)[name]!))]));
  return {
    callsPerSecond: medianBy((run) => run.callsPerSecond),
    cpuMicrosPerCall: medianBy((run) => run.cpuMicrosPerCall),
  };
}
