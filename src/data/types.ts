/**
 * Public types of the item builders and results (types only: nothing here reaches the bundle).
 * Builders are typed by the item type the caller supplies (`items.query<Movie>('Movies')`), so
 * field names autocomplete and values are checked against the field's type.
 */
import type * as M from '../../generated/models.js';
import type { CallOptions, Item } from '../types.js';

/**
 * The registry of a site's collections: collection ID → item type. Empty here; the file that
 * `sitekit-sdk types` writes adds to it (module augmentation), and from then on the items methods
 * are typed by the collection ID alone: `client.items.query('Movies')` is a query of `Movie`, with
 * no generic written. While it is empty, every method behaves as it always has (any collection
 * ID, untyped items unless a type is given).
 *
 * @example
 * ```ts
 * declare module 'sitekit-sdk' {
 *   interface SiteCollections {
 *     Movies: Movie;
 *   }
 * }
 * ```
 */
export interface SiteCollections {}

/** Whether {@link SiteCollections} is empty: then every items method behaves as before types were generated. */
type NothingRegistered = [keyof SiteCollections] extends [never] ? true : false;

/** A collection ID of {@link SiteCollections} (`never` while nothing is registered). */
export type RegisteredCollectionId = keyof SiteCollections & string;

/** The item type of registered collection `C` (the untyped `Item` for any other). */
export type CollectionItem<C> = C extends keyof SiteCollections ? SiteCollections[C] : Item;

/**
 * The item type of a call that names no collection of {@link SiteCollections} and gives no type
 * argument: `Item` (untyped) while nothing is registered; `never` once collections are, so that
 * the call's collection ID must be a registered one (see {@link TypedCollectionId}).
 */
export type DefaultItem = NothingRegistered extends true ? Item : never;

/**
 * The collection ID of a call typed by an item type `T` (`client.items.get<Movie>('Movies', id)`):
 * any string. Once collections are registered, and `T` is `never` (no type argument), it is a
 * sentence no real ID matches, which makes an ID missing from {@link SiteCollections} a compile
 * error rather than a silently untyped call; the sentence is what the error shows at the call
 * (`'"Moviez"' is not assignable to '"not a collection of SiteCollections: ..."'`), where `never`
 * said nothing. Generic code that passes its own type parameter on (`query<T>(id)`) cannot know
 * which, and says so: `client.items.query<T>(id as TypedCollectionId<T>)`.
 */
export type TypedCollectionId<T> = NothingRegistered extends true
  ? string
  : [T] extends [never]
    ? UnknownCollectionId
    : string;

/** The sentence an unknown collection ID is compared with, so that the error at the call says what to do. */
export type UnknownCollectionId =
  'not a collection of SiteCollections: run `sitekit-sdk types` again, or give its item type (query<MyItem>(id))';

/**
 * The collection ID of a method that writes an item (`insert`, `save`, `update`): with no item type
 * given once collections are registered (`T` is `never`), a registered ID `C`, else the sentence
 * of {@link TypedCollectionId}; with one, or while nothing is registered, any string. One signature, not an overload per case: TypeScript 7 reports only the
 * last overload's error, so a wrong field in a registered collection's item would be reported as
 * its ID not being one of the other overload's.
 */
export type WriteCollectionId<T, C extends string> = NothingRegistered extends true
  ? string
  : [T] extends [never]
    ? C extends RegisteredCollectionId
      ? C
      : UnknownCollectionId
    : string;

/**
 * The item type a write is checked against (see {@link WriteCollectionId}): collection `C`'s
 * registered type when no item type is given, else `T` (inferred from the item while nothing is
 * registered).
 */
export type WrittenItem<T, C> = NothingRegistered extends true
  ? InferableItem<T>
  : [T] extends [never]
    ? CollectionItem<C>
    : InferableItem<T>;

/** The item type a write resolves with (see {@link WrittenItem}). */
export type WriteResult<T, C> = NothingRegistered extends true ? T : [T] extends [never] ? CollectionItem<C> : T;

/**
 * The item argument of a call typed by an item type `T`: `T` is inferred from the item while
 * nothing is registered (`insert('Movies', {title: 'Jaws'})`), and only given explicitly once
 * collections are (an unknown collection ID is then an error, not a type inferred from the item).
 */
export type InferableItem<T> = NothingRegistered extends true ? T : NoInfer<T>;

/** The system fields every stored item has. */
export interface SystemFields {
  _id: string;
  _createdDate?: Date;
  _updatedDate?: Date;
  _owner?: string;
}

/** A stored item of type `T`: its own fields plus the system fields. */
export type DataItemOf<T> = T & SystemFields;

/** An item as the caller writes it: its own fields, system fields optional. */
export type ItemInput<T> = T & Partial<SystemFields>;

/** A field name of `T` (autocompleted), or a dotted path into a nested field (not checked). */
export type FieldPath<T> = (keyof T & string) | `${string}.${string}`;

/**
 * A field name of `T` whose values are of type `V` (or untyped: `unknown`, `any`, or any field of
 * an untyped item), or a dotted path (not checked): the fields an operator that only makes sense on
 * text or numbers takes, so that `contains('year', '19')` or `sum('title')` is a compile error.
 */
export type FieldPathOfType<T, V> =
  | { [K in keyof T & string]-?: unknown extends T[K] ? K : NonNullable<T[K]> extends V ? K : never }[keyof T & string]
  | `${string}.${string}`;

/** The type of field `K` of `T`; `unknown` for dotted paths and untyped items. */
export type FieldValue<T, K> = K extends keyof T ? T[K] : unknown;

/**
 * The item type a reference field's value `V` refers to: a generated reference field is the
 * referenced item's ID or the item itself (`string | Movie`, `(string | Movie)[]`), so the item is
 * what is left without the ID; `Item` (untyped) for a field that names no item type.
 */
export type ReferencedItem<V> = unknown extends V
  ? Item
  : [Extract<ElementOf<NonNullable<V>>, object>] extends [never]
    ? Item
    : Extract<ElementOf<NonNullable<V>>, object>;

/** The element type of an array field (the type itself for other fields). */
export type ElementOf<V> = V extends readonly (infer E)[] ? E : V;

/** A filter object in the service's query language, e.g. `{year: {$gt: 1970}}`. */
export type FilterObject = Record<string, unknown>;

/** A filter: a builder or query (anything with `toFilter()`), or a plain filter object. */
export type FilterLike = { toFilter(): FilterObject } | FilterObject;

/**
 * The filter operators, shared by item queries, `items.filter()` and member queries. Every
 * method returns a new builder; the one it is called on never changes. Conditions are combined
 * with AND.
 */
export interface FilterOperators<T, Self> {
  /** Field equals value (`{field: value}`). */
  eq<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Field does not equal value (`$ne`). */
  ne<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Field is greater than value (`$gt`). */
  gt<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Field is greater than or equal to value (`$gte`). */
  ge<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Alias of {@link ge}. */
  gte<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Field is less than value (`$lt`). */
  lt<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Field is less than or equal to value (`$lte`). */
  le<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** Alias of {@link le}. */
  lte<K extends FieldPath<T>>(field: K, value: FieldValue<T, K>): Self;
  /** `from <= field < to` (`{$gte: from, $lt: to}`); both bounds are required. */
  between<K extends FieldPath<T>>(field: K, from: FieldValue<T, K>, to: FieldValue<T, K>): Self;
  /** Text field contains `text` (`$contains`). */
  contains(field: FieldPathOfType<T, string>, text: string): Self;
  /** Text field starts with `text` (`$startsWith`). */
  startsWith(field: FieldPathOfType<T, string>, text: string): Self;
  /** Text field ends with `text` (`$endsWith`). */
  endsWith(field: FieldPathOfType<T, string>, text: string): Self;
  /** Field (or array field) holds at least one of the values (`$hasSome`); at least one value. */
  hasSome<K extends FieldPath<T>>(field: K, values: readonly ElementOf<FieldValue<T, K>>[]): Self;
  hasSome<K extends FieldPath<T>>(field: K, ...values: ElementOf<FieldValue<T, K>>[]): Self;
  /** Array field holds all of the values (`$hasAll`); at least one value. */
  hasAll<K extends FieldPath<T>>(field: K, values: readonly ElementOf<FieldValue<T, K>>[]): Self;
  hasAll<K extends FieldPath<T>>(field: K, ...values: ElementOf<FieldValue<T, K>>[]): Self;
  /** Field equals one of the values (`$in`). */
  in<K extends FieldPath<T>>(field: K, values: readonly FieldValue<T, K>[]): Self;
  in<K extends FieldPath<T>>(field: K, ...values: FieldValue<T, K>[]): Self;
  /** Field is present (`true`) or absent (`false`) (`$exists`). */
  exists(field: FieldPath<T>, value: boolean): Self;
  /** Field has no value (`{$exists: false}`). */
  isEmpty(field: FieldPath<T>): Self;
  /** Field has a value (`{$exists: true}`). */
  isNotEmpty(field: FieldPath<T>): Self;
  /** This filter AND every given one. */
  and(...filters: FilterLike[]): Self;
  /** This filter OR any given one (`$or`). */
  or(...filters: FilterLike[]): Self;
  /** This filter AND NOT the given ones (`$not`). */
  not(...filters: FilterLike[]): Self;
  /** The filter object built so far (`{}` for none), in the public form. */
  toFilter(): FilterObject;
}

/** Sorting and offset paging of a builder; each method returns a new builder. */
export interface PagingOperators<T, Self> {
  /** Sorts by the fields, ascending, after any earlier sort. */
  ascending(...fields: FieldPath<T>[]): Self;
  /** Sorts by the fields, descending, after any earlier sort. */
  descending(...fields: FieldPath<T>[]): Self;
  /** Page size: a positive integer (default 50). */
  limit(limit: number): Self;
  /** Number of results to skip: a non-negative integer (default 0). */
  skip(skip: number): Self;
}

/** A standalone filter (`items.filter()`), usable in `and/or/not`, aggregations, counts and member queries. */
export interface FilterBuilder<T = Item> extends FilterOperators<DataItemOf<T>, FilterBuilder<T>> {}

/**
 * One page of results, with the paging arithmetic and navigation of the official result object.
 * Iterable over this page's items; `all()` iterates every item of this and the following pages.
 */
export interface PagedResult<T> extends Iterable<T> {
  /** The items of this page. */
  readonly items: T[];
  /** Number of items in this page. */
  readonly length: number;
  /** Total number of matching items; `undefined` when the service did not count (or there were too many to count). */
  readonly totalCount: number | undefined;
  /** The page size: the limit, or 50. */
  readonly pageSize: number;
  /** Zero-based index of this page. */
  readonly currentPage: number;
  /** Number of pages (rounded up); `undefined` when `totalCount` is. */
  readonly totalPages: number | undefined;
  /** The service's paging metadata of this page (`total`, `hasNext`, `cursors`...), as it sent it. */
  readonly pagingMetadata: M.PagingMetadata;
  /** Whether there is a page after this one. */
  hasNext(): boolean;
  /** Whether there is a page before this one. */
  hasPrev(): boolean;
  /** Fetches the next page (a cursor page when the service returned a cursor); RequestError when there is none. */
  next(): Promise<PagedResult<T>>;
  /** Fetches the previous page; RequestError when there is none. */
  prev(): Promise<PagedResult<T>>;
  /**
   * Iterates every item of this page and the following ones, fetching pages as needed; stops after
   * the last page. An abort of the original call's `signal` rejects with `AbortedError`.
   *
   * @example
   * ```ts
   * for await (const movie of (await client.items.query('Movies').find()).all()) console.log(movie.title);
   * ```
   */
  all(): AsyncIterableIterator<T>;
}

/**
 * The distinct values of a field (`items.distinct`): a paged result whose `values` are its items,
 * as the official result names them, with the service's `pagingMetadata`.
 */
export interface DistinctResult<T> extends PagedResult<T> {
  /** The distinct values of this page (the official name of `items`). */
  readonly values: T[];
  next(): Promise<DistinctResult<T>>;
  prev(): Promise<DistinctResult<T>>;
}

/** Options of `find()` and `all()`: the read options of the query request, and the call options. */
export type FindOptions = Omit<M.QueryDataItemsRequest, 'dataCollectionId' | 'query' | 'includeReferences'> &
  CallOptions;

/** The options of `find()` that are part of its request: `find`'s options without `signal` and `timeoutMs`. */
export type FindRequestOptions = Omit<FindOptions, keyof CallOptions>;

/**
 * What a query builder's `find()` sends for its first page, as data, without sending it (the
 * builder's `toRequest()`). The same query gives a deep-equal value, however its builder was
 * chained: a cache key for the query (sitekit/react's `queryOptions(builder)` uses it so).
 */
export interface QueryRequest {
  /** The client namespace the query reads: `items` or `members`. */
  readonly namespace: 'items' | 'members';
  /** The collection an item query reads; absent for member queries. */
  readonly collectionId?: string;
  /**
   * The request body of the first page in the wire form, as the transport encodes it in JSON (a
   * date the wire keeps as a date, in a member filter, becomes an ISO string then).
   */
  readonly payload: Record<string, unknown>;
  /** Whether the client is elevated (an API-key client reads other data than a visitor's). */
  readonly elevated: boolean;
}

/** Options of `count()`. */
export type CountOptions = Omit<M.CountDataItemsRequest, 'dataCollectionId' | 'filter'> & CallOptions;

/** Options of `distinct()` on a query (filter, order and paging come from the query). */
export type DistinctOptions = Pick<M.QueryDistinctValuesRequest, 'returnTotalCount' | 'consistentRead' | 'language'> &
  CallOptions;

/** An immutable item query: filter operators, sort, paging, projection, and the terminals. */
export interface ItemsQueryBuilder<T = Item>
  extends FilterOperators<DataItemOf<T>, ItemsQueryBuilder<T>>,
    PagingOperators<DataItemOf<T>, ItemsQueryBuilder<T>> {
  /** Returns only these fields (`query.fields`). */
  fields(...fields: FieldPath<DataItemOf<T>>[]): ItemsQueryBuilder<T>;
  /**
   * Returns the referenced items of these reference fields in full (`includeReferences`), after
   * those of earlier calls; a number last is the most items per item of each multi-reference field
   * (`include('actors', 2)`; the service's default is 50).
   */
  include(...fieldsAndLimit: FieldPath<T>[] | [...fields: FieldPath<T>[], limit: number]): ItemsQueryBuilder<T>;
  /** Runs the query: one page of items. */
  find(options?: FindOptions): Promise<PagedResult<DataItemOf<T>>>;
  /**
   * The request `find(options)` would send for its first page, without sending it.
   *
   * @example
   * ```ts
   * client.items.query('Movies').eq('year', 1999).toRequest().payload;
   * // { dataCollectionId: 'Movies', query: { filter: { year: 1999 } } }
   * ```
   */
  toRequest(options?: FindRequestOptions): QueryRequest;
  /** Every matching item, page after page. */
  all(options?: FindOptions): AsyncIterableIterator<DataItemOf<T>>;
  /** Counts the items that match the filter. */
  count(options?: CountOptions): Promise<number>;
  /** The distinct values of a field among the matching items (paged by the query's limit/skip). */
  distinct<K extends FieldPath<DataItemOf<T>>>(
    field: K,
    options?: DistinctOptions,
  ): Promise<PagedResult<FieldValue<DataItemOf<T>, K>>>;
}

/** The request of the direct form `items.query(collectionId, query)`. */
export type ItemsQueryRequest = Omit<M.DataItemQuery, 'filter' | 'sort' | 'fields'> & {
  filter?: FilterLike;
  sort?: readonly M.Sorting[];
  fields?: readonly string[];
};

/** The answer of the direct form `items.query(collectionId, query)`. */
export interface ItemsQueryResponse<T> {
  items: DataItemOf<T>[];
  pagingMetadata?: M.PagingMetadata;
}

/** Options of the direct `items.distinct(collectionId, field, options)`. */
export type DistinctRequest = Omit<M.QueryDistinctValuesRequest, 'dataCollectionId' | 'fieldName' | 'filter'> & {
  filter?: FilterLike;
} & CallOptions;

/** One row of an aggregation: the grouping fields, the computed fields, and `_id` of its group. */
export interface AggregateRow {
  /** The group: the grouping field's value, or an object of the values when grouped by several fields. */
  _id?: unknown;
  [field: string]: unknown;
}

/** Options of `aggregate(...).run()`. */
export type AggregateOptions = Pick<M.AggregateDataItemsRequest, 'returnTotalCount' | 'consistentRead' | 'language'> &
  CallOptions;

/**
 * The fields grouping adds to a row: each grouping field with its value, and `_id`, the group:
 * the value of the one grouping field, or an object of the values when grouped by several.
 */
export type GroupedFields<T, Fields extends readonly string[]> = { [F in Fields[number]]: FieldValue<T, F> } & {
  _id: Fields extends readonly [infer Only] ? FieldValue<T, Only> : { [F in Fields[number]]: FieldValue<T, F> };
};

/** A computed field of a row: `Name` holding `Value`. */
export type ResultField<Name extends string, Value> = { [R in Name]: Value };

/**
 * An immutable aggregation. Result field names default to the official ones: `<field>Sum`,
 * `<field>Avg`, `<field>Min`, `<field>Max` and `count`. The rows are typed as the aggregation is
 * built: `group('year').count()` gives rows with `_id: number`, `year: number` and `count: number`
 * (for `aggregate<Movie>`), still open to any other field.
 */
export interface AggregateBuilder<T = Item, Row extends AggregateRow = AggregateRow>
  extends PagingOperators<Row, AggregateBuilder<T, Row>> {
  /** Filters the items before grouping (`initialFilter`); repeated calls are combined with AND. */
  filter(filter: FilterLike): AggregateBuilder<T, Row>;
  /** Groups by these fields; call it once. */
  group<Fields extends FieldPath<DataItemOf<T>>[]>(
    ...fields: Fields
  ): AggregateBuilder<T, Row & GroupedFields<DataItemOf<T>, Fields>>;
  /** Sum of a field per group. */
  sum<K extends FieldPathOfType<DataItemOf<T>, number>, Name extends string = `${K}Sum`>(
    field: K,
    resultFieldName?: Name,
  ): AggregateBuilder<T, Row & ResultField<Name, number>>;
  /** Average of a field per group. */
  avg<K extends FieldPathOfType<DataItemOf<T>, number>, Name extends string = `${K}Avg`>(
    field: K,
    resultFieldName?: Name,
  ): AggregateBuilder<T, Row & ResultField<Name, number>>;
  /** Smallest value of a field per group. */
  min<K extends FieldPath<DataItemOf<T>>, Name extends string = `${K}Min`>(
    field: K,
    resultFieldName?: Name,
  ): AggregateBuilder<T, Row & ResultField<Name, FieldValue<DataItemOf<T>, K>>>;
  /** Largest value of a field per group. */
  max<K extends FieldPath<DataItemOf<T>>, Name extends string = `${K}Max`>(
    field: K,
    resultFieldName?: Name,
  ): AggregateBuilder<T, Row & ResultField<Name, FieldValue<DataItemOf<T>, K>>>;
  /** Number of items per group, in the result field `count`. */
  count(): AggregateBuilder<T, Row & ResultField<'count', number>>;
  /** Filters the groups (`finalFilter`); repeated calls are combined with AND. */
  having(filter: FilterLike): AggregateBuilder<T, Row>;
  /** Runs the aggregation: one page of rows. */
  run(options?: AggregateOptions): Promise<PagedResult<Row>>;
}

/** Options of `patch(...).run()`: a `condition` filter the item must match, and the call options. */
export type PatchOptions = Omit<M.PatchDataItemRequest, 'dataCollectionId' | 'patch'> & CallOptions;

/**
 * The field modifications of a patch builder, each method returning a new builder (`Self`) with one
 * more modification; `run()` applies them in order.
 */
export interface FieldModifications<T, Self> {
  /** Sets a field to a value. */
  setField<K extends FieldPath<DataItemOf<T>>>(field: K, value: FieldValue<DataItemOf<T>, K>): Self;
  /** Adds a number to a number field (negative to subtract). */
  incrementField(field: FieldPathOfType<DataItemOf<T>, number>, by: number): Self;
  /** Appends a value to an array field. */
  appendToArray<K extends FieldPath<DataItemOf<T>>>(field: K, value: ElementOf<FieldValue<DataItemOf<T>, K>>): Self;
  /** Removes every occurrence of a value from an array field. */
  removeFromArray<K extends FieldPath<DataItemOf<T>>>(field: K, value: ElementOf<FieldValue<DataItemOf<T>, K>>): Self;
  /** Removes a field. */
  removeField(field: FieldPath<DataItemOf<T>>): Self;
}

/** An immutable patch of one item: field modifications applied in order by `run()`. */
export interface PatchBuilder<T = Item> extends FieldModifications<T, PatchBuilder<T>> {
  /** Applies the modifications (at least one); resolves with the patched item. */
  run(options?: PatchOptions): Promise<DataItemOf<T>>;
}

/** An immutable patch of several items (`items.bulkPatch(collectionId, itemIds)`): the same modifications applied to each. */
export interface BulkPatchBuilder<T = Item> extends FieldModifications<T, BulkPatchBuilder<T>> {
  /** Applies the modifications (at least one) to each item, in one request; a patched item counts as updated. */
  run(options?: BulkPatchOptions): Promise<BulkResult>;
}

/** An item reference argument: an item ID, or an item with `_id`. */
export type ItemRef = string | { _id: string };

/** Options of `queryReferenced`. */
export interface QueryReferencedOptions extends CallOptions {
  /** Page size (default 50). */
  limit?: number;
  /** Number of referenced items to skip. */
  skip?: number;
  /** Order of the referenced items. */
  order?: M.SortOrder;
  /** Whether to count all referenced items (`totalCount`). */
  returnTotalCount?: boolean;
  /** Fields of the referenced items to return. */
  fields?: string[];
  /** Whether to read from the primary database. */
  consistentRead?: boolean;
  /** Language of translatable fields. */
  language?: string;
}

/** Options of `queryReferencedItems`: paging (`paging` or `cursorPaging`), order, fields, and the read options. */
export type QueryReferencedItemsOptions = Omit<
  M.QueryReferencedDataItemsRequest,
  'dataCollectionId' | 'referringItemIds' | 'referringItemId' | 'referringItemFieldName'
> &
  CallOptions;

/** A reference that did not resolve to an item: the item is gone, or the caller may not read it. */
export interface UnresolvedReference {
  /** ID of the referenced item. */
  referencedItemId?: string;
  /** Whether the item exists but the caller may not read it. */
  unauthorized: boolean;
}

/** One result of `queryReferencedItems`: the referenced item, or the reference that did not resolve. */
export interface ReferencedResult<T> {
  /** ID of the referring item this result belongs to. */
  referringItemId?: string;
  /** The referenced item, when the reference resolved. */
  item?: T;
  /** The reference, when it did not resolve. */
  unresolvedReference?: UnresolvedReference;
}

/** One page of `queryReferencedItems`, in the official shape. */
export interface ReferencedItemsPage<T> {
  results: ReferencedResult<T>[];
  pagingMetadata: M.PagingMetadata;
}

/** One field modification of `bulkPatch`, as the official `FieldModification` takes it. */
export type FieldModification =
  | {
      fieldPath: string;
      action: 'SET_FIELD' | 'INCREMENT_FIELD' | 'APPEND_TO_ARRAY' | 'REMOVE_FROM_ARRAY';
      value: unknown;
    }
  | { fieldPath: string; action: 'REMOVE_FIELD' };

/** Options of `bulkPatch`. */
export type BulkPatchOptions = Omit<M.BulkPatchDataItemsRequest, 'dataCollectionId' | 'patches'> & CallOptions;

/** One failed entry of a bulk operation. */
export interface BulkError {
  /** Position of the entry in the request. */
  index?: number;
  /** The service's error code, e.g. `WDE0074`. */
  code: string;
  /** What went wrong. */
  message: string;
  /** The entry as it was given (item or item ID). */
  item?: unknown;
}

/** The result of `bulkInsert/bulkUpdate/bulkSave/bulkRemove`, in the official shape. */
export interface BulkResult {
  inserted: number;
  updated: number;
  removed: number;
  /** Entries that succeeded without being inserted, updated or removed. */
  skipped: number;
  errors: BulkError[];
  insertedItemIds: string[];
  updatedItemIds: string[];
  removedItemIds: string[];
}

/** Options of the bulk item writes. */
export type BulkOptions = Omit<M.BulkInsertDataItemsRequest, 'dataCollectionId' | 'dataItems'> & CallOptions;
