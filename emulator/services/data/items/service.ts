/** The data items service module: every items route of the route table. */
import { invalidField } from '../../../errors.js';
import type { EmulatorContext, ServiceModule } from '../../../service.js';
import type { OperationCall } from '../../operation-input.js';
import { deleteCollectionContent } from '../collections.js';
import { openCollection, scopeFor } from './access.js';
import { bulkItems, bulkList, bulkReferences } from './bulk.js';
import { wireItem } from './item-store.js';
import { patchItem, type ItemPatch } from './patch.js';
import { aggregateItems, countItems, distinctValues, getItem, queryItems } from './reads.js';
import {
  insertReference,
  isReferenced,
  queryReferenced,
  removeReference,
  replaceReferences,
  type ItemReference,
} from './reference-ops.js';
import { insertItem, removeItem, saveItem, updateItem } from './writes.js';
import { seedMovies } from '../demo.js';
import { itemEntities } from '../entities.js';

const text = (value: unknown, field: string): string => {
  if (typeof value != 'string' || !value) throw invalidField(field, 'must not be empty', 'REQUIRED_FIELD');
  return value;
};

/** The id of a bulk entry (a data item) for its result, when it has one. */
const dataItemId = (entry: unknown): string | undefined => {
  const item = entry as { id?: unknown; data?: { _id?: unknown } } | null;
  const id = item?.id ?? item?.data?._id;
  return typeof id == 'string' ? id : undefined;
};

/** A bulk reference operation: the caller must be allowed to update the referring items. */
function referenceBulk(
  call: OperationCall<'bulkInsertDataItemReferences' | 'bulkRemoveDataItemReferences'>,
  context: EmulatorContext,
  action: 'INSERT' | 'DELETE',
) {
  const access = openCollection(call, context);
  scopeFor(access, 'update');
  const write = action == 'INSERT' ? insertReference : removeReference;
  return bulkReferences(
    context.store,
    bulkList(call.input.dataItemReferences, 'dataItemReferences'),
    action,
    (entry, index) => write(access, entry as ItemReference, `dataItemReferences.${index}.`),
  );
}

/** Update, by its POST route and its PUT route (the same body, with the item's id also in the path). */
const updateCall = (call: OperationCall<'update' | 'updateDataItem'>, context: EmulatorContext) => ({
  dataItem: wireItem(
    call.input.dataCollectionId,
    updateItem(openCollection(call, context), call.input.dataItem, 'dataItem').data,
  ),
});

/** Remove, by its POST route (JSON body) and its DELETE route (query and path). */
const removeCall = (call: OperationCall<'remove' | 'removeDataItem'>, context: EmulatorContext) => ({
  dataItem: wireItem(
    call.input.dataCollectionId,
    removeItem(openCollection(call, context), text(call.input.dataItemId, 'dataItemId')).data,
  ),
});

/** The items service. */
export const itemsService: ServiceModule = {
  name: 'items',
  entities: itemEntities,
  seed: (context) => seedMovies(context),
  operations: {
    insert: (call: OperationCall<'insert'>, context) => ({
      dataItem: wireItem(
        call.input.dataCollectionId,
        insertItem(openCollection(call, context), call.input.dataItem, 'dataItem').data,
      ),
    }),
    update: updateCall,
    updateDataItem: updateCall,
    save(call: OperationCall<'save'>, context) {
      const result = saveItem(openCollection(call, context), call.input.dataItem, 'dataItem');
      return { action: result.action, dataItem: wireItem(call.input.dataCollectionId, result.data) };
    },
    get: (call: OperationCall<'get'>, context) =>
      getItem(openCollection(call, context), {
        dataItemId: text(call.input.dataItemId, 'dataItemId'),
        fields: call.input.fields,
        includeReferences: call.input.includeReferences,
      }),
    remove: removeCall,
    removeDataItem: removeCall,
    truncate(call: OperationCall<'truncate'>, context) {
      const access = openCollection(call, context);
      deleteCollectionContent(context.store, access.collection.id);
      return {};
    },
    patchDataItem: (call: OperationCall<'patchDataItem'>, context) => ({
      dataItem: wireItem(
        call.input.dataCollectionId,
        patchItem(openCollection(call, context), call.input.patch, 'patch', call.input.condition),
      ),
    }),

    queryDataItems: (call: OperationCall<'queryDataItems'>, context) =>
      queryItems(openCollection(call, context), call.input),
    queryDataItemsGet: (call: OperationCall<'queryDataItemsGet'>, context) =>
      queryItems(openCollection(call, context), call.input),
    count: (call: OperationCall<'count'>, context) => countItems(openCollection(call, context), call.input),
    queryDistinctValues: (call: OperationCall<'queryDistinctValues'>, context) =>
      distinctValues(openCollection(call, context), call.input),
    aggregateDataItems: (call: OperationCall<'aggregateDataItems'>, context) =>
      aggregateItems(openCollection(call, context), call.input),

    bulkInsertDataItems(call: OperationCall<'bulkInsertDataItems'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'insert');
      return bulkItems(
        access,
        bulkList(call.input.dataItems, 'dataItems'),
        // The insert permission was checked above, once for every item.
        (entry, index) => insertItem(access, entry, `dataItems.${index}`, true),
        dataItemId,
        call.input.returnEntity === true,
      );
    },
    bulkUpdateDataItems(call: OperationCall<'bulkUpdateDataItems'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'update');
      return bulkItems(
        access,
        bulkList(call.input.dataItems, 'dataItems'),
        (entry, index) => updateItem(access, entry, `dataItems.${index}`),
        dataItemId,
        call.input.returnEntity === true,
      );
    },
    bulkSaveDataItems(call: OperationCall<'bulkSaveDataItems'>, context) {
      const access = openCollection(call, context);
      return bulkItems(
        access,
        bulkList(call.input.dataItems, 'dataItems'),
        (entry, index) => saveItem(access, entry, `dataItems.${index}`),
        dataItemId,
        call.input.returnEntity === true,
      );
    },
    bulkRemoveDataItems(call: OperationCall<'bulkRemoveDataItems'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'remove');
      const ids = bulkList(call.input.dataItemIds, 'dataItemIds');
      return bulkItems(
        access,
        ids,
        (entry, index) => removeItem(access, text(entry, `dataItemIds.${index}`)),
        (entry) => (typeof entry == 'string' ? entry : undefined),
        false,
      );
    },
    bulkPatchDataItems(call: OperationCall<'bulkPatchDataItems'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'update');
      const patches = bulkList(call.input.patches, 'patches');
      return bulkItems(
        access,
        patches,
        (entry, index) => ({ action: 'PATCH', data: patchItem(access, entry as ItemPatch, `patches.${index}`) }),
        (entry) => (entry as ItemPatch | null)?.dataItemId,
        call.input.returnEntity === true,
      );
    },

    insertDataItemReference: (call: OperationCall<'insertDataItemReference'>, context) => ({
      dataItemReference: insertReference(
        openCollection(call, context),
        call.input.dataItemReference,
        'dataItemReference.',
      ),
    }),
    removeDataItemReference: (call: OperationCall<'removeDataItemReference'>, context) => ({
      dataItemReference: removeReference(
        openCollection(call, context),
        call.input.dataItemReference,
        'dataItemReference.',
      ),
    }),
    bulkInsertDataItemReferences: (call: OperationCall<'bulkInsertDataItemReferences'>, context) =>
      referenceBulk(call, context, 'INSERT'),
    bulkRemoveDataItemReferences: (call: OperationCall<'bulkRemoveDataItemReferences'>, context) =>
      referenceBulk(call, context, 'DELETE'),
    replaceReferences: (call: OperationCall<'replaceReferences'>, context) =>
      replaceReferences(openCollection(call, context), call.input),
    isReferenced: (call: OperationCall<'isReferenced'>, context) =>
      isReferenced(openCollection(call, context), call.input),
    queryReferencedDataItems: (call: OperationCall<'queryReferencedDataItems'>, context) =>
      queryReferenced(openCollection(call, context), call.input),
  },
};
