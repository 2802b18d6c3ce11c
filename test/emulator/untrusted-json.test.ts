/**
 * The rules for caller JSON, case by case: which names may be a path segment or a key, how deep a
 * stored value may nest and which field an error names, which objects are records and which
 * properties are a value's own. The services' security tests prove the same through the API.
 */
import { describe, expect, it } from 'vitest';
import { EmulatorError } from '../../emulator/errors.js';
import {
  checkStoredValue,
  fieldPathSegments,
  isPrototypeName,
  isRecord,
  MAX_VALUE_DEPTH,
  nameProblem,
  ownValue,
} from '../../emulator/untrusted-json.js';

/** The status and the one field violation of what `run` throws. */
function violation(run: () => unknown): { status: number; field: string; description: string; violatedRule: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EmulatorError);
    const { status, body } = error as EmulatorError;
    const violations = (body.details as { validationError: { fieldViolations: { field: string }[] } }).validationError
      .fieldViolations;
    expect(violations).toHaveLength(1);
    return { status, ...(violations[0] as { field: string; description: string; violatedRule: string }) };
  }
  throw new Error('expected a validation error');
}

/** `leaf` inside `levels` nested objects under the key `k`, the outermost being level 1. */
const nestedObjects = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let level = 0; level < levels; level++) value = { k: value };
  return value;
};

describe('names', () => {
  it("refuses the prototype's names and characters a quoted SQLite path segment cannot hold", () => {
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      expect(isPrototypeName(name)).toBe(true);
      expect(nameProblem(name)).toBe(`"${name}" names a part of every JavaScript object`);
    }
    for (const name of ['a"b', 'a\\b', '\u0000', 'tab\there', '\u001f', 'x\u007f'])
      expect(nameProblem(name), JSON.stringify(name)).toBe(
        `${JSON.stringify(name)} holds a quote, a backslash or a control character`,
      );
  });

  it('takes every other name: lookalikes, spaces, punctuation, letters beyond ASCII', () => {
    for (const name of ['__proto', 'Constructor', 'prototypes', 'a b', '~', "it's", '\u0080', 'é', 'データ', ' '])
      expect(nameProblem(name), JSON.stringify(name)).toBeUndefined();
    expect(isPrototypeName('toString')).toBe(false);
  });
});

describe('field paths', () => {
  it('split at the dots, each segment checked', () => {
    expect(fieldPathSegments('address.city', 'sort.fieldName')).toEqual(['address', 'city']);
    expect(fieldPathSegments('title', 'sort.fieldName')).toEqual(['title']);
  });

  it('refuse no path, an empty segment and a refused name, naming the request field', () => {
    for (const path of [undefined, '', 5, ['a']])
      expect(violation(() => fieldPathSegments(path, 'fieldName'))).toEqual({
        status: 400,
        field: 'fieldName',
        description: 'must name a field',
        violatedRule: 'REQUIRED_FIELD',
      });
    expect(violation(() => fieldPathSegments('a..b', 'fieldName'))).toMatchObject({
      field: 'fieldName',
      description: 'cannot name a field: an empty segment is not a field',
      violatedRule: 'FORMAT',
    });
    expect(violation(() => fieldPathSegments('a.', 'fieldName')).violatedRule).toBe('FORMAT');
    expect(violation(() => fieldPathSegments('a.__proto__.b', 'fieldName'))).toMatchObject({
      field: 'fieldName',
      description: 'cannot name a field: "__proto__" names a part of every JavaScript object',
      violatedRule: 'FORMAT',
    });
  });
});

describe('stored values', () => {
  it(`nest at most ${MAX_VALUE_DEPTH} levels, objects and arrays alike; the error names the top key`, () => {
    expect(() => checkStoredValue(nestedObjects(MAX_VALUE_DEPTH), 'data')).not.toThrow();
    expect(violation(() => checkStoredValue({ tags: nestedObjects(MAX_VALUE_DEPTH) }, 'data'))).toEqual({
      status: 400,
      field: 'data.tags',
      description: `nests deeper than ${MAX_VALUE_DEPTH} levels`,
      violatedRule: 'VALIDATION',
    });
    let arrays: unknown = [1];
    for (let level = 1; level < MAX_VALUE_DEPTH; level++) arrays = [arrays];
    expect(() => checkStoredValue(arrays, 'data')).not.toThrow();
    expect(violation(() => checkStoredValue([arrays], 'data')).field).toBe('data.0');
    expect(violation(() => checkStoredValue([0, 1, [arrays]], 'data')).field).toBe('data.2');
    // Started lower (a patched field `a.b` sits at level 3), the limit comes sooner.
    expect(() => checkStoredValue(nestedObjects(MAX_VALUE_DEPTH - 2), 'data', 3)).not.toThrow();
    expect(violation(() => checkStoredValue(nestedObjects(MAX_VALUE_DEPTH - 1), 'data', 3)).field).toBe('data.k');
    expect(violation(() => checkStoredValue({}, 'data', MAX_VALUE_DEPTH + 1)).field).toBe('data');
  });

  it('take plain values, empty keys and nulls whatever the depth they would have', () => {
    for (const value of [null, 7, 'text', true, undefined])
      expect(() => checkStoredValue(value, 'data', MAX_VALUE_DEPTH + 5)).not.toThrow();
    expect(() => checkStoredValue({ '': 1, a: null, b: [null, 'x'] }, 'data')).not.toThrow();
    expect(() => checkStoredValue(nestedObjects(MAX_VALUE_DEPTH, null), 'data')).not.toThrow();
  });

  it("refuse a key that is not a name, at any depth, naming the value's top key", () => {
    expect(violation(() => checkStoredValue({ ok: 1, 'a"b': 1 }, 'dataItem.data'))).toEqual({
      status: 400,
      field: 'dataItem.data.a"b',
      description: 'cannot be a key: "a\\"b" holds a quote, a backslash or a control character',
      violatedRule: 'FORMAT',
    });
    const deep = JSON.parse('{"profile":{"list":[{"__proto__":{"polluted":true}}]}}');
    expect(violation(() => checkStoredValue(deep, 'member'))).toMatchObject({
      field: 'member.profile',
      violatedRule: 'FORMAT',
    });
    expect(violation(() => checkStoredValue([{ constructor: 1 }], 'items')).field).toBe('items.0');
  });
});

describe('records and own values', () => {
  it('a record is an object that is neither null nor an array', () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    for (const value of [null, [], 'x', 1, undefined, true]) expect(isRecord(value), String(value)).toBe(false);
  });

  it('an own value is never one inherited from the prototype', () => {
    expect(ownValue({ a: 1 }, 'a')).toBe(1);
    expect(ownValue({}, 'toString')).toBeUndefined();
    expect(ownValue(Object.create({ inherited: 1 }), 'inherited')).toBeUndefined();
    expect(ownValue({ toString: 'mine' }, 'toString')).toBe('mine');
  });
});
