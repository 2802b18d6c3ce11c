/** Structural helpers shared by the transform engine and the codecs. */

/** A JSON-like object: what the walkers descend into (never a `Date`, `Map`, class instance...). */
export type PlainObject = Record<string, unknown>;

/**
 * True for plain objects: prototype `Object.prototype` or `null`. The second-level check accepts
 * objects from another realm (iframe, worker) whose `Object.prototype` is a different object.
 */
export function isPlainObject(value: unknown): value is PlainObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Maps every element of an array. Returns the input itself when no element changed, so untouched
 * subtrees are shared instead of copied; the input is never written to.
 */
export function mapArray(array: readonly unknown[], map: (value: unknown) => unknown): unknown {
  let changed = false;
  const out = array.map((value) => {
    const next = map(value);
    changed ||= !Object.is(next, value);
    return next;
  });
  return changed ? out : array;
}

/**
 * Maps every entry of an object to a new `[key, value]`, or drops it for `undefined`. Returns the
 * input itself when nothing changed. Builds with `Object.fromEntries`, which defines own
 * properties, so a `__proto__` key from parsed JSON stays a key and never swaps the prototype.
 */
export function mapEntries(object: PlainObject, map: (key: string, value: unknown) => [string, unknown] | undefined): unknown {
  let changed = false;
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(object)) {
    const entry = map(key, value);
    changed ||= !entry || entry[0] !== key || !Object.is(entry[1], value);
    if (entry) out.push(entry);
  }
  return changed ? Object.fromEntries(out) : object;
}
