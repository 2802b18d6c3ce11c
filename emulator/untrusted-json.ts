/**
 * The rules for caller JSON the emulator walks by name or stores: which names may be a field-path
 * segment or a key, and how deep a stored value may nest. Every service walks paths and keys
 * through these helpers, so one rule holds everywhere (patch paths, item data, filters, sorts,
 * aggregations, distinct values, members).
 *
 * Why each rule exists:
 * - `__proto__`, `constructor` and `prototype` name parts of every JavaScript object: walking
 *   `__proto__.x` on a plain object writes `Object.prototype` of the whole process.
 * - A quote, a backslash or a control character cannot sit inside a quoted SQLite JSON path
 *   segment (`$."a\"` is not a path): SQLite would refuse the query, a 500.
 * - SQLite's JSON functions stop at 1,000 levels, so one deeper item would make every filtered or
 *   sorted read of its collection fail; recursive walks in JavaScript also run out of stack.
 */
import { invalidField } from './errors.js';

/** How deep a stored value may nest (the item's `data` or a member's `contact` is level 1): far below SQLite's 1,000. */
export const MAX_VALUE_DEPTH = 100;

/** Names that reach a JavaScript object's prototype machinery when used as a property name. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `name` (`__proto__`, `constructor`, `prototype`) reaches a prototype when used as a property name. */
export const isPrototypeName = (name: string): boolean => PROTOTYPE_NAMES.has(name);

/** A quote, a backslash, or a C0 control character or DEL. */
function hasUnquotableCharacter(name: string): boolean {
  for (const character of name) {
    const code = character.charCodeAt(0);
    if (code < 0x20 || code == 0x7f || character == '"' || character == '\\') return true;
  }
  return false;
}

/**
 * Why `name` cannot be a field-path segment or a key (`"__proto__" names a part of every
 * JavaScript object`), or `undefined` when it can.
 */
export function nameProblem(name: string): string | undefined {
  if (isPrototypeName(name)) return `${JSON.stringify(name)} names a part of every JavaScript object`;
  if (hasUnquotableCharacter(name)) return `${JSON.stringify(name)} holds a quote, a backslash or a control character`;
  return undefined;
}

/**
 * The segments of a dotted field path (`address.city` → `['address', 'city']`), each checked; a
 * 400 naming `requestField` otherwise.
 */
export function fieldPathSegments(path: unknown, requestField: string): string[] {
  if (typeof path != 'string' || !path) throw invalidField(requestField, 'must name a field', 'REQUIRED_FIELD');
  const segments = path.split('.');
  for (const segment of segments) {
    const problem = segment ? nameProblem(segment) : 'an empty segment is not a field';
    if (problem) throw invalidField(requestField, `cannot name a field: ${problem}`, 'FORMAT');
  }
  return segments;
}

/**
 * Checks a value the emulator will store or compare: at most {@link MAX_VALUE_DEPTH} levels of
 * objects and arrays, and every object key a valid name. Iterative, so a value nested 100,000 deep
 * is refused rather than overflowing the stack. Errors name the first level under `requestField`
 * that holds the problem (`dataItem.data.tags`), never the whole deep path. `depth` is the level
 * `value` itself sits at (a patched field `a.b` of an item's data is at level 3).
 */
export function checkStoredValue(value: unknown, requestField: string, depth = 1): void {
  if (typeof value != 'object' || value === null) return;
  // Objects and arrays still to look into, with their depth and the key under `value` they sit in
  // (the field an error names). Plain values are never queued: a bulk write holds thousands.
  const pending: { value: object; depth: number; topKey: string | undefined }[] = [{ value, depth, topKey: undefined }];
  const fieldOf = (topKey: string | undefined) => (topKey === undefined ? requestField : `${requestField}.${topKey}`);
  while (pending.length) {
    const current = pending.pop()!;
    if (current.depth > MAX_VALUE_DEPTH)
      throw invalidField(fieldOf(current.topKey), `nests deeper than ${MAX_VALUE_DEPTH} levels`, 'VALIDATION');
    // Stryker disable next-line ConditionalExpression,BlockStatement: only faster. Walked as an object, an array's keys are its indexes (names), with the same answers.
    if (Array.isArray(current.value)) {
      current.value.forEach((entry: unknown, index) => {
        if (typeof entry == 'object' && entry !== null)
          pending.push({ value: entry, depth: current.depth + 1, topKey: current.topKey ?? String(index) });
      });
      continue;
    }
    const object = current.value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const topKey = current.topKey ?? key;
      // An empty key is stored as is: no path can name it, so nothing walks it.
      const problem = key ? nameProblem(key) : undefined;
      if (problem) throw invalidField(fieldOf(topKey), `cannot be a key: ${problem}`, 'FORMAT');
      const entry = object[key];
      if (typeof entry == 'object' && entry !== null) pending.push({ value: entry, depth: current.depth + 1, topKey });
    }
  }
}

/** Whether `value` is a JSON object: not null, not an array (the one object check of the emulator's caller input). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value == 'object' && value !== null && !Array.isArray(value);

/** An own property of `target`, never one inherited from its prototype (`constructor`, `toString`...). */
export const ownValue = (target: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(target, key) ? target[key] : undefined;
