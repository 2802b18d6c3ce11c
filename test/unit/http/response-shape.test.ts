/** A 2xx body checked against what the operation table says about its shape. */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../src/operation.js';
import { unexpectedShape } from '../../../src/http/response-shape.js';

const op = (extra: Partial<Operation>): Operation => ({
  id: 'op',
  method: 'POST',
  path: '/x',
  methodFqn: 'x.Op',
  ...extra,
});

describe('unexpectedShape', () => {
  it('needs the field the method returns, unless a missing entity resolves null', () => {
    expect(unexpectedShape(op({ unwrap: 'dataItem' }), {})).toBe('no "dataItem"');
    expect(unexpectedShape(op({ unwrap: 'dataItem' }), undefined)).toBe('an empty body');
    expect(unexpectedShape(op({ unwrap: 'dataItem', nullIfMissing: 'WDE0073' }), {})).toBeUndefined();
    expect(unexpectedShape(op({}), undefined)).toBeUndefined();
  });

  it('needs a JSON object', () => {
    expect(unexpectedShape(op({}), [1])).toBe('a body that is not a JSON object');
    expect(unexpectedShape(op({}), 'text')).toBe('a body that is not a JSON object');
  });

  it('needs objects where the transform tree has a branch or a data item, in arrays and maps too', () => {
    const response = { dataItems: 'item' as const, page: { $values: { created: 'date' as const } } };
    expect(unexpectedShape(op({ response }), { dataItems: 'oops' })).toBe('"dataItems" is not an object');
    expect(unexpectedShape(op({ response }), { dataItems: [{ id: 'a' }, 7] })).toBe('"dataItems[1]" is not an object');
    expect(unexpectedShape(op({ response }), { page: { a: { created: 'x' }, b: 3 } })).toBe(
      '"page.b" is not an object',
    );
    expect(
      unexpectedShape(op({ response }), { dataItems: [{ id: 'a' }], page: { a: { created: 'x' } }, extra: 1 }),
    ).toBeUndefined();
    // Absent and null values are allowed at every depth; a nested path is named in full.
    expect(unexpectedShape(op({ response }), {})).toBeUndefined();
    expect(unexpectedShape(op({ response }), { dataItems: null, page: { a: null } })).toBeUndefined();
    expect(unexpectedShape(op({ response }), { dataItems: [null, { id: 'a' }] })).toBeUndefined();
    expect(unexpectedShape(op({ response: { a: { b: 'item' } } }), { a: { b: 5 } })).toBe('"a.b" is not an object');
    // Scalars are not checked (a date stays the transforms' business), nor are absent fields.
    expect(unexpectedShape(op({ response: { when: 'date' } }), { when: 5 })).toBeUndefined();
  });
});
