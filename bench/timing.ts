/**
 * Timing helpers shared by the benchmarks: every side of a comparison runs in the same stretch of
 * time, interleaved call by call (or batch by batch) in rotating order, and each side's time is
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
const rotated = (names: string[], round: number): string[] => names.map((_, index) => names[(index + round) % names.length]!);

/**
 * Sequential calls: `rounds` rounds, in each of which every side makes `perRound` calls one after
 * the other. Blocks of calls rather than single calls: work a client defers past its own call
 * (Node's fetch tidies up its streams and signals after the promise resolves) then lands in its
 * own block, not on the next side's call.
 */
export async function sequential(sides: Record<string, Call>, rounds: number, perRound = 1): Promise<Measurement> {
  const names = Object.keys(sides);
  const stopwatch = new Stopwatch();
  for (let round = 0; round < rounds; round++) {
    for (const name of rotated(names, round)) {
      const call = sides[name]!;
      await stopwatch.time(name, async () => {
        for (let index = 0; index < perRound; index++) await call();
      });
    }
  }
  return stopwatch.result(rounds * perRound);
}

/**
 * Concurrent calls: `rounds` rounds, in each of which every side runs `perRound` batches of
 * `concurrency` calls at once, waiting for each batch.
 */
export async function concurrent(sides: Record<string, Call>, rounds: number, concurrency: number, perRound = 1): Promise<Measurement> {
  const names = Object.keys(sides);
  const stopwatch = new Stopwatch();
  for (let round = 0; round < rounds; round++) {
    for (const name of rotated(names, round)) {
      const call = sides[name]!;
      await stopwatch.time(name, async () => {
        for (let batch = 0; batch < perRound; batch++) await Promise.all(Array.from({ length: concurrency }, call));
      });
    }
  }
  return stopwatch.result(rounds * perRound * concurrency);
}

/** The median of some numbers. */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median of each side's figures over several measurements. */
export function medianOf(runs: Measurement[]): Measurement {
  const medianBy = (pick: (run: Measurement) => Throughput): Throughput =>
    Object.fromEntries(Object.keys(pick(runs[0]!)).map((name) => [name, median(runs.map((run) => pick(run)[name]!))]));
  return { callsPerSecond: medianBy((run) => run.callsPerSecond), cpuMicrosPerCall: medianBy((run) => run.cpuMicrosPerCall) };
}
