/**
 * The `items` namespace: the generated methods (with typed item signatures) plus the hand-written
 * builders, paged reads, bulk writes and references of the official data items API.
 */
import { namespaceOperations, type ItemsOperations } from '../../generated/namespaces.js';
import { bulkInsertDataItems } from '../../generated/operations/bulkInsertDataItems.js';
import { bulkRemoveDataItems } from '../../generated/operations/bulkRemoveDataItems.js';
import { bulkSaveDataItems } from '../../generated/operations/bulkSaveDataItems.js';
import { bulkUpdateDataItems } from '../../generated/operations/bulkUpdateDataItems.js';
import { count } from '../../generated/operations/count.js';
import { queryDataItems } from '../../generated/operations/queryDataItems.js';
import { queryDistinctValues } from '../../generated/operations/queryDistinctValues.js';
import type * as M from '../../generated/models.js';
import type { Transport } from '../http/transport.js';
import { optionsObject, requireString } from '../input.js';
import { bindOperations, sendPublic } from '../invoke.js';
import { loadOnFirstUse } from '../lazy.js';
import type { Operation } from '../operation.js';
import type { CallOptions, Item } from '../types.js';
import { Aggregate } from './aggregate.js';
import type { BulkAction } from './bulk.js';
import { Filter, optionalFilter, requestFilter } from './filter.js';
import { fetchPages, firstPageRequest, limitOf, type PageSource, skipOf } from './paging.js';
import { Patch, patchItem } from './patch.js';
import { EMPTY_QUERY, QueryMethods, type QueryState } from './query.js';
import type {
  AggregateBuilder,
  BulkOptions,
  BulkPatchOptions,
  BulkResult,
  CollectionItem,
  CountOptions,
  DataItemOf,
  DefaultItem,
  DistinctOptions,
  DistinctRequest,
  DistinctResult,
  FieldModification,
  FieldPath,
  FieldValue,
  FilterBuilder,
  FilterLike,
  FindOptions,
  FindRequestOptions,
  InferableItem,
  ItemInput,
  ItemRef,
  ItemsQueryBuilder,
  ItemsQueryRequest,
  ItemsQueryResponse,
  PagedResult,
  PatchBuilder,
  BulkPatchBuilder,
  ReferencedItem,
  QueryReferencedItemsOptions,
  QueryReferencedOptions,
  QueryRequest,
  ReferencedItemsPage,
  RegisteredCollectionId,
  TypedCollectionId,
} from './types.js';

/**
 * Every method of `client.items`: the official data items API. Methods that take an item are
 * typed by the collection's registered type (`SiteCollections`, written by `sitekit-sdk types`),
 * or by the item type given (`client.items.get<Movie>('Movies', id)`), which names any collection;
 * builders are typed by it too. Without either, items are untyped (`Item`).
 */
export interface ItemsApi extends Omit<ItemsOperations, 'count'> {
  /** Counts the items that match `filter` (a filter builder or object); all items without one. */
  count<C extends RegisteredCollectionId>(
    collectionId: C,
    options?: { filter?: FilterLike } & CountOptions,
  ): Promise<number>;
  /** Counts the items that match `filter` in a collection named by its item type `T` (any collection ID). */
  count<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    options?: { filter?: FilterLike } & CountOptions,
  ): Promise<number>;
  /**
   * Starts an immutable query builder.
   *
   * @example
   * ```ts
   * const page = await client.items.query<Movie>('Movies').ge('year', 1970).descending('year').limit(10).find();
   * for (const movie of page) console.log(movie.title);
   * ```
   */
  query<C extends RegisteredCollectionId>(collectionId: C): ItemsQueryBuilder<CollectionItem<C>>;
  /** Starts an immutable query builder of items of type `T` (any collection ID). */
  query<T extends object = DefaultItem>(collectionId: TypedCollectionId<T>): ItemsQueryBuilder<T>;
  /** Runs a query given as an object (`{filter, sort, paging | cursorPaging, fields}`): one page and its metadata. */
  query<C extends RegisteredCollectionId>(
    collectionId: C,
    query: ItemsQueryRequest,
    options?: FindOptions & { includeReferences?: readonly (string | { field: string })[] },
  ): Promise<ItemsQueryResponse<CollectionItem<C>>>;
  /** Runs a query given as an object, of items of type `T` (any collection ID): one page and its metadata. */
  query<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    query: ItemsQueryRequest,
    options?: FindOptions & { includeReferences?: readonly (string | { field: string })[] },
  ): Promise<ItemsQueryResponse<T>>;
  /** A standalone filter builder, for `and/or/not`, aggregations, counts and member queries. */
  filter<T extends object = Item>(): FilterBuilder<T>;
  /** The distinct values of a field among the items matching `filter`, paged by `paging`. */
  distinct<C extends RegisteredCollectionId, K extends FieldPath<DataItemOf<CollectionItem<C>>>>(
    collectionId: C,
    field: K,
    options?: DistinctRequest,
  ): Promise<DistinctResult<FieldValue<DataItemOf<CollectionItem<C>>, K>>>;
  /** The distinct values of a field of items of type `T` (any collection ID), paged by `paging`. */
  distinct<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    field: FieldPath<DataItemOf<NoInfer<T>>>,
    options?: DistinctRequest,
  ): Promise<DistinctResult<unknown>>;
  /** Starts an immutable aggregation builder. */
  aggregate<C extends RegisteredCollectionId>(collectionId: C): AggregateBuilder<CollectionItem<C>>;
  /** Starts an immutable aggregation builder over items of type `T` (any collection ID). */
  aggregate<T extends object = DefaultItem>(collectionId: TypedCollectionId<T>): AggregateBuilder<T>;
  /** Starts an immutable patch of one item; `run()` applies it. */
  patch<C extends RegisteredCollectionId>(collectionId: C, itemId: string): PatchBuilder<CollectionItem<C>>;
  /** Starts an immutable patch of one item of type `T` (any collection ID); `run()` applies it. */
  patch<T extends object = DefaultItem>(collectionId: TypedCollectionId<T>, itemId: string): PatchBuilder<T>;
  /** The items a reference field of an item refers to, as a paged result. */
  queryReferenced<C extends RegisteredCollectionId, K extends FieldPath<CollectionItem<C>>>(
    collectionId: C,
    itemId: ItemRef,
    field: K,
    options?: QueryReferencedOptions,
  ): Promise<PagedResult<DataItemOf<ReferencedItem<FieldValue<CollectionItem<C>, K>>>>>;
  /** The items a reference field of an item refers to, of type `T` given (any collection ID), as a paged result. */
  queryReferenced<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    itemId: ItemRef,
    field: string,
    options?: QueryReferencedOptions,
  ): Promise<PagedResult<DataItemOf<T>>>;
  /**
   * The official form: one page of the items the reference field `field` of one referring item or
   * of several refers to, each result with its referring item's ID (`{results, pagingMetadata}`).
   */
  queryReferencedItems<C extends RegisteredCollectionId, K extends FieldPath<CollectionItem<C>>>(
    collectionId: C,
    referringItem: ItemRef | readonly ItemRef[],
    field: K,
    options?: QueryReferencedItemsOptions,
  ): Promise<ReferencedItemsPage<DataItemOf<ReferencedItem<FieldValue<CollectionItem<C>, K>>>>>;
  /** The official form, of referenced items of type `T` given (any collection ID). */
  queryReferencedItems<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    referringItem: ItemRef | readonly ItemRef[],
    field: string,
    options?: QueryReferencedItemsOptions,
  ): Promise<ReferencedItemsPage<DataItemOf<T>>>;
  /** Adds references from a reference field of item `left` to one item or to several. */
  insertReference: ReferenceWrite;
  /** Removes references from a reference field of item `left` to one item or to several. */
  removeReference: ReferenceWrite;
  /** Adds several items. */
  bulkInsert: BulkWrite;
  /** Replaces several existing items. */
  bulkUpdate: BulkWrite;
  /** Inserts several items, replacing those whose `_id` exists. */
  bulkSave: BulkWrite;
  /**
   * Starts an immutable patch of several items: the same field modifications, applied to each by
   * `run()` in one request (the official builder form).
   *
   * @example
   * ```ts
   * const { updated } = await client.items.bulkPatch('Movies', ['m1', 'm2']).incrementField('views', 1).run();
   * ```
   */
  bulkPatch<C extends RegisteredCollectionId>(
    collectionId: C,
    itemIds: readonly string[],
  ): BulkPatchBuilder<CollectionItem<C>>;
  /** Starts an immutable patch of several items of a collection named by its item type `T` (any collection ID). */
  bulkPatch<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    itemIds: readonly string[],
  ): BulkPatchBuilder<T>;
  /** Applies the same field modifications (at least one) to several items; a patched item counts as updated. */
  bulkPatch<C extends RegisteredCollectionId>(
    collectionId: C,
    itemIds: readonly string[],
    fieldModifications: readonly FieldModification[],
    options?: BulkPatchOptions,
  ): Promise<BulkResult>;
  /** Applies the same field modifications to several items of a collection named by its item type `T` (any collection ID). */
  bulkPatch<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    itemIds: readonly string[],
    fieldModifications: readonly FieldModification[],
    options?: BulkPatchOptions,
  ): Promise<BulkResult>;
  /** Removes several items by ID. */
  bulkRemove<C extends RegisteredCollectionId>(
    collectionId: C,
    itemIds: readonly string[],
    options?: CallOptions,
  ): Promise<BulkResult>;
  /** Removes several items by ID, from a collection named by its item type `T` (any collection ID). */
  bulkRemove<T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    itemIds: readonly string[],
    options?: CallOptions,
  ): Promise<BulkResult>;
}

// Bulk writes (and bulk patches) load on the first bulk call: most pages never make one.
const loadBulkWrites = loadOnFirstUse(() => import('./bulk.js'));

/** A bulk write method over `operation` (see `bulkWrite` in ./bulk.ts), its code loaded on first use. */
const bulkWrite =
  (transport: Transport, operation: Operation, action?: BulkAction) =>
  async (collectionId: string, entries: unknown, options?: object): Promise<BulkResult> =>
    (await loadBulkWrites()).bulkWrite(transport, operation, action)(collectionId, entries, options);

// The reference methods load on the first call of one: most pages never make one.
const loadReferenceMethods = loadOnFirstUse(() => import('./references.js'));

/** The collection ID argument of every items method, checked before any request. */
const collectionIdOf = (collectionId: unknown): string => requireString(collectionId, 'dataCollectionId');

/** `includeReferences` as the service takes it: `[{field, limit?}]` (field names are accepted too). */
const includedReferences = (fields: readonly unknown[] | undefined): M.IncludedReference[] | undefined =>
  fields?.map((field) => (typeof field === 'string' ? { field } : (field as M.IncludedReference)));

/** What an item query needs besides its state: the client's items API and transport, and the collection. */
interface ItemsQueryTarget {
  readonly api: ItemsApi;
  readonly transport: Transport;
  readonly collectionId: string;
}

/** An immutable item query over one collection; `count` and `distinct` go through the direct forms. */
class ItemsQuery extends QueryMethods<ItemsQuery> implements ItemsQueryBuilder {
  constructor(
    private readonly target: ItemsQueryTarget,
    state: QueryState = EMPTY_QUERY,
  ) {
    super(state);
  }

  protected withState(changes: Partial<QueryState>): ItemsQuery {
    return new ItemsQuery(this.target, { ...this.state, ...changes });
  }

  /** The query's filter for a request (`undefined` without conditions). */
  private requestFilter() {
    return requestFilter(this.toFilter());
  }

  /** Returns only these fields (`query.fields`). */
  fields(...fields: string[]): ItemsQuery {
    return this.withState({ fields: fields.map((field) => requireString(field, 'field')) });
  }
  /**
   * Returns the referenced items of these reference fields in full (`includeReferences: [{field,
   * limit?}]`), after those of earlier calls; a number last is the most items per item of each
   * multi-reference field, as the official builder takes it (`include('actors', 2)`).
   */
  include(...fieldsAndLimit: (string | number)[]): ItemsQuery {
    const last = fieldsAndLimit.at(-1);
    const limit = typeof last === 'number' ? limitOf(last) : undefined;
    const fields = limit === undefined ? fieldsAndLimit : fieldsAndLimit.slice(0, -1);
    const added = fields.map((field) => ({
      field: requireString(field, 'field'),
      ...(limit === undefined ? {} : { limit }),
    }));
    return this.withState({ includedReferences: [...(this.state.includedReferences ?? []), ...added] });
  }
  /** How `find(options)` fetches its pages. */
  private pageSource(options: FindOptions | undefined): PageSource {
    const { sort, fields, includedReferences: included } = this.state;
    return {
      transport: this.target.transport,
      operation: queryDataItems,
      base: { dataCollectionId: this.target.collectionId },
      rest: {
        query: { filter: this.requestFilter(), sort: sort.length > 0 ? sort : undefined, fields },
        includeReferences: includedReferences(included),
      },
      entries: (response) => response.dataItems as unknown[] | undefined,
      pagingField: 'query',
      options,
    };
  }
  /** Runs the query: one page of items. */
  find(options?: FindOptions): Promise<PagedResult<DataItemOf<Item>>> {
    return fetchPages(this.pageSource(options), this.state);
  }
  /** The request `find(options)` would send for its first page, without sending it. */
  toRequest(options?: FindRequestOptions): QueryRequest {
    const { collectionId, transport } = this.target;
    return {
      namespace: 'items',
      collectionId,
      payload: firstPageRequest(this.pageSource(options), this.state),
      elevated: transport.elevated,
    };
  }
  /** Every matching item, page after page. */
  async *all(options?: FindOptions): AsyncIterableIterator<DataItemOf<Item>> {
    yield* (await this.find(options)).all();
  }
  /** Counts the items that match the filter. */
  count(options?: CountOptions): Promise<number> {
    return this.target.api.count<Item>(this.target.collectionId, { ...options, filter: this.requestFilter() });
  }
  /** The distinct values of a field among the matching items (ordered by the query's sort of that field, paged by its limit and skip). */
  distinct<K extends string>(
    field: K,
    options?: DistinctOptions,
  ): Promise<PagedResult<FieldValue<DataItemOf<Item>, K>>> {
    const order = this.state.sort.find((entry) => entry.fieldName === field)?.order;
    return this.target.api.distinct<Item>(this.target.collectionId, field, {
      ...options,
      filter: this.requestFilter(),
      order,
      paging: { limit: this.state.limit, offset: this.state.skip },
    }) as Promise<PagedResult<FieldValue<DataItemOf<Item>, K>>>;
  }
}

/**
 * `insertReference` and `removeReference`: typed by the registered collection (its fields), or by
 * the item type given (any collection ID).
 */
export interface ReferenceWrite {
  <C extends RegisteredCollectionId>(
    collectionId: C,
    field: FieldPath<CollectionItem<C>>,
    left: ItemRef,
    right: ItemRef | readonly ItemRef[],
    options?: CallOptions,
  ): Promise<void>;
  <T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    field: FieldPath<NoInfer<T>>,
    left: ItemRef,
    right: ItemRef | readonly ItemRef[],
    options?: CallOptions,
  ): Promise<void>;
}

/**
 * `bulkInsert`, `bulkUpdate` and `bulkSave`: the items typed by the registered collection, or by
 * the item type given (any collection ID; inferred from the items while nothing is registered).
 */
export interface BulkWrite {
  <C extends RegisteredCollectionId>(
    collectionId: C,
    items: readonly ItemInput<CollectionItem<C>>[],
    options?: BulkOptions,
  ): Promise<BulkResult>;
  <T extends object = DefaultItem>(
    collectionId: TypedCollectionId<T>,
    items: readonly ItemInput<InferableItem<T>>[],
    options?: BulkOptions,
  ): Promise<BulkResult>;
}

/** Creates `client.items` over a transport. */
export function itemsNamespace(transport: Transport): ItemsApi {
  const api: ItemsApi = {
    ...bindOperations<Omit<ItemsOperations, 'count'>>(transport, namespaceOperations.items),
    count: (collectionId: string, options?: { filter?: FilterLike } & CountOptions) =>
      countItems(transport, collectionId, options),
    query: ((
      collectionId: unknown,
      query?: unknown,
      options?: FindOptions & { includeReferences?: readonly unknown[] },
    ) => {
      // The builder form checks its collection ID at once; the direct form rejects.
      if (query == null) return new ItemsQuery({ api, transport, collectionId: collectionIdOf(collectionId) });
      return queryItems(transport, collectionId, query, options);
    }) as ItemsApi['query'],
    filter: () => new Filter(),
    distinct: (collectionId: string, field: string, options?: DistinctRequest) =>
      distinctValues(transport, collectionId, field, options),
    aggregate: <T extends object>(collectionId: string) =>
      new Aggregate({ transport, collectionId: collectionIdOf(collectionId) }) as unknown as AggregateBuilder<T>,
    // The builders are written for any item; the caller's item type only narrows their signatures.
    patch: <T extends object>(collectionId: string, itemId: string) =>
      new Patch(
        patchItem(transport, collectionIdOf(collectionId), requireString(itemId, 'dataItemId')),
      ) as unknown as PatchBuilder<T>,
    // Written for any item: a registered collection's reference field only narrows the result's type.
    queryReferenced: withCollectionId(
      async (collectionId, itemId: ItemRef, field: string, options?: QueryReferencedOptions) =>
        (await loadReferenceMethods()).queryReferenced(transport, collectionId, itemId, field, options),
    ) as ItemsApi['queryReferenced'],
    queryReferencedItems: withCollectionId(
      async (
        collectionId,
        referringItem: ItemRef | readonly ItemRef[],
        field: string,
        options?: QueryReferencedItemsOptions,
      ) => (await loadReferenceMethods()).queryReferencedItems(transport, collectionId, referringItem, field, options),
    ) as ItemsApi['queryReferencedItems'],
    insertReference: withCollectionId(
      async (collectionId, field: string, left: ItemRef, right: ItemRef | readonly ItemRef[], options?: CallOptions) =>
        (await loadReferenceMethods()).insertReference(transport, collectionId, field, left, right, options),
    ),
    removeReference: withCollectionId(
      async (collectionId, field: string, left: ItemRef, right: ItemRef | readonly ItemRef[], options?: CallOptions) =>
        (await loadReferenceMethods()).removeReference(transport, collectionId, field, left, right, options),
    ),
    bulkInsert: withCollectionId(bulkWrite(transport, bulkInsertDataItems, 'INSERT')),
    bulkUpdate: withCollectionId(bulkWrite(transport, bulkUpdateDataItems, 'UPDATE')),
    bulkSave: withCollectionId(bulkWrite(transport, bulkSaveDataItems)),
    bulkRemove: withCollectionId(bulkWrite(transport, bulkRemoveDataItems, 'DELETE')),
    bulkPatch: ((
      collectionId: unknown,
      itemIds: readonly string[],
      modifications?: readonly FieldModification[],
      options?: BulkPatchOptions,
    ) => {
      // The builder form (no modifications) checks its collection ID at once; the direct form rejects.
      if (modifications === undefined) {
        const id = collectionIdOf(collectionId);
        return new Patch(async (wireModifications, runOptions) =>
          (await loadBulkWrites()).patchItems(transport, id, itemIds, wireModifications, runOptions),
        );
      }
      const direct = withCollectionId(async (id) =>
        (await loadBulkWrites()).bulkPatch(transport, id, itemIds, modifications, options),
      );
      return direct(collectionId);
    }) as ItemsApi['bulkPatch'],
  };
  return api;
}

/** `method` with its first argument (the collection ID) checked first; a bad one rejects. */
const withCollectionId =
  <Rest extends unknown[], Result>(method: (collectionId: string, ...rest: Rest) => Promise<Result>) =>
  async (collectionId: unknown, ...rest: Rest): Promise<Result> =>
    method(collectionIdOf(collectionId), ...rest);

/** `items.count(collectionId, options)`: the number of items matching `options.filter` (all items without one). */
async function countItems(
  transport: Transport,
  collectionId: unknown,
  options?: { filter?: FilterLike } & CountOptions,
): Promise<number> {
  const request = { dataCollectionId: collectionIdOf(collectionId), filter: optionalFilter(options?.filter) };
  return ((await sendPublic(transport, count, request, options)) as number | undefined) ?? 0;
}

/** `items.query(collectionId, query, options)`, the direct form: one page of items and its paging metadata. */
async function queryItems(
  transport: Transport,
  collectionId: unknown,
  query: unknown,
  options?: FindOptions & { includeReferences?: readonly unknown[] },
): Promise<{ items: unknown[]; pagingMetadata: unknown }> {
  const dataCollectionId = collectionIdOf(collectionId);
  const { filter, ...rest } = optionsObject(query, 'query', 'items.query');
  const request = {
    dataCollectionId,
    query: { ...rest, filter: optionalFilter(filter) },
    includeReferences: includedReferences(options?.includeReferences),
  };
  const response = (await sendPublic(transport, queryDataItems, request, options)) as {
    dataItems?: unknown[];
    pagingMetadata?: unknown;
  };
  return { items: response.dataItems ?? [], pagingMetadata: response.pagingMetadata };
}

/** `items.distinct(collectionId, field, options)`: the distinct values of a field among the items matching `options.filter`, paged by `options.paging`. */
async function distinctValues(
  transport: Transport,
  collectionId: unknown,
  field: unknown,
  options?: DistinctRequest,
): Promise<DistinctResult<unknown>> {
  const base = { dataCollectionId: collectionIdOf(collectionId), fieldName: requireString(field, 'fieldName') };
  return fetchPages(
    {
      transport,
      operation: queryDistinctValues,
      base,
      rest: { filter: optionalFilter(options?.filter) },
      entries: (response) => response.distinctValues as unknown[] | undefined,
      itemsAlsoAs: 'values',
      options,
    },
    { limit: limitOf(options?.paging?.limit), skip: skipOf(options?.paging?.offset ?? 0) },
  ) as Promise<DistinctResult<unknown>>;
}
