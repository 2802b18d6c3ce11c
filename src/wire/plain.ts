/** Structural helpers shared by the transform engine and the codecs. */

/** A JSON-like object: what the walkers descend into (never a `Date`, `Map`, class instance...). */
export type PlainObject = Record<string, unknown>;

/**
 * True for plain objects: prototype `Object.prototype` or `null`. `Object.prototype` is recognised
 * as the prototype whose own prototype is `null`, so objects from another realm (iframe, worker),
 * whose `Object.prototype` is a different object, count too.
 */
export const isPlainObject = (value: unknown): value is PlainObject => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === null || Object.getPrototypeOf(prototype) === null;
};

/** True when both arrays hold the same values (`Object.is`) in the same order. */
const same = (a: readonly unknown[], b: readonly unknown[]): boolean =>
  // Stryker disable next-line ConditionalExpression: mapArray compares a map with its input, always of one length
  a.length == b.length && a.every((value, i) => Object.is(value, b[i]));

/**
 * Maps every element of an array. Returns the input itself when no element changed, so untouched
 * subtrees are shared instead of copied; the input is never written to. (`map` is handed to
 * `Array.prototype.map` as is: it must ignore the index and array arguments.)
 */
export const mapArray = (array: readonly unknown[], map: (value: unknown) => unknown): unknown => {
  const out = array.map(map);
  return same(out, array) ? array : out;
};

/**
 * Maps every entry of an object to a new `[key, value]`, or drops it for `undefined`. Returns the
 * input itself when nothing changed, so untouched subtrees are shared; otherwise a new object,
 * started only at the first change (this runs for every object of every entity, so it avoids
 * building entry arrays). Keys are defined as own properties, so a `__proto__` key from parsed
 * JSON stays a key and never swaps the prototype.
 */
export const mapEntries = (
  object: PlainObject,
  map: (key: string, value: unknown) => [string, unknown] | undefined,
): unknown => {
  const keys = Object.keys(object);
  let out: PlainObject | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = object[key];
    const entry = map(key, value);
    if (!out && (!entry || entry[0] !== key || !Object.is(entry[1], value))) {
      out = {};
      for (let j = 0; j < i; j++) put(out, keys[j]!, object[keys[j]!]);
    }
    if (out && entry) put(out, entry[0], entry[1]);
  }
  return out ?? object;
};

const put = (target: PlainObject, key: string, value: unknown): void => {
  // Stryker disable next-line ConditionalExpression: defining any other key with these flags is what assigning it does
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
};
