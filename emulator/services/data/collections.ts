/** The data collections service: create, get, list, update (revision checked), delete. */
import { applicationError, invalidField } from '../../errors.js';
import { domainEvent, eventIdentity } from '../../events.js';
import type { ServiceModule } from '../../service.js';
import type { Store } from '../../store/store.js';
import type { OperationCall } from '../operation-input.js';
import {
  DEFAULT_PERMISSIONS,
  SYSTEM_FIELDS,
  dataMigrations,
  findCollection,
  requireCollection,
  saveCollection,
  type Collection,
  type CollectionField,
} from './collection-store.js';
import { requireCollectionId, requireFieldKeys } from './collections-rules.js';
import { pageOf } from './paging.js';
import { collectionEntities } from './entities.js';

const FQDN = 'wix.data.v2.data_collection';

/** The given fields, with the system fields first (their given definitions replaced). */
function withSystemFields(fields: CollectionField[] | undefined): CollectionField[] {
  requireFieldKeys(fields ?? []);
  const own = (fields ?? []).filter((field) => !SYSTEM_FIELDS.some((system) => system.key == field.key));
  const keys = new Set<string>();
  for (const field of own) {
    if (keys.has(field.key)) throw invalidField('collection.fields', `field key ${field.key} appears twice`);
    keys.add(field.key);
  }
  return [...SYSTEM_FIELDS, ...own];
}

/**
 * The id of the collection to change: any id a collection has (one kept from before the id rules
 * can still be changed or deleted); a new collection's id is checked by `requireCollectionId`.
 */
function collectionId(input: { id?: unknown } | undefined): string {
  const id = input?.id;
  if (typeof id != 'string' || !id.trim()) throw invalidField('collection.id', 'must not be empty', 'REQUIRED_FIELD');
  return id;
}

/** The collections referenced by the reference fields of `collection`. */
function referencedCollections(collection: Collection, store: Store): Collection[] {
  const ids = new Set<string>();
  for (const field of collection.fields) {
    const target =
      field.typeMetadata?.reference?.referencedCollectionId ??
      field.typeMetadata?.multiReference?.referencedCollectionId;
    if (target && target != collection.id) ids.add(target);
  }
  return [...ids].map((id) => findCollection(store, id)).filter((found): found is Collection => found !== undefined);
}

/** Deletes a collection's items and references (also used by the items service's truncate). */
export function deleteCollectionContent(store: Store, collectionId: string): void {
  store.run('DELETE FROM items WHERE collection_id = ?', [collectionId]);
  store.run('DELETE FROM item_references WHERE collection_id = ?', [collectionId]);
}

/** The collections service module. */
export const collectionsService: ServiceModule = {
  name: 'collections',
  entities: collectionEntities,
  migrations: dataMigrations,
  operations: {
    createDataCollection(call: OperationCall<'createDataCollection'>, { store, clock }) {
      const input = call.input.collection;
      const id = requireCollectionId(input?.id);
      if (findCollection(store, id))
        throw applicationError(409, 'ALREADY_EXISTS', `Collection ${id} already exists`, { collectionId: id });
      const now = clock.iso();
      const collection = saveCollection(store, {
        collectionType: 'NATIVE',
        displayName: id,
        maxPageSize: 1000,
        pagingModes: ['OFFSET', 'CURSOR'],
        plugins: [],
        indexes: [],
        ...input,
        id,
        fields: withSystemFields(input.fields),
        permissions: { ...DEFAULT_PERMISSIONS, ...input.permissions },
        revision: '1',
        createdDate: now,
        updatedDate: now,
      });
      call.emit(domainEvent(FQDN, 'created', id, { createdEvent: { entity: collection } }, eventIdentity(call.caller)));
      return { collection };
    },

    getDataCollection(call: OperationCall<'getDataCollection'>, { store }) {
      const collection = requireCollection(store, call.input.dataCollectionId);
      return { collection, referencedCollections: referencedCollections(collection, store) };
    },

    listDataCollections(call: OperationCall<'listDataCollections'>, { store }) {
      const all = store
        .all<{ body: string }>('SELECT body FROM collections ORDER BY created_date, id')
        .map((row) => JSON.parse(row.body) as Collection);
      const sort = call.input.sort;
      if (sort?.fieldName) {
        const direction = sort.order == 'DESC' ? -1 : 1;
        const key = (collection: Collection) => String(collection[sort.fieldName] ?? '');
        all.sort((left, right) => (key(left) < key(right) ? -direction : key(left) > key(right) ? direction : 0));
      }
      const page = pageOf(all, call.input.paging);
      return { collections: page.items, pagingMetadata: page.metadata };
    },

    updateDataCollection(call: OperationCall<'updateDataCollection'>, { store, clock }) {
      const input = call.input.collection;
      const id = collectionId(input);
      const current = requireCollection(store, id);
      if (input.revision === undefined)
        throw invalidField('collection.revision', 'must not be empty: pass the revision you read', 'REQUIRED_FIELD');
      if (String(input.revision) != current.revision) {
        throw applicationError(
          409,
          'REVISION_MISMATCH',
          `Collection ${id} was changed since revision ${input.revision} (now at ${current.revision}); read it again and retry`,
          {
            collectionId: id,
            currentRevision: current.revision,
          },
        );
      }
      const collection = saveCollection(store, {
        ...current,
        ...input,
        id,
        fields: withSystemFields(input.fields ?? current.fields),
        permissions: { ...current.permissions, ...input.permissions },
        revision: String(Number(current.revision) + 1),
        createdDate: current.createdDate,
        updatedDate: clock.iso(),
      });
      call.emit(
        domainEvent(FQDN, 'updated', id, { updatedEvent: { currentEntity: collection } }, eventIdentity(call.caller)),
      );
      return { collection };
    },

    deleteDataCollection(call: OperationCall<'deleteDataCollection'>, { store }) {
      const collection = requireCollection(store, call.input.dataCollectionId);
      deleteCollectionContent(store, collection.id);
      store.run('DELETE FROM collections WHERE id = ?', [collection.id]);
      call.emit(
        domainEvent(
          FQDN,
          'deleted',
          collection.id,
          { deletedEvent: { deletedEntity: collection } },
          eventIdentity(call.caller),
        ),
      );
      return {};
    },
  },
};
