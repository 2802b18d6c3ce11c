import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  isIdempotent,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
  shouldRetry,
  type RetryOptions,
} from '../../../src/http/retry.js';

const METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'PATCH'] as const;
const FAILURES = [400, 401, 403, 404, 408, 409, 429, 500, 502, 503, 504] as const;

// Written out by hand (not derived from the code) so the table is an independent oracle.
const IDEMPOTENT: Record<(typeof METHODS)[number], { readOnly: boolean; write: boolean }> = {
  GET: { readOnly: true, write: true },
  HEAD: { readOnly: true, write: true },
  PUT: { readOnly: true, write: true },
  DELETE: { readOnly: true, write: true },
  POST: { readOnly: true, write: false },
  PATCH: { readOnly: true, write: false },
};
const RETRYABLE = new Set<number>([408, 429, 500, 502, 503, 504]);

describe('isRetryableStatus', () => {
  it.each([
    [408, true],
    [429, true],
    [500, true],
    [501, true],
    [502, true],
    [503, true],
    [504, true],
    [599, true],
    [200, false],
    [204, false],
    [304, false],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [409, false],
    [422, false],
    [499, false],
    [600, false],
  ])('%i → %s', (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });
});

describe('isIdempotent', () => {
  for (const method of METHODS)
    for (const readOnly of [true, false]) {
      const expected = IDEMPOTENT[method][readOnly ? 'readOnly' : 'write'];
      it(`${method} readOnly=${readOnly} → ${expected}`, () => {
        expect(isIdempotent(method, readOnly)).toBe(expected);
        expect(isIdempotent(method.toLowerCase(), readOnly)).toBe(expected);
      });
    }
  it('OPTIONS always; unknown methods never', () => {
    expect(isIdempotent('OPTIONS', false)).toBe(true);
    expect(isIdempotent('TRACE', true)).toBe(false);
    expect(isIdempotent('CONNECT', false)).toBe(false);
  });
});

describe('shouldRetry: method × readOnly × failure', () => {
  const rows: [string, boolean, number | undefined, boolean, boolean][] = [];
  for (const method of METHODS)
    for (const readOnly of [true, false]) {
      const idem = IDEMPOTENT[method][readOnly ? 'readOnly' : 'write'];
      for (const status of FAILURES) rows.push([method, readOnly, status, false, idem && RETRYABLE.has(status)]);
      rows.push([method, readOnly, undefined, true, idem]); // network error, no status
      rows.push([method, readOnly, 400, true, idem]); // a network error wins over a stale status
    }
  it.each(rows)('%s readOnly=%s status=%s networkError=%s → %s', (method, readOnly, status, networkError, expected) => {
    expect(shouldRetry({ method, readOnly, attempt: 1, options: {}, status, networkError })).toBe(expected);
  });

  it('never replays a non-idempotent write, even on 503 or a network error', () => {
    for (const method of ['POST', 'PATCH'])
      for (const failure of [{ status: 503 }, { networkError: true }, { status: 429, retryAfterMs: 0 }])
        expect(shouldRetry({ method, readOnly: false, attempt: 1, options: { retries: 10 }, ...failure })).toBe(false);
  });

  it('no status and no network error → false', () => {
    expect(shouldRetry({ method: 'GET', readOnly: false, attempt: 1, options: {} })).toBe(false);
    expect(shouldRetry({ method: 'GET', readOnly: false, attempt: 1, options: {}, networkError: false })).toBe(false);
  });
});

describe('shouldRetry: attempt counting', () => {
  const base = { method: 'GET', readOnly: false, status: 503 };
  it.each([
    // [retries, attempt, expected]: retries counts EXTRA attempts, attempt counts those made.
    [undefined, 1, true],
    [undefined, 2, true],
    [undefined, 3, false],
    [undefined, 4, false],
    [0, 1, false],
    [1, 1, true],
    [1, 2, false],
    [3, 1, true],
    [3, 3, true],
    [3, 4, false],
    [3, 10, false],
  ])('retries=%s attempt=%i → %s', (retries, attempt, expected) => {
    const options: RetryOptions = retries === undefined ? {} : { retries };
    expect(shouldRetry({ ...base, attempt, options })).toBe(expected);
    expect(shouldRetry({ method: 'POST', readOnly: true, networkError: true, attempt, options })).toBe(expected);
  });

  it('retry: false never retries', () => {
    for (const method of METHODS)
      for (const failure of [{ status: 503 }, { status: 429 }, { networkError: true }])
        expect(shouldRetry({ method, readOnly: true, attempt: 1, options: false, ...failure })).toBe(false);
  });
});

describe('shouldRetry: Retry-After', () => {
  const base = { method: 'GET', readOnly: false, attempt: 1, status: 429 };
  it.each([
    [null, {}, true],
    [undefined, {}, true],
    [0, {}, true],
    [30_000, {}, true], // exactly the default limit is still waited for
    [30_001, {}, false],
    [3_600_000, {}, false],
    [5_000, { maxRetryAfterMs: 4_999 }, false],
    [5_000, { maxRetryAfterMs: 5_000 }, true],
    [60_000, { maxRetryAfterMs: 120_000 }, true],
  ] as const)('retryAfterMs=%s options=%o → %s', (retryAfterMs, options, expected) => {
    expect(shouldRetry({ ...base, options, retryAfterMs })).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2015, 9, 21, 7, 28, 0); // Wed, 21 Oct 2015 07:28:00 GMT
  it.each([
    ['0', 0],
    ['5', 5000],
    ['120', 120_000],
    [' 7 ', 7000],
    ['1.5', 1500],
    ['0.25', 250],
    ['.5', 500],
    ['0.0001', 1], // rounds up: never retry earlier than asked
    ['Wed, 21 Oct 2015 07:28:30 GMT', 30_000], // IMF-fixdate
    ['Wednesday, 21-Oct-15 07:29:00 GMT', 60_000], // obsolete RFC 850
    ['Wed Oct 21 07:28:10 2015', 10_000], // asctime: GMT although no zone is written
    ['Wed, 21 Oct 2015 07:28:00 GMT', 0],
    ['Tue, 20 Oct 2015 07:28:00 GMT', 0], // in the past → 0, never negative
  ])('%j → %s', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });

  it('an asctime date is GMT on a machine in any time zone (the machine running this one may be in UTC)', async () => {
    // In a process of its own: a change of TZ does not reach Date in a worker thread (Stryker's pool).
    const retry = new URL('../../../src/http/retry.ts', import.meta.url).href;
    const script = `const { parseRetryAfter } = await import(${JSON.stringify(retry)});
      const now = ${now};
      console.log(JSON.stringify([new Date(2015, 9, 21).getTimezoneOffset(),
        parseRetryAfter('Wed Oct 21 07:28:10 2015', now), parseRetryAfter('Wed, 21 Oct 2015 07:28:30 GMT', now)]));`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { env: { ...process.env, TZ: 'America/New_York' } },
    );
    expect(JSON.parse(stdout)).toEqual([240, 10_000, 30_000]);
  });

  it.each([
    [null],
    [undefined],
    [''],
    ['   '],
    ['soon'],
    ['-5'],
    ['1e3'],
    ['5s'],
    ['1.'],
    ['1.2.3'],
    ['0x10'],
    ['foo 1'],
    ['Fri 2'],
    ['Wed, 99 Foo 2015 07:28:30 GMT'],
    ['soon Wed, 21 Oct 2015 07:28:00 GMT'],
    ['Infinity'],
    ['NaN'],
  ])('%j → null', (header) => {
    expect(parseRetryAfter(header, now)).toBeNull();
  });
});

describe('retryDelay', () => {
  const at = (random: number, extra: RetryOptions = {}): RetryOptions => ({ random: () => random, ...extra });

  it.each([
    // [attempt, random, expected] with defaults base 300, cap 5000.
    [1, 0, 0],
    [1, 0.5, 150],
    [1, 0.999, 299.7],
    [2, 0, 0],
    [2, 0.5, 300],
    [2, 0.999, 599.4],
    [3, 0.5, 600],
    [3, 0.999, 1198.8],
    [4, 0.5, 1200],
    [5, 0.5, 2400],
    [6, 0.5, 2500],
    [6, 0.999, 4995], // 300 * 32 = 9600 is capped at 5000
    [50, 0.999, 4995],
    [5000, 0.5, 2500],
  ])('attempt=%i random=%s → %s', (attempt, random, expected) => {
    expect(retryDelay({ attempt, options: at(random) })).toBeCloseTo(expected, 9);
  });

  it('honours custom base and cap', () => {
    expect(retryDelay({ attempt: 1, options: at(0.5, { baseDelayMs: 100 }) })).toBe(50);
    expect(retryDelay({ attempt: 3, options: at(0.5, { baseDelayMs: 100, maxDelayMs: 250 }) })).toBe(125);
    expect(retryDelay({ attempt: 3, options: at(0.999, { baseDelayMs: 0 }) })).toBe(0);
    expect(retryDelay({ attempt: 2000, options: at(0.999, { baseDelayMs: 0 }) })).toBe(0);
  });

  it('uses Math.random by default and stays within [0, ceiling)', () => {
    for (let attempt = 1; attempt <= 10; attempt++)
      for (let i = 0; i < 50; i++) {
        const d = retryDelay({ attempt, options: {} });
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(Math.min(5000, 300 * 2 ** (attempt - 1)));
      }
  });

  it('never exceeds the cap, and the ceiling grows monotonically up to it', () => {
    for (const maxDelayMs of [1, 700, 5000, 12_345]) {
      let previous = -1;
      for (let attempt = 1; attempt <= 40; attempt++) {
        const d = retryDelay({ attempt, options: at(0.999999, { maxDelayMs }) });
        expect(d).toBeLessThan(maxDelayMs);
        expect(d).toBeGreaterThanOrEqual(previous);
        previous = d;
      }
      expect(previous).toBeCloseTo(0.999999 * maxDelayMs, 6);
    }
  });

  it.each([
    // [retryAfterMs, random, attempt, expected]: Retry-After is a floor over the jitter, capped at 30 s.
    [null, 0.5, 1, 150],
    [undefined, 0.5, 1, 150],
    [0, 0.5, 1, 150],
    [100, 0.5, 1, 150], // the jitter is longer than the hint
    [2000, 0.5, 1, 2000],
    [2000, 0.999, 6, 4995],
    [2000, 0, 6, 2000],
    [30_000, 0.5, 1, 30_000],
    [45_000, 0.5, 1, 30_000],
  ])('retryAfterMs=%s random=%s attempt=%i → %s', (retryAfterMs, random, attempt, expected) => {
    expect(retryDelay({ attempt, options: at(random), retryAfterMs })).toBeCloseTo(expected, 9);
  });

  it('caps a Retry-After at maxRetryAfterMs, even below the jitter', () => {
    expect(retryDelay({ attempt: 1, options: at(0.5, { maxRetryAfterMs: 10_000 }), retryAfterMs: 20_000 })).toBe(
      10_000,
    );
    expect(retryDelay({ attempt: 6, options: at(0.999, { maxRetryAfterMs: 1000 }), retryAfterMs: 10 })).toBe(1000);
  });

  it('composes with parseRetryAfter and shouldRetry', () => {
    const now = Date.UTC(2020, 0, 1);
    const retryAfterMs = parseRetryAfter('Wed, 01 Jan 2020 00:00:03 GMT', now);
    const options = at(0.5);
    expect(shouldRetry({ method: 'GET', readOnly: false, attempt: 1, options, status: 503, retryAfterMs })).toBe(true);
    expect(retryDelay({ attempt: 1, options, retryAfterMs })).toBe(3000);
  });
});
