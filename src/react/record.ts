/**
 * Recording a builder expression instead of running it. `queryOptions(client, (c) => c.items
 * .query('Movies').eq('year', 1999))` runs the function once against a recorder that stands in for
 * the client and notes every method called and its arguments; the notes, as plain data, become the
 * query key. The same expression always gives the same notes, so the same query gets the same
 * key, without sending anything.
 */
import { RequestError } from '../index.js';

/** One recorded call: the dotted path of the method (`items.query`, `eq`) and its arguments as given. */
export interface RecordedCall {
  method: string;
  args: unknown[];
}

/** Everything the recorder saw, from the first call on its root to the value the function returned. */
export interface Recording {
  calls: RecordedCall[];
}

/** Read from a recorder to get its recording (a symbol: no builder method can clash with it). */
const RECORDING = Symbol('sitekit.recording');

/** Passed where the real call would get the query's AbortSignal; left out of the recording. */
export const RECORDED_SIGNAL: AbortSignal = Object.freeze(Object.create(null)) as AbortSignal;

interface Recorder {
  [RECORDING]: Recording;
}

const isRecorder = (value: unknown): value is Recorder =>
  (typeof value === 'function' || typeof value === 'object') && value !== null && RECORDING in value;

/** A recorder whose completed calls are `calls` and whose properties read since the last call are `path`. */
function recorder(calls: RecordedCall[], path: string[]): unknown {
  // A function target, so that the recorder can be called as well as read from.
  return new Proxy(function recorded() {}, {
    has: (_target, key) => key === RECORDING,
    get(_target, key) {
      if (key === RECORDING) return { calls } satisfies Recording;
      // Never a thenable: `await` on a recorded call must not wait for anything.
      if (key === 'then' || typeof key === 'symbol') return undefined;
      return recorder(calls, [...path, key]);
    },
    apply: (_target, _this, args: unknown[]) => recorder([...calls, { method: path.join('.'), args }], []),
  });
}

/**
 * An argument as plain data for a key: nested builders (e.g. `client.items.filter().eq(...)`)
 * as their calls, dates as `{$date}` (as on the wire, unlike strings), `undefined` fields and
 * the placeholder signal left out. Functions and class instances other than dates cannot be
 * part of a key.
 */
function plain(value: unknown, where: string): unknown {
  if (value === RECORDED_SIGNAL) return undefined;
  if (isRecorder(value)) return { builder: plainCalls(value[RECORDING].calls) };
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map((entry) => plain(entry, where));
  if (typeof value === 'function')
    throw new RequestError(`queryOptions: a function cannot be part of a query (${where})`, { field: where });
  if (typeof value !== 'object' || value === null) return value;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new RequestError(
      `queryOptions: only plain data, dates and builders can be part of a query (${where} is a ${prototype?.constructor?.name ?? 'object'})`,
      { field: where },
    );
  }
  const fields: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value))
    if (entry !== undefined && entry !== RECORDED_SIGNAL) fields[key] = plain(entry, key);
  return fields;
}

/** Recorded calls as plain data, for a query key. */
export const plainCalls = (calls: readonly RecordedCall[]): RecordedCall[] =>
  calls.map(({ method, args }) => ({ method, args: args.map((arg) => plain(arg, `argument of ${method}`)) }));

/**
 * Runs `build` against a recorder in place of the client and returns what it called. `build` may
 * only chain builder and namespace calls: it gets no real results.
 */
export function record<C, R>(build: (client: C, call: { signal: AbortSignal }) => R, who: string): Recording {
  let result: unknown;
  try {
    result = build(recorder([], []) as C, { signal: RECORDED_SIGNAL });
  } catch (cause) {
    throw new RequestError(
      `${who}: the function must only chain sitekit calls (${(cause as Error)?.message ?? cause})`,
      { field: 'build', cause },
    );
  }
  // An async function's promise: whatever it does after its first await is not recorded (nor reported).
  if (result instanceof Promise) result.catch(() => undefined);
  if (!isRecorder(result) || result[RECORDING].calls.length === 0) {
    throw new RequestError(
      `${who}: the function must return a sitekit builder or call, e.g. (client) => client.items.query(id)`,
      { field: 'build' },
    );
  }
  return result[RECORDING];
}
