/**
 * The data services' sections of an export (version 2): collections as the collections API
 * answers them, each collection's items as their wire data (`{_id, _createdDate: {$date}, ...}`),
 * and the multi-reference fields' values, in order. Read from and written to the data tables.
 */
import { invalidField } from '../../errors.js';
import type { EntitySections } from '../../service.js';
import { checkStoredValue, isRecord } from '../../untrusted-json.js';
import { entityIdProblem } from '../../control/state-rows.js';
import { collectionIdProblem } from './collection-names.js';
import { findCollection, saveCollection, type Collection } from './collection-store.js';
import { writeItem, type ItemData } from './items/item-store.js';

/** The collections section. */
export const collectionEntities: EntitySections = {
  export: ({ store }) => ({
    collections: store
      .all<{ body: string }>('SELECT body FROM collections ORDER BY rowid')
      .map((row) => JSON.parse(row.body) as Record<string, unknown>),
  }),
  import({ store }, { collections }) {
    collections.forEach((collection, index) => {
      const at = `collections.${index}`;
      const problem = typeof collection.id == 'string' ? collectionIdProblem(collection.id) : 'must be a collection id';
      if (problem) throw invalidField(`${at}.id`, problem);
      if (!Array.isArray(collection.fields)) throw invalidField(`${at}.fields`, 'must be a list of fields');
      if (typeof collection.createdDate != 'string') throw invalidField(`${at}.createdDate`, 'must be an ISO time');
      checkStoredValue(collection, at);
      saveCollection(store, collection as unknown as Collection);
    });
  },
};

/** Why `value` cannot be a stored `{$date}`, or `undefined`. */
const dateProblem = (value: unknown): string | undefined =>
  isRecord(value) && typeof value.$date == 'string' && !Number.isNaN(Date.parse(value.$date))
    ? undefined
    : 'must be a date in wire form ({"$date": "2024-01-01T00:00:00.000Z"})';

/** The items and references sections. */
export const itemEntities: EntitySections = {
  export({ store }) {
    const items: Record<string, Record<string, unknown>[]> = {};
    for (const row of store.all<{ collection_id: string; data: string }>(
      'SELECT collection_id, data FROM items ORDER BY rowid',
    ))
      (items[row.collection_id] ??= []).push(JSON.parse(row.data) as Record<string, unknown>);
    const references = store
      .all<{ collection_id: string; field: string; referring_id: string; referenced_id: string }>(
        'SELECT collection_id, field, referring_id, referenced_id FROM item_references ORDER BY collection_id, field, referring_id, position',
      )
      .map((row) => ({
        dataCollectionId: row.collection_id,
        relationshipName: row.field,
        referringItemId: row.referring_id,
        referencedItemId: row.referenced_id,
      }));
    return { items, references };
  },
  import({ store }, { items, references }) {
    for (const [collectionId, list] of Object.entries(items)) {
      if (!findCollection(store, collectionId))
        throw invalidField(`items.${collectionId}`, 'is not a collection of the file (collections)', 'VALIDATION');
      list.forEach((data, index) => {
        const at = `items.${collectionId}.${index}`;
        const idProblem = typeof data._id == 'string' ? entityIdProblem(data._id) : 'must be an item id';
        if (idProblem) throw invalidField(`${at}._id`, idProblem);
        const createdProblem = dateProblem(data._createdDate);
        if (createdProblem) throw invalidField(`${at}._createdDate`, createdProblem, 'FORMAT');
        checkStoredValue(data, at);
        writeItem(store, collectionId, data as ItemData);
      });
    }
    // Each field's values keep the file's order.
    const positions = new Map<string, number>();
    references.forEach((reference, index) => {
      const { dataCollectionId, relationshipName, referringItemId, referencedItemId } = reference;
      const problem = entityIdProblem(referringItemId) ?? entityIdProblem(referencedItemId);
      if (problem) throw invalidField(`references.${index}`, `holds an item id that ${problem}`);
      const key = JSON.stringify([dataCollectionId, relationshipName, referringItemId]);
      const position = positions.get(key) ?? 0;
      positions.set(key, position + 1);
      store.run(
        'INSERT OR IGNORE INTO item_references (collection_id, field, referring_id, referenced_id, position) VALUES (?, ?, ?, ?, ?)',
        [dataCollectionId, relationshipName, referringItemId, referencedItemId, position],
      );
    });
  },
};
