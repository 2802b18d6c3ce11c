/** isPlainObject: what the transform walkers descend into. */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isPlainObject } from '../../../src/wire/plain.js';

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
