/**
 * The time limits' timer (`timer.ts`, a plain `setTimeout` in every build). Most cases run on fake
 * timers; the process-lifetime cases run the built module in a child process.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type StartTimer = (ms: number, onExpire: () => void) => () => void;

/** A fresh copy of the timer module's `startTimer`. */
async function load(_module: 'timer'): Promise<StartTimer> {
  vi.resetModules();
  return (await import('../../../src/http/timer.js')).startTimer;
}

/** Fake timers whose clock also drives `performance.now()` (the recorder reads it). */
const useFakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });

/** Records which limits expired, in order, and when (on the fake clock). */
function recorder() {
  const expired: { name: string; at: number }[] = [];
  const start = performance.now();
  return {
    expired,
    names: () => expired.map((entry) => entry.name),
    onExpire: (name: string) => () => void expired.push({ name, at: performance.now() - start }),
  };
}

describe.each(['timer'] as const)('%s startTimer', (module) => {
  let startTimer: StartTimer;
  beforeEach(async () => {
    useFakeClock();
    startTimer = await load(module);
  });
  afterEach(() => vi.useRealTimers());

  it('expires once, not before its time', () => {
    const log = recorder();
    startTimer(100, log.onExpire('a'));
    vi.advanceTimersByTime(99);
    expect(log.names()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log.expired).toEqual([{ name: 'a', at: 100 }]);
    vi.advanceTimersByTime(1000);
    expect(log.names()).toEqual(['a']);
  });

  it('a cancel before the end prevents the expiry; a cancel after it, or twice, does nothing', () => {
    const log = recorder();
    const cancelEarly = startTimer(100, log.onExpire('cancelled'));
    const cancelLate = startTimer(100, log.onExpire('kept'));
    vi.advanceTimersByTime(50);
    cancelEarly();
    cancelEarly();
    vi.advanceTimersByTime(50);
    expect(log.names()).toEqual(['kept']);
    cancelLate();
    cancelLate();
    vi.advanceTimersByTime(1000);
    expect(log.names()).toEqual(['kept']);
  });

  it.each([
    ['first', 0],
    ['middle', 1],
    ['last', 2],
  ])('cancelling the %s of three keeps the others expiring in order, each on time', (_which, cancelled) => {
    const log = recorder();
    const cancels = ['a', 'b', 'c'].map((name, index) => {
      if (index > 0) vi.advanceTimersByTime(10);
      return startTimer(100, log.onExpire(name));
    });
    vi.advanceTimersByTime(5);
    cancels[cancelled]!();
    vi.advanceTimersByTime(200);
    const expected = [
      { name: 'a', at: 100 },
      { name: 'b', at: 110 },
      { name: 'c', at: 120 },
    ].filter((_entry, index) => index !== cancelled);
    expect(log.expired).toEqual(expected);
  });

  it('limits of several durations, interleaved, each expire at their own time', () => {
    const log = recorder();
    startTimer(300, log.onExpire('long'));
    startTimer(100, log.onExpire('short'));
    vi.advanceTimersByTime(50);
    startTimer(100, log.onExpire('short later'));
    startTimer(20, log.onExpire('shortest'));
    vi.advanceTimersByTime(1000);
    expect(log.expired).toEqual([
      { name: 'shortest', at: 70 },
      { name: 'short', at: 100 },
      { name: 'short later', at: 150 },
      { name: 'long', at: 300 },
    ]);
  });

  it('a limit started after every earlier one was cancelled expires on time (not when the old timer fires)', () => {
    const log = recorder();
    const cancel = startTimer(100, log.onExpire('cancelled'));
    vi.advanceTimersByTime(30);
    cancel();
    vi.advanceTimersByTime(20);
    startTimer(100, log.onExpire('later'));
    vi.advanceTimersByTime(99);
    expect(log.names()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(log.expired).toEqual([{ name: 'later', at: 150 }]);
  });

  it('a limit started after the list emptied by expiring expires on time', () => {
    const log = recorder();
    startTimer(100, log.onExpire('first'));
    vi.advanceTimersByTime(130);
    startTimer(100, log.onExpire('second'));
    vi.advanceTimersByTime(1000);
    expect(log.expired).toEqual([
      { name: 'first', at: 100 },
      { name: 'second', at: 230 },
    ]);
  });

  it('many limits of one duration, half cancelled at random, expire in order, each at its own time', () => {
    const log = recorder();
    const begin = performance.now();
    const started: { name: string; at: number; cancel: () => void }[] = [];
    for (let index = 0; index < 200; index++) {
      vi.advanceTimersByTime(index % 3);
      const name = `limit ${index}`;
      started.push({ name, at: performance.now() - begin + 500, cancel: startTimer(500, log.onExpire(name)) });
    }
    // A fixed choice of which are cancelled (every index whose square ends in an odd digit), so a failure reproduces.
    const kept = started.filter((entry, index) => ((index * index) % 10) % 2 === 0 || (entry.cancel(), false));
    vi.advanceTimersByTime(1000);
    expect(log.expired).toEqual(kept.map(({ name, at }) => ({ name, at })));
  });

  it('more durations than the lists hold (per-call limits that all differ): every one still expires on time, and cancels', () => {
    const log = recorder();
    const durations = Array.from({ length: 40 }, (_, index) => 101 + index * 7);
    const cancels = durations.map((ms) => startTimer(ms, log.onExpire(String(ms))));
    // One from the lists and one past them, cancelled.
    cancels[0]!();
    cancels[39]!();
    vi.advanceTimersByTime(2000);
    expect(log.expired).toEqual(durations.slice(1, 39).map((ms) => ({ name: String(ms), at: ms })));
  });

  it('a limit longer than setTimeout can wait (timeoutMs: 3e9) does not expire at once, and does by its end', () => {
    const onExpire = vi.fn();
    startTimer(3_000_000_000, onExpire);
    vi.advanceTimersByTime(86_400_000);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(3_000_000_000);
    expect(onExpire).toHaveBeenCalledOnce();
  });

  // A callback that starts a limit of the same duration must not set the list's timer for a whole
  // duration from now: the limits already waiting end sooner (here the one due at 150, not at 200).
  it('an expiry that starts a limit of the same duration: it expires a whole duration later, those waiting on time', () => {
    const log = recorder();
    startTimer(100, () => {
      log.onExpire('first')();
      startTimer(100, log.onExpire('started by first'));
    });
    vi.advanceTimersByTime(50);
    startTimer(100, log.onExpire('waiting'));
    vi.advanceTimersByTime(1000);
    expect(log.expired).toEqual([
      { name: 'first', at: 100 },
      { name: 'waiting', at: 150 },
      { name: 'started by first', at: 200 },
    ]);
  });

  it('an expiry that cancels the next limit of its list: that one never expires, the rest do', () => {
    const log = recorder();
    let cancelNext = (): void => {};
    startTimer(100, () => {
      log.onExpire('first')();
      cancelNext();
    });
    cancelNext = startTimer(100, log.onExpire('cancelled by first'));
    vi.advanceTimersByTime(10);
    startTimer(100, log.onExpire('third'));
    vi.advanceTimersByTime(1000);
    expect(log.expired).toEqual([
      { name: 'first', at: 100 },
      { name: 'third', at: 110 },
    ]);
  });
});

describe.each([
  // In Node a throw from a timer is an uncaught exception: this matters to processes that keep
  // running after one (an `uncaughtException` handler).
  ['timer', it],
] as const)('%s startTimer, an expiry that throws', (module, test) => {
  beforeEach(() => void useFakeClock());
  afterEach(() => vi.useRealTimers());

  test('the limits after it still expire on time', async () => {
    const startTimer = await load(module);
    const log = recorder();
    startTimer(100, () => {
      throw new Error('expiry bug');
    });
    vi.advanceTimersByTime(10);
    startTimer(100, log.onExpire('after'));
    // (The fake clock rethrows a timer's error once the time given has run.)
    expect(() => vi.advanceTimersByTime(100)).toThrow('expiry bug');
    vi.advanceTimersByTime(1000);
    expect(log.expired).toEqual([{ name: 'after', at: 110 }]);
  });
});

describe.each([
  // Test tools swap the clock between tests (vi.useFakeTimers / useRealTimers; Jest's the same),
  // often only part of it: a user's test of a call's time limit with fake timers sees its
  // TimeoutError on the fake clock, whatever ran before.
  ['timer', it],
] as const)('%s startTimer across a switch of clocks', (module, test) => {
  afterEach(() => vi.useRealTimers());

  test('a limit started under fake timers, after one of its duration under real timers, expires on the fake clock', async () => {
    const startTimer = await load(module);
    startTimer(100, () => {})();
    useFakeClock();
    const onExpire = vi.fn();
    startTimer(100, onExpire);
    vi.advanceTimersByTime(100);
    expect(onExpire).toHaveBeenCalledOnce();
  });

  test('a limit started under real timers, after one of its duration under fake timers, expires', async () => {
    const startTimer = await load(module);
    useFakeClock();
    startTimer(40, () => {})();
    vi.useRealTimers();
    const expired = await new Promise<boolean>((resolve) => {
      startTimer(40, () => resolve(true));
      setTimeout(() => resolve(false), 400);
    });
    expect(expired).toBe(true);
  });
});

describe('timer and the process lifetime', () => {
  /** The module built for a plain `node` (no TypeScript loader), as a script defining `timerModule`. */
  const built = buildSync({
    entryPoints: [fileURLToPath(new URL('../../../src/http/timer.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    globalName: 'timerModule',
    platform: 'node',
    write: false,
  }).outputFiles[0]!.text;

  /** Runs `script` after the module in a child `node`; resolves with its output and how long it lived. */
  function run(script: string): Promise<{ output: string; code: number | null; elapsedMs: number }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(process.execPath, ['-e', `${built}\nconst { startTimer } = timerModule;\n${script}`], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      // A child kept alive by a cancelled limit would live a minute: give up well before.
      const guard = setTimeout(() => child.kill(), 15_000);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(guard);
        resolve({ output: output.trim(), code, elapsedMs: performance.now() - started });
      });
    });
  }

  it('cancelled limits do not keep the process alive; pending ones do', async () => {
    const [cancelled, oneOfTwoCancelled, startedAgain, fallback] = await Promise.all([
      // Every limit cancelled: nothing may hold the process for a minute.
      run(
        `const cancel = startTimer(60_000, () => console.log('expired')); cancel(); process.on('exit', () => console.log('exited'));`,
      ),
      run(
        `const first = startTimer(300, () => console.log('first')); startTimer(300, () => console.log('second')); first();`,
      ),
      // Cancelled, then a new limit: it must hold the process.
      run(
        `startTimer(300, () => console.log('never'))(); setTimeout(() => startTimer(300, () => console.log('started again')), 20);`,
      ),
      // Many durations, cancelled or not.
      run(
        `for (let ms = 1000; ms < 1040; ms++) startTimer(60_000 + ms, () => console.log('never'))(); startTimer(300, () => console.log('kept'));`,
      ),
    ]);
    expect(cancelled).toMatchObject({ output: 'exited', code: 0 });
    expect(cancelled.elapsedMs).toBeLessThan(15_000);
    expect(oneOfTwoCancelled).toMatchObject({ output: 'second', code: 0 });
    expect(startedAgain).toMatchObject({ output: 'started again', code: 0 });
    expect(fallback).toMatchObject({ output: 'kept', code: 0 });
  });
});
