/** Where two normalized answers differ: each field path with both values. */
import type { Answer } from './site-calls.js';

/** One difference: the field path (`dataItems.0.data.title`, `status` for the status) and each side's value (`undefined`: absent). */
export interface Difference {
  path: string;
  live: unknown;
  emulator: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value == 'object' && value !== null && !Array.isArray(value);

function collect(live: unknown, emulator: unknown, path: string, found: Difference[]): void {
  if (Array.isArray(live) && Array.isArray(emulator)) {
    for (let index = 0; index < Math.max(live.length, emulator.length); index++)
      collect(live[index], emulator[index], path ? `${path}.${index}` : String(index), found);
    return;
  }
  if (isObject(live) && isObject(emulator)) {
    const keys = new Set([...Object.keys(live), ...Object.keys(emulator)]);
    for (const key of [...keys].sort()) {
      const child = path ? `${path}.${key}` : key;
      collect(
        Object.hasOwn(live, key) ? live[key] : undefined,
        Object.hasOwn(emulator, key) ? emulator[key] : undefined,
        child,
        found,
      );
    }
    return;
  }
  if (!Object.is(live, emulator)) found.push({ path, live, emulator });
}

/** The differences between the live site's answer and the emulator's, status first, then the body's fields in order. */
export function answerDifferences(live: Answer, emulator: Answer): Difference[] {
  const found: Difference[] = [];
  if (live.status != emulator.status) found.push({ path: 'status', live: live.status, emulator: emulator.status });
  collect(live.body, emulator.body, '', found);
  return found;
}
