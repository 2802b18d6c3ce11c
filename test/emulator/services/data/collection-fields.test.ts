/**
 * Collection ids and field keys checked as the platform checks them (its validation error shape),
 * and fields edited and removed through `updateDataCollection`, as the console does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionIdProblem, fieldKeyProblem } from '../../../../console/src/data/collection-rules.js';
import { isValidationError } from '../../../../src/index.js';
import { startEmulator, type TestEmulator } from '../../../helpers/emulator.js';

let emulator: TestEmulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator?.close());

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  );

const badIds = ['my books/2', 'a b', 'books!', 'x/y/z', '', 'é', `${'a'.repeat(257)}`];
const goodIds = ['Books', 'my-books_2', '@acme/recipes', 'acme/recipes', 'M'];
const badKeys = ['bad key!', '2nd', '_hidden', 'a-b', '', 'ключ', 'a'.repeat(65)];
const goodKeys = ['title', 'releaseDate', 'a_b', 'x1'];

describe('collection ids and field keys', () => {
  it('refuses an id the platform refuses, with its validation error', async () => {
    for (const id of badIds) {
      const error = await rejection(emulator.admin.collections.createDataCollection({ _id: id }));
      expect(isValidationError(error), id).toBe(true);
      expect((error as { status: number }).status).toBe(400);
      expect((error as { violations: { field: string }[] }).violations.map((violation) => violation.field)).toEqual([
        'collection.id',
      ]);
    }
    for (const id of goodIds) {
      expect((await emulator.admin.collections.createDataCollection({ _id: id }))._id).toBe(id);
    }
  });

  it('refuses bad field keys, every one by its position, on create and on update', async () => {
    const error = await rejection(
      emulator.admin.collections.createDataCollection({
        _id: 'KeysChecked',
        fields: [
          { key: 'title', type: 'TEXT' },
          { key: 'bad key!', type: 'TEXT' },
          { key: '_hidden', type: 'NUMBER' },
        ],
      }),
    );
    expect(isValidationError(error)).toBe(true);
    expect((error as { violations: { field: string }[] }).violations.map((violation) => violation.field)).toEqual([
      'collection.fields[1].key',
      'collection.fields[2].key',
    ]);
    const created = await emulator.admin.collections.createDataCollection({
      _id: 'KeysChecked',
      fields: [{ key: 'title', type: 'TEXT' }],
    });
    const onUpdate = await rejection(
      emulator.admin.collections.updateDataCollection({
        ...created,
        fields: [...created.fields!, { key: 'no spaces please', type: 'TEXT' }],
      }),
    );
    expect(isValidationError(onUpdate)).toBe(true);
  });

  it('edits a field and removes one (updateDataCollection with the fields changed)', async () => {
    const created = await emulator.admin.collections.createDataCollection({
      _id: 'FieldEdits',
      fields: [
        { key: 'title', displayName: 'Title', type: 'TEXT' },
        { key: 'pages', displayName: 'Pages', type: 'TEXT' },
        { key: 'obsolete', displayName: 'Obsolete', type: 'TEXT' },
      ],
    });
    const edited = await emulator.admin.collections.updateDataCollection({
      ...created,
      fields: created
        .fields!.filter((field) => field.key !== 'obsolete')
        .map((field) => (field.key === 'pages' ? { ...field, displayName: 'Page count', type: 'NUMBER' } : field)),
    });
    const own = edited.fields!.filter((field) => !field.systemField);
    expect(own.map(({ key, displayName, type }) => ({ key, displayName, type }))).toEqual([
      { key: 'title', displayName: 'Title', type: 'TEXT' },
      { key: 'pages', displayName: 'Page count', type: 'NUMBER' },
    ]);
    expect((await emulator.admin.collections.getDataCollection('FieldEdits')).revision).toBe('2');
  });

  it("the console's forms refuse and accept what the emulator does (the same functions)", () => {
    for (const id of badIds) expect(collectionIdProblem(id), id).toBeDefined();
    for (const id of goodIds) expect(collectionIdProblem(id), id).toBeUndefined();
    for (const key of badKeys) expect(fieldKeyProblem(key), key).toBeDefined();
    for (const key of goodKeys) expect(fieldKeyProblem(key), key).toBeUndefined();
  });
});
