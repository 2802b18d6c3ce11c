/** isPlainObject (what the transform walkers descend into), and the walkers' mapArray and mapEntries. */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isPlainObject, mapArray, mapEntries } from '../../../src/wire/plain.js';

describe('isPlainObject', () => {
  it('is true for object literals, null-prototype objects and objects of another realm', () => {
    expect(isPlainObject({ a: 1 })).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    expect(isPlainObject(runInNewContext('({ a: 1 })'))).toBe(true);
  });

  it('is false for anything else', () => {
    class Movie {}
    for (const value of [null, undefined, 1, 'a', [], new Date(0), new Map(), new Movie(), Object.create({})]) {
      expect(isPlainObject(value)).toBe(false);
    }
  });
});

describe('mapArray', () => {
  it('returns the array itself when no element changed, else a new one; the input is never written', () => {
    const same = [1, 'a', NaN];
    expect(mapArray(same, (value) => value)).toBe(same);
    const input = [1, 2];
    expect(mapArray(input, (value) => (value as number) * 2)).toEqual([2, 4]);
    expect(input).toEqual([1, 2]);
  });
});

describe('mapEntries', () => {
  it('a "__proto__" key of parsed JSON stays a plain own key: writable, enumerable, configurable, prototype untouched', () => {
    const parsed = JSON.parse('{"a": 1, "__proto__": {"polluted": true}}');
    const out = mapEntries(parsed, (key, value) => [key, key === 'a' ? 2 : value]) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')).toEqual({
      value: { polluted: true },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(out.a).toBe(2);
  });
});
