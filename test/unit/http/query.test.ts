import { describe, expect, it } from 'vitest';
import { base64UrlEncode, serializeQuery } from '../../../src/http/query.js';

/** Node's own base64url decoder (padded or not): an oracle independent of the encoder under test. */
const base64UrlDecode = (encoded: string): string => Buffer.from(encoded, 'base64url').toString('utf8');

/** Reads back the JSON of a `.r=` query string. */
const decodeR = (qs: string): unknown => {
  expect(qs).toMatch(/^\.r=[A-Za-z0-9_-]+$/);
  return JSON.parse(base64UrlDecode(qs.slice(3)));
};

describe('serializeQuery: the documented cases of the service, verbatim', () => {
  it.each([
    [{ paging: { limit: 10, offset: 0 } }, 'paging.limit=10&paging.offset=0'],
    [{ sort: { fieldName: 'displayName', order: 'ASC' } }, 'sort.fieldName=displayName&sort.order=ASC'],
    [{ mediaTypes: ['IMAGE', 'VIDEO'] }, 'mediaTypes=IMAGE&mediaTypes=VIDEO'],
    [{ fieldsets: ['FULL'] }, 'fieldsets=FULL'],
  ])('%j → %s', (query, expected) => {
    expect(serializeQuery(query)).toBe(expected);
  });

  it('sorting: [{fieldName, order}] → .r with the whole query', () => {
    const query = { fieldsets: ['FULL'], sorting: [{ fieldName: 'createdDate', order: 'DESC' }], paging: { limit: 5 } };
    const qs = serializeQuery(query);
    expect(decodeR(qs)).toEqual(query);
    expect(qs).toBe('.r=' + base64UrlEncode(JSON.stringify(query)));
  });
});

describe('serializeQuery: shapes', () => {
  it.each([
    [undefined, ''],
    [{}, ''],
    [{ a: undefined, b: null }, ''],
    [{ paging: {} }, ''],
    [{ ids: [] }, ''],
    [{ ids: [], paging: { limit: 1 } }, 'paging.limit=1'],
    [{ a: { b: { c: 1, d: 'x' } }, e: 2 }, 'a.b.c=1&a.b.d=x&e=2'],
    [{ a: { b: { c: { d: 'deep' } } } }, 'a.b.c.d=deep'],
    [{ a: { b: undefined, c: null, d: 0 } }, 'a.d=0'],
    [{ t: true, f: false, z: 0, n: -1.5, s: '' }, 't=true&f=false&z=0&n=-1.5&s='],
    [{ ids: ['a', null, undefined, 'b'] }, 'ids=a&ids=b'],
    [{ nums: [1, 2], flags: [true] }, 'nums=1&nums=2&flags=true'],
    [{ filter: { tags: ['x', 'y'] } }, 'filter.tags=x&filter.tags=y'],
    [{ big: 10n }, 'big=10'],
  ] as const)('%o → %j', (query, expected) => {
    expect(serializeQuery(query as Record<string, unknown> | undefined)).toBe(expected);
  });

  it('keeps insertion order', () => {
    expect(serializeQuery({ z: 1, a: 2, m: { y: 3, b: 4 } })).toBe('z=1&a=2&m.y=3&m.b=4');
    expect(serializeQuery({ a: 2, z: 1 })).toBe('a=2&z=1');
  });

  it('dates become ISO strings, alone and in arrays', () => {
    const d = new Date(Date.UTC(2024, 1, 29, 12, 30, 5, 7));
    expect(serializeQuery({ since: d })).toBe('since=2024-02-29T12%3A30%3A05.007Z');
    expect(serializeQuery({ r: { from: d } })).toBe('r.from=2024-02-29T12%3A30%3A05.007Z');
    expect(serializeQuery({ at: [d, d] })).toBe('at=2024-02-29T12%3A30%3A05.007Z&at=2024-02-29T12%3A30%3A05.007Z');
  });

  it('does not mutate its input', () => {
    const query = { paging: { limit: 10 }, sorting: [{ fieldName: 'a' }] };
    const copy = structuredClone(query);
    serializeQuery(query);
    expect(query).toEqual(copy);
  });
});

describe('serializeQuery: escaping', () => {
  it.each([
    [{ q: 'a&b' }, 'q=a%26b'],
    [{ q: 'a=b' }, 'q=a%3Db'],
    [{ q: 'a b' }, 'q=a%20b'],
    [{ q: 'a+b' }, 'q=a%2Bb'],
    [{ q: '100%' }, 'q=100%25'],
    [{ q: '?#/' }, 'q=%3F%23%2F'],
    [{ 'a&b': 1 }, 'a%26b=1'],
    [{ 'k y': { 'x=z': 'v&w' } }, 'k%20y.x%3Dz=v%26w'],
    [{ list: ['a b', 'c+d'] }, 'list=a%20b&list=c%2Bd'],
    [{ name: 'Zoë 名前 🚀' }, 'name=Zo%C3%AB%20%E5%90%8D%E5%89%8D%20%F0%9F%9A%80'],
  ])('%j → %s', (query, expected) => {
    expect(serializeQuery(query)).toBe(expected);
  });

  it('round-trips through URLSearchParams', () => {
    const qs = serializeQuery({ q: 'a&b=c d+e', nested: { ключ: 'значение' }, tags: ['x&y', 'z'] });
    const params = new URLSearchParams(qs);
    expect(params.get('q')).toBe('a&b=c d+e');
    expect(params.get('nested.ключ')).toBe('значение');
    expect(params.getAll('tags')).toEqual(['x&y', 'z']);
  });
});

describe('serializeQuery: .r', () => {
  it.each([
    ['top-level array of objects', { sorting: [{ fieldName: 'a', order: 'ASC' }] }],
    ['nested one level', { query: { sort: [{ fieldName: 'title', order: 'DESC' }], paging: { limit: 10 } } }],
    ['nested two levels', { a: { b: { c: [{ d: 1 }] } }, other: 'x' }],
    ['array of objects after scalar elements', { mixed: ['x', { y: 1 }] }],
    ['array of arrays', { matrix: [[1, 2], [3]] }],
    [
      'an items query, as the official client sends it',
      {
        dataCollectionId: 'Books',
        query: { filter: { year: { $gt: 2000 } }, sort: [{ fieldName: 'title', order: 'ASC' }], paging: { limit: 2 } },
        includeReferences: [],
      },
    ],
  ])('%s', (_name, query) => {
    expect(decodeR(serializeQuery(query))).toEqual(query);
  });

  it('is not triggered by arrays of primitives or empty arrays', () => {
    expect(serializeQuery({ ids: [], tags: ['a'], nested: { n: [1] } })).toBe('tags=a&nested.n=1');
  });

  it('carries unicode safely, and drops undefined like JSON does', () => {
    const query = { sorting: [{ fieldName: 'título', order: 'ASC' }], search: 'Zoë 名前 🚀 €', skip: undefined };
    const qs = serializeQuery(query);
    expect(decodeR(qs)).toEqual({ sorting: [{ fieldName: 'título', order: 'ASC' }], search: 'Zoë 名前 🚀 €' });
  });

  it('sends dates as ISO strings', () => {
    const qs = serializeQuery({ ranges: [{ from: new Date(Date.UTC(2020, 0, 1)) }] });
    expect(decodeR(qs)).toEqual({ ranges: [{ from: '2020-01-01T00:00:00.000Z' }] });
  });
});

describe('base64url', () => {
  it.each([
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
    ['\u00fb\u00ff', 'w7vDvw'], // standard base64 "w7vDvw==", padding dropped
    ['>>>???', 'Pj4-Pz8_'], // standard base64 "Pj4+Pz8/": + → -, / → _
    ['€', '4oKs'],
    ['🚀', '8J-agA'],
  ])('%j ⇄ %s', (text, encoded) => {
    expect(base64UrlEncode(text)).toBe(encoded);
    expect(base64UrlDecode(encoded)).toBe(text);
  });

  it('round-trips arbitrary unicode and every byte value', () => {
    const samples = [
      'Zoë 名前 🚀',
      'a\u0000b',
      String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i)),
      'x'.repeat(10_000),
    ];
    for (const s of samples) {
      const e = base64UrlEncode(s);
      expect(e).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(base64UrlDecode(e)).toBe(s);
    }
  });
});

describe('large .r payloads', () => {
  it('encodes a 300 kB request without overflowing the stack', () => {
    const query = { sorting: [{ fieldName: 'x'.repeat(300_000), order: 'ASC' }] };
    const qs = serializeQuery(query);
    expect(JSON.parse(base64UrlDecode(qs.slice(3)))).toEqual(query);
  });
});
