/**
 * The one filter language shared by every builder (item queries, aggregations, member queries,
 * `items.filter()`): operator methods that grow an immutable filter tree, and the rules that turn the
 * tree into the service's filter object. The official client has two builders that compose filters
 * differently (the data one, which normalises and merges, and the generic one of the other APIs);
 * each of ours follows the official builder of its API exactly, since that output is the wire
 * format. Conditions stay in the public form (`Date` values); the namespace that sends them
 * converts them to the wire form.
 */
import { invalid, isRecord, requireString } from '../input.js';
import type { FilterBuilder, FilterLike, FilterObject } from './types.js';

/** Operator keys of the query language start with `$` (`$or`, `$not`, `$gt`...); other keys name fields. */
const isOperatorKey = (key: string): boolean => key.startsWith('$');

/**
 * A filter as a builder grows it, before its rules turn it into what is sent: under the data rules,
 * each condition goes into a `$and` list, `or`, `and` and `not` wrap whole trees, and
 * {@link normalisedFilter} gives the filter.
 */
export type FilterTree = FilterObject;

/** Where a standalone filter (`items.filter()`) starts: the empty conjunction, which `or` leaves out. */
export const EMPTY_CONJUNCTION: FilterTree = { $and: [] };

/**
 * Where the item query starts, as the official one does: the filter `{}`, which stays as an
 * operand of `or`, `and` and `not` under the data rules (`q().or(b)` → `{$or: [{}, b]}`, whose `{}`
 * matches every item).
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

/**
 * How a builder composes its filter: where it starts, how a condition, `and`, `or` and `not` grow
 * the tree, and what the tree sends. The official client has two builders, and ours follows each.
 */
export interface FilterRules {
  /** The tree of a builder with no condition yet. */
  readonly start: FilterTree;
  /** The tree with one more condition. */
  withCondition(tree: FilterTree, condition: FilterObject): FilterTree;
  /** `tree.and(other)`. */
  and(tree: FilterTree, other: FilterObject): FilterTree;
  /** `tree.or(other)`. */
  or(tree: FilterTree, other: FilterObject): FilterTree;
  /** `tree.not(other)`. */
  not(tree: FilterTree, other: FilterObject): FilterTree;
  /** The filter a tree sends. */
  filterOf(tree: FilterTree): FilterObject;
}

/**
 * The data builders' rules (@wix/filter-builder 1.0.251, through @wix/data; also aggregations'
 * filters): conditions into a `$and` list, normalised by {@link normalisedFilter}. The item query
 * starts from `{}`.
 */
export const DATA_QUERY_RULES: FilterRules = {
  start: QUERY_START,
  withCondition,
  and: andTrees,
  or: orTrees,
  not: notTrees,
  filterOf: normalisedFilter,
};

/** The data rules for a standalone filter (`items.filter()`), which starts from the empty conjunction. */
export const DATA_FILTER_RULES: FilterRules = { ...DATA_QUERY_RULES, start: EMPTY_CONJUNCTION };

/** No filter, or `{}`: the generic builder leaves such an operand out. */
const isEmptyFilter = (filter: FilterObject | undefined): boolean =>
  filter === undefined || Object.keys(filter).length === 0;

/** The operands of `filter` in a list of `operator`: its own list when it is `{operator: [...]}` alone, else itself. */
const operandsOf = (filter: FilterObject, operator: '$and' | '$or'): FilterObject[] => {
  const keys = Object.keys(filter);
  const list = filter[operator];
  return keys.length === 1 && Array.isArray(list) ? (list as FilterObject[]) : [filter];
};

/** `a` and `b` joined by `operator` as the generic builder does: an empty one is left out, lists are spliced, nothing merges. */
const joined = (operator: '$and' | '$or', a: FilterObject, b: FilterObject): FilterObject => {
  if (isEmptyFilter(a)) return b;
  if (isEmptyFilter(b)) return a;
  return { [operator]: [...operandsOf(a, operator), ...operandsOf(b, operator)] };
};

/** `{$not: filter}` (an object, as the generic builder sends it), the inner filter of a double negation. */
const negation = (filter: FilterObject): FilterObject => {
  const keys = Object.keys(filter);
  return keys.length === 1 && keys[0] === '$not' && typeof filter.$not === 'object' && filter.$not !== null
    ? (filter.$not as FilterObject)
    : { $not: filter };
};

/**
 * The rules of the official client's other builder, the generic query builder of the non-data
 * APIs (member queries; `queryBuilder` and `query-filter` of @wix/sdk-runtime): it starts from
 * `{}`, joins conditions in one flat `$and` without merging them, leaves empty operands out, and
 * sends the tree as it is. One difference, on purpose: the official `not()` replaces the
 * conditions before it with `{$not: other}`; ours keeps them (`{$and: [..., {$not: other}]}`),
 * as the method's name and every filter language say. A `not()` first sends the same bytes.
 */
export const GENERIC_QUERY_RULES: FilterRules = {
  start: {},
  withCondition: (tree, condition) => joined('$and', tree, condition),
  and: (tree, other) => joined('$and', tree, other),
  or: (tree, other) => joined('$or', tree, other),
  not: (tree, other) => (isEmptyFilter(other) ? tree : joined('$and', tree, negation(other))),
  filterOf: (tree) => tree,
};

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
 * query, a member query) and which {@link FilterRules} it follows.
 */
export abstract class FilterMethods<Self> {
  constructor(
    /** The filter tree built so far (the public form: `Date` values), before normalisation. */
    protected readonly tree: FilterTree,
    /** How this builder composes its filter (the official builder it follows). */
    protected readonly rules: FilterRules = DATA_FILTER_RULES,
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
    return this.withTree(
      this.rules.withCondition(this.tree, { [name]: operator === '$eq' ? operand : { [operator]: operand } }),
    );
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
    const { withCondition: add } = this.rules;
    return this.withTree(add(add(this.tree, { [name]: { $gte: from } }), { [name]: { $lt: to } }));
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
    return this.withTree(
      filters.reduce((tree: FilterTree, filter) => this.rules.and(tree, filterOf(filter)), this.tree),
    );
  }
  /** This filter OR any given one: `{$or: [this, ...filters]}` (this left out when it is the empty conjunction). */
  or(...filters: FilterLike[]): Self {
    return this.withTree(
      filters.reduce((tree: FilterTree, filter) => this.rules.or(tree, filterOf(filter)), this.tree),
    );
  }
  /** This filter AND NOT the given ones (their conjunction): `{$not: [filter]}`, an array of one filter. */
  not(...filters: FilterLike[]): Self {
    const negated =
      filters.length === 1 ? filterOf(filters[0]) : conjunction(filters.map((filter) => filterOf(filter)));
    return this.withTree(this.rules.not(this.tree, negated));
  }
  /** The filter object built so far (`{}` for none), as the official builder would send it, in the public form. */
  toFilter(): FilterObject {
    return this.rules.filterOf(this.tree);
  }
}

/** A standalone, immutable filter (`items.filter()`); it starts from the empty conjunction. */
export class Filter extends FilterMethods<Filter> implements FilterBuilder {
  constructor(tree: FilterTree = DATA_FILTER_RULES.start) {
    super(tree, DATA_FILTER_RULES);
  }
  protected withTree(tree: FilterTree): Filter {
    return new Filter(tree);
  }
}
