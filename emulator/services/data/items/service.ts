/** The data items service module: every items route of the route table. */
import { invalidField } from '../../../errors.js';
import type { components } from '../../../../generated/wire.js';
import type { EmulatorContext, ServiceCall, ServiceModule } from '../../../service.js';
import { deleteCollectionContent } from '../collections.js';
import { openCollection, scopeFor } from './access.js';
import { bulkItems, bulkList, bulkReferences } from './bulk.js';
import { wireItem } from './item-store.js';
import { patchItem, type ItemPatch } from './patch.js';
import { aggregateItems, countItems, distinctValues, getItem, queryItems } from './reads.js';
import { insertReference, isReferenced, queryReferenced, removeReference, replaceReferences, type ItemReference } from './reference-ops.js';
import { insertItem, removeItem, saveItem, updateItem } from './writes.js';
import { seedMovies } from '../demo.js';

/** The request of an operation, from the generated wire types. */
type Request<Name extends keyof components['schemas']> = ServiceCall<components['schemas'][Name]>;

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
function referenceBulk(call: Request<'BulkInsertDataItemReferencesRequest'>, context: EmulatorContext, action: 'INSERT' | 'DELETE') {
  const access = openCollection(call, context);
  scopeFor(access, 'update');
  const write = action == 'INSERT' ? insertReference : removeReference;
  return bulkReferences(context.store, bulkList(call.input.dataItemReferences, 'dataItemReferences'), action, (entry, index) => write(access, entry as ItemReference, `dataItemReferences.${index}.`));
}

/** The items service. */
export const itemsService: ServiceModule = {
  name: 'items',
  seed: (context) => seedMovies(context),
  operations: {
    insert: (call: Request<'InsertDataItemRequest'>, context) => ({ dataItem: wireItem(call.input.dataCollectionId, insertItem(openCollection(call, context), call.input.dataItem, 'dataItem').data) }),
    update: (call: Request<'UpdateDataItemRequest'>, context) => ({ dataItem: wireItem(call.input.dataCollectionId, updateItem(openCollection(call, context), call.input.dataItem, 'dataItem').data) }),
    updateDataItem: (call: Request<'UpdateDataItemRequest'>, context) => ({ dataItem: wireItem(call.input.dataCollectionId, updateItem(openCollection(call, context), call.input.dataItem, 'dataItem').data) }),
    save(call: Request<'SaveDataItemRequest'>, context) {
      const result = saveItem(openCollection(call, context), call.input.dataItem, 'dataItem');
      return { action: result.action, dataItem: wireItem(call.input.dataCollectionId, result.data) };
    },
    get: (call: ServiceCall<{ dataCollectionId: string; dataItemId: string; fields?: string[] }>, context) => getItem(openCollection(call, context), { dataItemId: text(call.input.dataItemId, 'dataItemId'), fields: call.input.fields }),
    remove: (call: Request<'RemoveDataItemRequest'>, context) => ({ dataItem: wireItem(call.input.dataCollectionId, removeItem(openCollection(call, context), text(call.input.dataItemId, 'dataItemId')).data) }),
    removeDataItem: (call: Request<'RemoveDataItemRequest'>, context) => ({ dataItem: wireItem(call.input.dataCollectionId, removeItem(openCollection(call, context), text(call.input.dataItemId, 'dataItemId')).data) }),
    truncate(call: Request<'TruncateDataItemsRequest'>, context) {
      const access = openCollection(call, context);
      deleteCollectionContent(context.store, access.collection.id);
      return {};
    },
    patchDataItem: (call: Request<'PatchDataItemRequest'>, context) => ({ dataItem: wireItem(call.input.dataCollectionId, patchItem(openCollection(call, context), call.input.patch as ItemPatch, 'patch', call.input.condition)) }),

    queryDataItems: (call: Request<'QueryDataItemsRequest'>, context) => queryItems(openCollection(call, context), call.input),
    queryDataItemsGet: (call: Request<'QueryDataItemsRequest'>, context) => queryItems(openCollection(call, context), call.input),
    count: (call: Request<'CountDataItemsRequest'>, context) => countItems(openCollection(call, context), call.input),
    queryDistinctValues: (call: Request<'QueryDistinctValuesRequest'>, context) => distinctValues(openCollection(call, context), call.input),
    aggregateDataItems: (call: Request<'AggregateDataItemsRequest'>, context) => aggregateItems(openCollection(call, context), call.input),

    bulkInsertDataItems(call: Request<'BulkInsertDataItemsRequest'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'insert');
      return bulkItems(access, bulkList(call.input.dataItems, 'dataItems'), (entry, index) => insertItem(access, entry, `dataItems.${index}`), dataItemId, call.input.returnEntity === true);
    },
    bulkUpdateDataItems(call: Request<'BulkUpdateDataItemsRequest'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'update');
      return bulkItems(access, bulkList(call.input.dataItems, 'dataItems'), (entry, index) => updateItem(access, entry, `dataItems.${index}`), dataItemId, call.input.returnEntity === true);
    },
    bulkSaveDataItems(call: Request<'BulkSaveDataItemsRequest'>, context) {
      const access = openCollection(call, context);
      return bulkItems(access, bulkList(call.input.dataItems, 'dataItems'), (entry, index) => saveItem(access, entry, `dataItems.${index}`), dataItemId, call.input.returnEntity === true);
    },
    bulkRemoveDataItems(call: Request<'BulkRemoveDataItemsRequest'>, context) {
      const access = openCollection(call, context);
      scopeFor(access, 'remove');
      const ids = bulkList(call.input.dataItemIds, 'dataItemIds');
      return bulkItems(access, ids, (entry, index) => removeItem(access, text(entry, `dataItemIds.${index}`)), (entry) => (typeof entry == 'string' ? entry : undefined), false);
    },
    bulkPatchDataItems(call: Request<'BulkPatchDataItemsRequest'>, context) {
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

    insertDataItemReference: (call: Request<'InsertDataItemReferenceRequest'>, context) => ({ dataItemReference: insertReference(openCollection(call, context), call.input.dataItemReference, 'dataItemReference.') }),
    removeDataItemReference: (call: Request<'RemoveDataItemReferenceRequest'>, context) => ({ dataItemReference: removeReference(openCollection(call, context), call.input.dataItemReference, 'dataItemReference.') }),
    bulkInsertDataItemReferences: (call: Request<'BulkInsertDataItemReferencesRequest'>, context) => referenceBulk(call, context, 'INSERT'),
    bulkRemoveDataItemReferences: (call: Request<'BulkRemoveDataItemReferencesRequest'>, context) => referenceBulk(call, context, 'DELETE'),
    replaceReferences: (call: Request<'ReplaceDataItemReferencesRequest'>, context) => replaceReferences(openCollection(call, context), call.input),
    isReferenced: (call: Request<'IsReferencedDataItemRequest'>, context) => isReferenced(openCollection(call, context), call.input),
    queryReferencedDataItems: (call: Request<'QueryReferencedDataItemsRequest'>, context) => queryReferenced(openCollection(call, context), call.input),
  },
};

