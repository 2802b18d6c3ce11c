/**
 * The one filter language shared by every builder (item queries, aggregations, member queries,
 * `items.filter()`): operator methods that grow an immutable filter tree, and the normalisation of
 * that tree into the service's filter object, both exactly as the official query builder does them
 * (its output is the wire format: `reference/wire.md`, "Filter composition"). Conditions stay in
 * the public form (`Date` values); the namespace that sends them converts them to the wire form.
 */
import { invalid, isRecord, requireString } from '../input.js';
import type { FilterBuilder, FilterLike, FilterObject } from './types.js';

/** Operator keys of the query language start with `$` (`$or`, `$not`, `$gt`...); other keys name fields. */
const isOperatorKey = (key: string): boolean => key.startsWith('$');

/**
 * A filter as the builder grows it, before normalisation: the official builder's tree. Each
 * condition goes into a `$and` list; `or`, `and` and `not` wrap whole trees. {@link normalisedFilter}
 * turns it into what is sent.
 */
export type FilterTree = FilterObject;

/** Where a standalone filter (`items.filter()`) starts: the empty conjunction, which `or` leaves out. */
export const EMPTY_CONJUNCTION: FilterTree = { $and: [] };

/**
 * Where the query builders (`items.query()`, `members.queryMembers()`) start, as the official ones
 * do: the filter `{}`, which stays as an operand of `or`, `and` and `not` (`q().or(b)` →
 * `{$or: [{}, b]}`, whose `{}` matches every item).
 */
export const QUERY_START: FilterTree = {};

/** The `$and` list of a tree, when it has one. */
const andList = (tree: FilterTree): FilterObject[] | undefined =>
  Array.isArray(tree.$and) ? (tree.$and as FilterObject[]) : undefined;

/** The tree with one more condition: appended to its `$and` list, or the tree and the condition in a new one. */
export function withCondition(tree: FilterTree, condition: FilterObject): FilterTree {
  const list = andList(tree);
  if (list) return { ...tree, $and: [...list, condition] };
  return Object.keys(tree).length === 0 ? { $and: [condition] } : { $and: [tree, condition] };
}

/** The tree itself as the first operand of `or` and `and`: none for the empty conjunction (`{$and: []}`). */
const leadingOperand = (tree: FilterTree): FilterTree[] => (andList(tree)?.length === 0 ? [] : [tree]);

/** `tree.or(other)`: `{$and: [{$or: [tree, other]}]}` (tree left out when it is the empty conjunction). */
export const orTrees = (tree: FilterTree, other: FilterTree): FilterTree => ({
  $and: [{ $or: [...leadingOperand(tree), other] }],
});

/** `tree.and(other)`: `{$and: [tree, other]}` (tree left out when it is the empty conjunction). */
export const andTrees = (tree: FilterTree, other: FilterTree): FilterTree => ({
  $and: [...leadingOperand(tree), other],
});

/** `tree.not(other)`: the tree's `$and` list (or the tree) followed by `{$not: [other]}` — `$not` takes an array of one. */
export const notTrees = (tree: FilterTree, other: FilterTree): FilterTree => ({
  $and: [...(andList(tree) ?? [tree]), { $not: [other] }],
});

/** An operator object: every key is an operator (`{$or: [...]}`, `{$not: [...]}`); `{}` is not one. */
const isOperatorObject = (node: FilterObject): boolean => {
  const keys = Object.keys(node);
  return keys.length > 0 && keys.every(isOperatorKey);
};

/** A plain object (not an array, a `Date` or another class instance): the nodes normalisation looks into. */
const isPlainNode = (value: unknown): value is FilterObject =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** `$and` of one operand → that operand. */
function unaryConjunction(node: FilterObject): FilterObject | undefined {
  const list = andList(node);
  return list?.length === 1 ? list[0] : undefined;
}

/** `$and` of none → `{}`. */
function emptyConjunction(node: FilterObject): FilterObject | undefined {
  return andList(node)?.length === 0 ? {} : undefined;
}

/**
 * `$and` holding two or more plain objects whose fields are all distinct: the plain objects merge
 * into one, placed first, followed by the operator objects in their order.
 */
function mergedPlainObjects(node: FilterObject): FilterObject | undefined {
  const list = andList(node);
  if (!list) return undefined;
  const plain = list.filter((operand) => !isOperatorObject(operand));
  if (plain.length <= 1) return undefined;
  const fieldNames = plain.flatMap((operand) => Object.keys(operand));
  if (new Set(fieldNames).size !== fieldNames.length) return undefined;
  return { $and: [Object.assign({}, ...plain), ...list.filter(isOperatorObject)] };
}

/** A `$and` (or `$or`) whose operands include the same operator: their lists spliced in. */
function flattened(operator: '$and' | '$or'): (node: FilterObject) => FilterObject | undefined {
  return (node) => {
    const list = node[operator];
    if (!Array.isArray(list) || !list.some((operand) => isPlainNode(operand) && operand[operator])) return undefined;
    return {
      [operator]: list.flatMap((operand) => {
        const nested = isPlainNode(operand) ? operand[operator] : undefined;
        return nested ? (nested as FilterObject[]) : [operand];
      }),
    };
  };
}

/** The rewrites of normalisation, tried in this order (the official client's order: it decides the result). */
const REWRITES = [unaryConjunction, emptyConjunction, mergedPlainObjects, flattened('$and'), flattened('$or')];

/** A value with its nested filters normalised (arrays element by element, plain objects key by key). */
function normalisedValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalisedValue);
  return isPlainNode(value) ? normalisedFilter(value) : value;
}

/**
 * The filter a tree stands for, normalised until nothing changes, exactly as the official
 * client's builder does it: first each value inside the object, then the first rewrite of
 * {@link REWRITES} that applies, again on its result. Never changes the tree.
 */
export function normalisedFilter(tree: FilterTree): FilterObject {
  const node = Object.fromEntries(Object.entries(tree).map(([key, value]) => [key, normalisedValue(value)]));
  for (const rewrite of REWRITES) {
    const rewritten = rewrite(node);
    if (rewritten) return normalisedFilter(rewritten);
  }
  return node;
}

/** The filter of a conjunction of filters, as the builders' `and` composes them; `{}` for none. */
export const conjunction = (filters: readonly FilterObject[]): FilterObject =>
  normalisedFilter(filters.reduce(andTrees, EMPTY_CONJUNCTION));

/** The filter object of a builder (anything with `toFilter()`) or a plain filter object; `{}` for none. */
export function filterOf(filter: unknown, field = 'filter'): FilterObject {
  if (filter == null) return {};
  if (typeof (filter as { toFilter?: unknown }).toFilter === 'function')
    return (filter as { toFilter(): FilterObject }).toFilter();
  return isRecord(filter) ? filter : invalid(field, 'a filter builder or a filter object');
}

/** The filter object of a caller's `filter` option, or `undefined` when there is none (the request leaves it out). */
export const optionalFilter = (filter: unknown): FilterObject | undefined =>
  filter == null ? undefined : filterOf(filter);

/** A filter for a request: `undefined` (so the request leaves it out) when it has no condition. */
export const requestFilter = (filter: FilterObject): FilterObject | undefined =>
  Object.keys(filter).length > 0 ? filter : undefined;

/** The values of `hasSome`, `hasAll` and `in`: one array argument, or the arguments themselves. */
const valueList = (values: readonly unknown[]): unknown[] =>
  values.length === 1 && Array.isArray(values[0]) ? [...(values[0] as unknown[])] : [...values];

/**
 * The operator methods over an immutable filter tree. Every method returns `withTree(newTree)`:
 * a new builder; this one never changes. Subclasses say what a new builder is (a filter, an item
 * query, a member query) and where it starts ({@link EMPTY_CONJUNCTION} or {@link QUERY_START}).
 */
export abstract class FilterMethods<Self> {
  constructor(
    /** The filter tree built so far (the public form: `Date` values), before normalisation. */
    protected readonly tree: FilterTree,
  ) {}

  /** The builder holding `tree` instead of this one's (and the same other state). */
  protected abstract withTree(tree: FilterTree): Self;

  /**
   * Adds `{field: {operator: value}}` (`{field: value}` for `$eq`) to the conjunction. An
   * `undefined` value becomes `null`, as in the official client: JSON would drop the condition.
   */
  protected where(field: unknown, operator: string, value: unknown): Self {
    const operand = value === undefined ? null : value;
    const name = requireString(field, 'field');
    return this.withTree(withCondition(this.tree, { [name]: operator === '$eq' ? operand : { [operator]: operand } }));
  }

  /** Field equals value (`{field: value}`). */
  eq(field: string, value: unknown): Self {
    return this.where(field, '$eq', value);
  }
  /** Field does not equal value (`$ne`). */
  ne(field: string, value: unknown): Self {
    return this.where(field, '$ne', value);
  }
  /** Field is greater than value (`$gt`). */
  gt(field: string, value: unknown): Self {
    return this.where(field, '$gt', value);
  }
  /** Field is greater than or equal to value (`$gte`); the official spelling. */
  ge(field: string, value: unknown): Self {
    return this.where(field, '$gte', value);
  }
  /** Alias of {@link ge}. */
  gte(field: string, value: unknown): Self {
    return this.ge(field, value);
  }
  /** Field is less than value (`$lt`). */
  lt(field: string, value: unknown): Self {
    return this.where(field, '$lt', value);
  }
  /** Field is less than or equal to value (`$lte`); the official spelling. */
  le(field: string, value: unknown): Self {
    return this.where(field, '$lte', value);
  }
  /** Alias of {@link le}. */
  lte(field: string, value: unknown): Self {
    return this.le(field, value);
  }
  /** `from <= field < to`: two conditions on the field, `$gte` and `$lt`; both bounds are required. */
  between(field: string, from?: unknown, to?: unknown): Self {
    if (from == null || to == null) invalid('between', 'given two bounds');
    const name = requireString(field, 'field');
    return this.withTree(withCondition(withCondition(this.tree, { [name]: { $gte: from } }), { [name]: { $lt: to } }));
  }
  /** Text field contains `text`, ignoring case (`$contains`). */
  contains(field: string, text: string): Self {
    return this.where(field, '$contains', text);
  }
  /** Text field starts with `text`, ignoring case (`$startsWith`). */
  startsWith(field: string, text: string): Self {
    return this.where(field, '$startsWith', text);
  }
  /** Text field ends with `text`, ignoring case (`$endsWith`). */
  endsWith(field: string, text: string): Self {
    return this.where(field, '$endsWith', text);
  }
  /** Field (or an element of an array field) equals one of the values (`$hasSome`); at least one value. */
  hasSome(field: string, ...values: unknown[]): Self {
    const list = valueList(values);
    return list.length > 0 ? this.where(field, '$hasSome', list) : invalid('hasSome', 'given values');
  }
  /** Array field holds every value (`$hasAll`); at least one value. */
  hasAll(field: string, ...values: unknown[]): Self {
    const list = valueList(values);
    return list.length > 0 ? this.where(field, '$hasAll', list) : invalid('hasAll', 'given values');
  }
  /** Field equals one of the values (`$in`). */
  in(field: string, ...values: unknown[]): Self {
    return this.where(field, '$in', valueList(values));
  }
  /** Field is present (`true`) or absent (`false`) (`$exists`). */
  exists(field: string, present?: unknown): Self {
    return typeof present === 'boolean' ? this.where(field, '$exists', present) : invalid('exists', 'given a boolean');
  }
  /** Field is missing or `null` (`{field: null}`). */
  isEmpty(field: string): Self {
    return this.where(field, '$eq', null);
  }
  /** Field has a value other than `null` (`{field: {$ne: null}}`). */
  isNotEmpty(field: string): Self {
    return this.where(field, '$ne', null);
  }
  /** This filter AND every given one (one `and` call per filter, as the official builder takes them). */
  and(...filters: FilterLike[]): Self {
    return this.withTree(filters.reduce((tree: FilterTree, filter) => andTrees(tree, filterOf(filter)), this.tree));
  }
  /** This filter OR any given one: `{$or: [this, ...filters]}` (this left out when it is the empty conjunction). */
  or(...filters: FilterLike[]): Self {
    return this.withTree(filters.reduce((tree: FilterTree, filter) => orTrees(tree, filterOf(filter)), this.tree));
  }
  /** This filter AND NOT the given ones (their conjunction): `{$not: [filter]}`, an array of one filter. */
  not(...filters: FilterLike[]): Self {
    const negated =
      filters.length === 1 ? filterOf(filters[0]) : conjunction(filters.map((filter) => filterOf(filter)));
    return this.withTree(notTrees(this.tree, negated));
  }
  /** The filter object built so far (`{}` for none), normalised, in the public form. */
  toFilter(): FilterObject {
    return normalisedFilter(this.tree);
  }
}

/** A standalone, immutable filter (`items.filter()`); it starts from the empty conjunction. */
export class Filter extends FilterMethods<Filter> implements FilterBuilder {
  constructor(tree: FilterTree = EMPTY_CONJUNCTION) {
    super(tree);
  }
  protected withTree(tree: FilterTree): Filter {
    return new Filter(tree);
  }
}
