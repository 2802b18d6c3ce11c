import { describe, expect, it } from 'vitest';
import { parseQueryString, QUERY_PROBLEM } from '../../../emulator/http/querystring.js';

describe("the emulator's query string parser", () => {
  it('nests dotted keys, repeats make arrays, and decodes as URLSearchParams does', () => {
    expect(parseQueryString('dataCollectionId=Movies&paging.limit=10&paging.offset=0&f=a&f=b&g=x+y%21')).toEqual({
      dataCollectionId: 'Movies',
      paging: { limit: '10', offset: '0' },
      f: ['a', 'b'],
      g: 'x y!',
    });
  });

  it('answers a plain object', () => {
    expect(Object.getPrototypeOf(parseQueryString('a=1'))).toBe(Object.prototype);
  });

  it("reads names every object inherits (toString, valueOf) as the caller's own fields", () => {
    const parsed = parseQueryString('toString=a&toString=b&valueOf.x=1&hasOwnProperty=c');
    expect(parsed).toEqual({ toString: ['a', 'b'], valueOf: { x: '1' }, hasOwnProperty: 'c' });
  });

  it('drops keys that reach a prototype, and empty segments', () => {
    const parsed = parseQueryString('__proto__.polluted=1&constructor.prototype.x=1&a..b=1&ok=1');
    expect(parsed).toEqual({ ok: '1' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('takes the whole request from .r, and marks an unreadable one', () => {
    const encoded = Buffer.from(JSON.stringify({ paging: { limit: 5 } })).toString('base64url');
    expect(parseQueryString(`.r=${encoded}`)).toEqual({ paging: { limit: 5 } });
    expect(parseQueryString('.r=not-json')[QUERY_PROBLEM]).toMatch(/base64url/);
  });

  it('marks a .r that is JSON but not an object, or holds a __proto__ key at any depth', () => {
    const encode = (json: string) => Buffer.from(json).toString('base64url');
    for (const json of [
      '[1]',
      '5',
      'null',
      '"text"',
      'true',
      '{"a":{"__proto__":{"x":1}}}',
      '{"__proto__":{}}',
      '{"__proto__":1}',
      '{"a":[{"__proto__":"x"}]}',
    ]) {
      const parsed = parseQueryString(`.r=${encode(json)}`);
      expect(parsed[QUERY_PROBLEM], json).toMatch(/JSON object \(without `__proto__` keys\)/);
      expect(Object.keys(parsed), json).toEqual([]);
    }
    expect(parseQueryString(`.r=${encode('{"proto":1}')}`)[QUERY_PROBLEM]).toBeUndefined();
  });

  it('a dotted key replaces what is not an object under its head (a value, a null, a list); three repeats make three', () => {
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(parseQueryString(`.r=${encode({ a: null, b: [1], c: 'x' })}&a.x=1&b.y=2&c.z=3`)).toEqual({
      a: { x: '1' },
      b: { y: '2' },
      c: { z: '3' },
    });
    expect(parseQueryString('f=a&f=b&f=c')).toEqual({ f: ['a', 'b', 'c'] });
  });
});
