/**
 * The item form's conversions, over every field type a collection may declare: an edit that does
 * not touch a field keeps its value exactly, and a value shown in an input reads back as itself.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FieldInputError,
  fromInputText,
  isEditable,
  itemFromForm,
  toInputText,
} from '../../../console/src/admin/field-text.js';
import type { DataCollectionField } from '../../../src/index.js';

/** The field types a collection may declare (the `LEGACY_*` ones are only ever returned). */
const settableTypes = [
  'TEXT',
  'NUMBER',
  'DATE',
  'DATETIME',
  'IMAGE',
  'BOOLEAN',
  'DOCUMENT',
  'URL',
  'RICH_TEXT',
  'VIDEO',
  'ANY',
  'ARRAY_STRING',
  'ARRAY_DOCUMENT',
  'AUDIO',
  'TIME',
  'LANGUAGE',
  'RICH_CONTENT',
  'MEDIA_GALLERY',
  'ADDRESS',
  'PAGE_LINK',
  'REFERENCE',
  'MULTI_REFERENCE',
  'OBJECT',
  'ARRAY',
] as const;
type SettableType = (typeof settableTypes)[number];

const text = fc.string({ unit: 'grapheme' });
const day = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
const time = fc.tuple(fc.nat(23), fc.nat(59), fc.nat(59), fc.nat(999)).map(([hours, minutes, seconds, milliseconds]) =>
  [hours, minutes, seconds]
    .map((part) => String(part).padStart(2, '0'))
    .join(':')
    .concat(`.${milliseconds}`),
);
const dateTime = fc.date({
  min: new Date('1000-01-01T00:00:00Z'),
  max: new Date('9999-12-31T00:00:00Z'),
  noInvalidDate: true,
});
/** A number JSON can carry and read back (no NaN, no infinity, no -0). */
const finiteNumber = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((number) => !Object.is(number, -0));
/** A JSON value as it travels: written and read back once (fast-check's may hold -0, which JSON writes as 0). */
const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const jsonObject = fc.dictionary(fc.string(), json);

/** Values of each type, as the SDK gives them to the console (a DATETIME is a `Date`). */
const valuesOf: Record<SettableType, fc.Arbitrary<unknown>> = {
  TEXT: text,
  NUMBER: finiteNumber,
  DATE: day,
  DATETIME: dateTime,
  IMAGE: text.map((name) => `wix:image://v1/${name}`),
  BOOLEAN: fc.boolean(),
  DOCUMENT: fc.webUrl(),
  URL: fc.webUrl(),
  RICH_TEXT: text.map((body) => `<p>${body}</p>`),
  VIDEO: fc.webUrl(),
  ANY: json,
  ARRAY_STRING: fc.array(text),
  ARRAY_DOCUMENT: fc.array(fc.webUrl()),
  AUDIO: fc.webUrl(),
  TIME: time,
  LANGUAGE: fc.constantFrom('en', 'fr', 'pt-BR', 'ja'),
  RICH_CONTENT: fc.record({ nodes: fc.array(jsonObject), metadata: jsonObject }),
  MEDIA_GALLERY: fc.array(fc.record({ type: fc.constantFrom('image', 'video'), src: fc.webUrl(), title: text })),
  ADDRESS: fc.record({ formatted: text, location: fc.record({ latitude: finiteNumber, longitude: finiteNumber }) }),
  PAGE_LINK: text.map((path) => `/${path}`),
  REFERENCE: fc.oneof(fc.uuid(), fc.record({ _id: fc.uuid(), title: text })),
  MULTI_REFERENCE: fc.array(fc.uuid()),
  OBJECT: jsonObject,
  ARRAY: fc.array(json),
};

const fieldOf = (type: SettableType): DataCollectionField => ({ key: `field${type}`, displayName: type, type });
const allFields = settableTypes.map(fieldOf);
const titleField: DataCollectionField = { key: 'title', displayName: 'Title', type: 'TEXT' };

/** An item with a value (or none) for each field type: how the demo's items leave some fields out. */
const items = fc.record(
  Object.fromEntries([['title', text], ...settableTypes.map((type) => [fieldOf(type).key, valuesOf[type]])]) as Record<
    string,
    fc.Arbitrary<unknown>
  >,
  { requiredKeys: ['title'] },
);

describe('the item form', () => {
  it('covers the 24 field types a collection may declare', () => {
    expect(settableTypes).toHaveLength(24);
  });

  it('keeps every field it does not touch exactly when only the title is edited', () => {
    const fields = [titleField, ...allFields].filter(isEditable);
    fc.assert(
      fc.property(items, text, (item, newTitle) => {
        const shown = Object.fromEntries(fields.map((field) => [field.key, toInputText(field, item[field.key])]));
        const saved = itemFromForm(fields, item, shown, { ...shown, title: newTitle });
        const { title: _oldTitle, ...untouched } = item;
        const { title, ...kept } = saved;
        expect(kept).toEqual(untouched);
        const edited = newTitle !== shown.title;
        expect(title).toBe(!edited ? item.title : newTitle.trim() === '' ? undefined : newTitle);
      }),
    );
  });

  describe.each(settableTypes.filter((type) => isEditable(fieldOf(type))))('a %s value', (type) => {
    const field = fieldOf(type);
    it('reads back from the text its input shows', () => {
      fc.assert(
        fc.property(valuesOf[type], (value) => {
          const shown = toInputText(field, value);
          const readBack = fromInputText(field, shown);
          if (shown.trim() === '') expect(readBack, 'a blank value leaves the field out').toBeUndefined();
          else if (value instanceof Date)
            // datetime-local holds minutes: the value reads back to the minute.
            expect((readBack as Date).getTime()).toBe(Math.floor(value.getTime() / 60_000) * 60_000);
          else if (type === 'REFERENCE' && typeof value === 'object')
            expect(readBack).toBe((value as { _id: string })._id);
          else expect(readBack).toEqual(value);
        }),
      );
    });
  });

  it('shows a list of strings one per line, as a JSON list when lines cannot hold it, and reads both', () => {
    const genres = fieldOf('ARRAY_STRING');
    expect(toInputText(genres, ['Sci-Fi', 'Drama'])).toBe('Sci-Fi\nDrama');
    expect(fromInputText(genres, 'Sci-Fi\n Drama \n\n')).toEqual(['Sci-Fi', 'Drama']);
    expect(toInputText(genres, ['two\nlines'])).toBe('[\n  "two\\nlines"\n]');
    expect(fromInputText(genres, '[\n  "two\\nlines"\n]')).toEqual(['two\nlines']);
    expect(fromInputText(genres, '[draft]\nfinal')).toEqual(['[draft]', 'final']);
  });

  it('names the field and the text it cannot read', () => {
    expect(() => fromInputText(fieldOf('NUMBER'), 'twelve')).toThrow(
      new FieldInputError('NUMBER: "twelve" is not a number'),
    );
    expect(() => fromInputText(fieldOf('OBJECT'), '{')).toThrow(new FieldInputError('OBJECT: not valid JSON'));
  });

  it('creates an item from every input it fills, leaving blank ones out', () => {
    const fields = [titleField, fieldOf('NUMBER'), fieldOf('ARRAY_STRING')];
    const shown = { title: '', fieldNUMBER: '', fieldARRAY_STRING: '' };
    expect(itemFromForm(fields, null, shown, { ...shown, title: 'New', fieldARRAY_STRING: 'a\nb' })).toEqual({
      title: 'New',
      fieldARRAY_STRING: ['a', 'b'],
    });
  });
});
