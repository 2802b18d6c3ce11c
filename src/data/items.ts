/**
 * The `items` namespace: the generated methods (with typed item signatures) plus the hand-written
 * builders, paged reads, bulk writes and references of the official data items API.
 */
import type * as IO from '../../generated/io.js';
import { namespaceOperations, type ItemsOperations } from '../../generated/namespaces.js';
import * as O from '../../generated/operations.js';
import type { CallOptions, Item } from '../types.js';
import type { Transport } from '../http/transport.js';
import { bindOperations } from '../invoke.js';
import { aggregate } from './aggregate.js';
import { bulk, reference, referring } from './bulk.js';
import { combine, filterBuilder, str, strs, unwrap } from './filter.js';
import { D, exec, limitOf, pages, skipOf } from './paging.js';
import { patch } from './patch.js';
import { queryBuilder } from './query.js';
import type {
  AggregateBuilder,
  BulkOptions,
  BulkResult,
  CountOptions,
  DataItemOf,
  DistinctRequest,
  FilterBuilder,
  FilterLike,
  FindOptions,
  ItemInput,
  ItemRef,
  ItemsQueryBuilder,
  ItemsQueryRequest,
  ItemsQueryResponse,
  PagedResult,
  PatchBuilder,
  QueryReferencedOptions,
} from './types.js';

type Options<R, K extends keyof R> = Omit<R, K> & CallOptions;

/**
 * Every method of `client.items`: the official data items API. Methods that take an item are
 * generic in its type (`client.items.get<Movie>('Movies', id)`); builders are typed by it too.
 */
export interface ItemsApi extends Omit<ItemsOperations, 'insert' | 'update' | 'save' | 'get' | 'remove' | 'count' | 'isReferenced' | 'replaceReferences'> {
  /** Whether `referringItem`'s reference field `field` refers to `referencedItem` (ids or items). */
  isReferenced(collectionId: string, field: string, referringItem: ItemRef, referencedItem: ItemRef, options?: Options<IO.IsReferencedRequest, 'dataCollectionId' | 'referringItemFieldName' | 'referringItemId' | 'referencedItemId'>): Promise<boolean>;
  /** Replaces every reference of `referringItem` in `field` by `referencedItems` (ids or items). */
  replaceReferences(collectionId: string, field: string, referringItem: ItemRef, referencedItems: ItemRef[], options?: CallOptions): Promise<IO.ReplaceReferencesResponse>;
  /** Adds an item to a collection (an `_id` is generated when it has none); resolves with the stored item. */
  insert<T extends object = Item>(collectionId: string, item: ItemInput<T>, options?: Options<IO.InsertRequest, 'dataCollectionId' | 'dataItem'>): Promise<DataItemOf<T>>;
  /** Replaces an existing item (it must have an `_id`); fields left out lose their values. */
  update<T extends object = Item>(collectionId: string, item: ItemInput<T>, options?: Options<IO.UpdateRequest, 'dataCollectionId' | 'dataItem'>): Promise<DataItemOf<T>>;
  /** Inserts an item, or replaces the item with the same `_id`. */
  save<T extends object = Item>(collectionId: string, item: ItemInput<T>, options?: Options<IO.SaveRequest, 'dataCollectionId' | 'dataItem'>): Promise<DataItemOf<T>>;
  /** Retrieves an item; resolves `null` when there is no such item. */
  get<T extends object = Item>(collectionId: string, itemId: string, options?: Options<IO.GetRequest, 'dataCollectionId' | 'dataItemId'>): Promise<DataItemOf<T> | null>;
  /** Removes an item; resolves with the removed item, or `null` when there was no such item. */
  remove<T extends object = Item>(collectionId: string, itemId: string, options?: Options<IO.RemoveRequest, 'dataCollectionId' | 'dataItemId'>): Promise<DataItemOf<T> | null>;
  /** Counts the items that match `filter` (a filter builder or object); all items without one. */
  count(collectionId: string, options?: { filter?: FilterLike } & CountOptions): Promise<number>;
  /**
   * Starts an immutable query builder.
   *
   * @example
   * ```ts
   * const page = await client.items.query<Movie>('Movies').ge('year', 1970).descending('year').limit(10).find();
   * for (const movie of page) console.log(movie.title);
   * ```
   */
  query<T extends object = Item>(collectionId: string): ItemsQueryBuilder<T>;
  /** Runs a query given as an object (`{filter, sort, paging | cursorPaging, fields}`): one page and its metadata. */
  query<T extends object = Item>(collectionId: string, query: ItemsQueryRequest, options?: FindOptions & { includeReferences?: string[] }): Promise<ItemsQueryResponse<T>>;
  /** A standalone filter builder, for `and/or/not`, aggregations, counts and member queries. */
  filter<T extends object = Item>(): FilterBuilder<T>;
  /** The distinct values of a field among the items matching `filter`, paged by `paging`. */
  distinct(collectionId: string, field: string, options?: DistinctRequest): Promise<PagedResult<unknown>>;
  /** Starts an immutable aggregation builder. */
  aggregate<T extends object = Item>(collectionId: string): AggregateBuilder<T>;
  /** Starts an immutable patch of one item; `run()` applies it. */
  patch<T extends object = Item>(collectionId: string, itemId: string): PatchBuilder<T>;
  /** The items a reference field of an item refers to, as a paged result. */
  queryReferenced<T extends object = Item>(collectionId: string, itemId: ItemRef, field: string, options?: QueryReferencedOptions): Promise<PagedResult<DataItemOf<T>>>;
  /** Adds references from a reference field of item `left` to one item or to several. */
  insertReference(collectionId: string, field: string, left: ItemRef, right: ItemRef | readonly ItemRef[], options?: CallOptions): Promise<void>;
  /** Removes references from a reference field of item `left` to one item or to several. */
  removeReference(collectionId: string, field: string, left: ItemRef, right: ItemRef | readonly ItemRef[], options?: CallOptions): Promise<void>;
  /** Adds several items. */
  bulkInsert<T extends object = Item>(collectionId: string, items: readonly ItemInput<T>[], options?: BulkOptions): Promise<BulkResult>;
  /** Replaces several existing items. */
  bulkUpdate<T extends object = Item>(collectionId: string, items: readonly ItemInput<T>[], options?: BulkOptions): Promise<BulkResult>;
  /** Inserts several items, replacing those whose `_id` exists. */
  bulkSave<T extends object = Item>(collectionId: string, items: readonly ItemInput<T>[], options?: BulkOptions): Promise<BulkResult>;
  /** Removes several items by ID. */
  bulkRemove(collectionId: string, itemIds: readonly string[], options?: CallOptions): Promise<BulkResult>;
}

/** The collection ID argument, checked before any request. */
const cid = (id: unknown): string => str(id, D);

/** Creates `client.items` over a transport. */
export const itemsNamespace = (t: Transport): ItemsApi => {
  const generated = bindOperations<Record<string, (...a: unknown[]) => Promise<unknown>>>(t, namespaceOperations.items);
  const api: any = {};
  for (const name in generated) api[name] = async (id: unknown, ...a: unknown[]) => generated[name]!(cid(id), ...a);
  // References take item IDs or items (`{_id}`), like insertReference and removeReference.
  const ref = (v: any, field: string) => str(v?._id ?? v, field);
  const { isReferenced, replaceReferences } = api;
  api.isReferenced = async (id: unknown, field: unknown, left: unknown, right: unknown, options?: object) =>
    isReferenced(id, field, ref(left, 'referringItemId'), ref(right, 'referencedItemId'), options);
  api.replaceReferences = async (id: unknown, field: unknown, left: unknown, rights: unknown, options?: object) =>
    replaceReferences(id, field, ref(left, 'referringItemId'), Array.isArray(rights) ? rights.map((r) => ref(r, 'referencedItemId')) : rights, options);

  /** An immutable item query over collection `id`; `count` and `distinct` go through the direct forms. */
  const itemsQuery = (id: string): ItemsQueryBuilder =>
    queryBuilder(
      (s, options) => pages(t, O.queryDataItems, { [D]: id }, { query: { filter: combine(s.c), sort: s.s[0] && s.s, fields: s.f }, includeReferences: s.i }, (r) => r.dataItems, s, options, 'query'),
      (s, set) => ({
        fields: (...f: unknown[]) => set({ f: strs(f) }),
        include: (...i: unknown[]) => set({ i: strs(i) }),
        count: (options?: object) => api.count(id, { ...options, filter: combine(s.c) }),
        distinct: (field: unknown, options?: object) =>
          api.distinct(id, field, { ...options, filter: combine(s.c), order: s.s.find((x) => x.fieldName == field)?.order, paging: { limit: s.l, offset: s.k } }),
      }),
    );

  // The promise methods below reject bad input: `exec` checks the collection ID of every request.
  return Object.assign(api, {
    count: async (id: unknown, options?: { filter?: unknown }) => (await exec(t, O.count, { [D]: id, filter: unwrap(options?.filter) }, options)) ?? 0,
    query: (id: unknown, query?: any, options?: object) =>
      query == null
        ? itemsQuery(cid(id))
        : (async () => {
            const r = await exec(t, O.queryDataItems, { [D]: id, query: { ...query, filter: unwrap(query.filter) } }, options);
            return { items: r.dataItems ?? [], pagingMetadata: r.pagingMetadata };
          })(),
    filter: () => filterBuilder(),
    distinct: async (id: unknown, field: unknown, options?: any) =>
      pages(
        t,
        O.queryDistinctValues,
        { [D]: id, fieldName: str(field) },
        { filter: unwrap(options?.filter) },
        (r) => r.distinctValues,
        { l: limitOf(options?.paging?.limit), k: skipOf(options?.paging?.offset ?? 0) },
        options,
      ),
    aggregate: (id: unknown) => aggregate(t, cid(id)),
    patch: (id: unknown, itemId: unknown) => patch(t, cid(id), str(itemId, 'dataItemId')),
    async queryReferenced(id: unknown, itemId: unknown, field: unknown, options?: any) {
      const { limit, skip = 0, ...rest } = options ?? {};
      return pages(t, O.queryReferencedDataItems, { [D]: id, ...referring(field, itemId) }, {}, (r) => r.results?.flatMap((x: any) => x.dataItem ?? []), { l: limitOf(limit), k: skipOf(skip) }, rest);
    },
    insertReference: reference(t, O.insertDataItemReference, O.bulkInsertDataItemReferences),
    removeReference: reference(t, O.removeDataItemReference, O.bulkRemoveDataItemReferences),
    bulkInsert: bulk(t, O.bulkInsertDataItems, 'INSERT'),
    bulkUpdate: bulk(t, O.bulkUpdateDataItems, 'UPDATE'),
    bulkSave: bulk(t, O.bulkSaveDataItems),
    bulkRemove: bulk(t, O.bulkRemoveDataItems, 'DELETE'),
  });
};
