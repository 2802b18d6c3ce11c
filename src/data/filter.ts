/**
 * The one filter language shared by every builder (item queries, aggregations, member queries,
 * `items.filter()`): operator methods that add a condition to an immutable conjunction, and the
 * normalisation of that conjunction into the service's filter object, exactly as the official
 * query builder does it. Conditions stay in the public form (`Date` values); the namespace that
 * sends them converts them to the wire form.
 */
import { invalid, isRecord, requireString } from '../input.js';
import type { FilterBuilder, FilterLike, FilterObject } from './types.js';

/** Operator keys of the query language start with `$` (`$or`, `$not`, `$gt`...); other keys name fields. */
const isOperatorKey = (key: string): boolean => key.startsWith('$');

/** A field condition names at least one field (`{year: {$gt: 1970}}`), unlike `{$or: [...]}`. */
const isFieldCondition = (condition: FilterObject): boolean =>
  Object.keys(condition).some((key) => !isOperatorKey(key));

/** The list of `{$and: [...]}` (or `$or`) when that operator is the object's only key. */
function soleOperand(condition: FilterObject, operator: '$and' | '$or'): FilterObject[] | undefined {
  const keys = Object.keys(condition);
  const operand = condition[operator];
  return keys.length === 1 && keys[0] === operator && Array.isArray(operand) ? (operand as FilterObject[]) : undefined;
}

/** The conditions with nested lists of the same `operator` spliced in, and empty conditions left out. */
function flatten(conditions: readonly FilterObject[], operator: '$and' | '$or'): FilterObject[] {
  const flat: FilterObject[] = [];
  for (const condition of conditions) {
    const nested = soleOperand(condition, operator);
    if (nested) flat.push(...flatten(nested, operator));
    else if (Object.keys(condition).length > 0) flat.push(condition);
  }
  return flat;
}

/**
 * The filter of a conjunction: `{}` for none, the condition itself for one. Field conditions merge
 * into one object, placed first, followed by the operator conditions in their order; when two
 * field conditions name the same field nothing merges and the result is `{$and: [...]}`. Nested
 * `$and` lists are flattened.
 */
export function conjunction(conditions: readonly FilterObject[]): FilterObject {
  const flat = flatten(conditions, '$and');
  if (flat.length <= 1) return flat[0] ?? {};
  const fieldConditions = flat.filter(isFieldCondition);
  const fieldNames = fieldConditions.flatMap((condition) => Object.keys(condition));
  if (new Set(fieldNames).size < fieldNames.length) return { $and: flat };
  const operatorConditions = flat.filter((condition) => !isFieldCondition(condition));
  const parts =
    fieldConditions.length > 0
      ? [Object.assign({}, ...fieldConditions) as FilterObject, ...operatorConditions]
      : operatorConditions;
  return parts.length === 1 ? parts[0]! : { $and: parts };
}

/** The filter of a disjunction: `{$or: [...]}` with nested `$or` lists flattened and empty filters left out. */
export function disjunction(filters: readonly FilterObject[]): FilterObject {
  const flat = flatten(filters, '$or');
  return flat.length <= 1 ? (flat[0] ?? {}) : { $or: flat };
}

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
 * The operator methods over an immutable conjunction of conditions. Every method returns
 * `withConditions(newConditions)`: a new builder; this one never changes. Subclasses say what
 * a new builder is (a filter, an item query, a member query).
 */
export abstract class FilterMethods<Self> {
  constructor(
    /** The conditions added so far, in call order (the public form). */
    protected readonly conditions: readonly FilterObject[],
  ) {}

  /** The builder holding `conditions` instead of this one's (and the same other state). */
  protected abstract withConditions(conditions: readonly FilterObject[]): Self;

  /** Adds `{field: condition}` to the conjunction. */
  protected where(field: unknown, condition: unknown): Self {
    return this.withConditions([...this.conditions, { [requireString(field, 'field')]: condition }]);
  }

  /** Field equals value (`{field: value}`). */
  eq(field: string, value: unknown): Self {
    return this.where(field, value);
  }
  /** Field does not equal value (`$ne`). */
  ne(field: string, value: unknown): Self {
    return this.where(field, { $ne: value });
  }
  /** Field is greater than value (`$gt`). */
  gt(field: string, value: unknown): Self {
    return this.where(field, { $gt: value });
  }
  /** Field is greater than or equal to value (`$gte`); the official spelling. */
  ge(field: string, value: unknown): Self {
    return this.where(field, { $gte: value });
  }
  /** Alias of {@link ge}. */
  gte(field: string, value: unknown): Self {
    return this.ge(field, value);
  }
  /** Field is less than value (`$lt`). */
  lt(field: string, value: unknown): Self {
    return this.where(field, { $lt: value });
  }
  /** Field is less than or equal to value (`$lte`); the official spelling. */
  le(field: string, value: unknown): Self {
    return this.where(field, { $lte: value });
  }
  /** Alias of {@link le}. */
  lte(field: string, value: unknown): Self {
    return this.le(field, value);
  }
  /** `from <= field < to`: two conditions on the field, `$gte` and `$lt`; both bounds are required. */
  between(field: string, from?: unknown, to?: unknown): Self {
    if (from == null || to == null) invalid('between', 'given two bounds');
    const name = requireString(field, 'field');
    return this.withConditions([...this.conditions, { [name]: { $gte: from } }, { [name]: { $lt: to } }]);
  }
  /** Text field contains `text`, ignoring case (`$contains`). */
  contains(field: string, text: string): Self {
    return this.where(field, { $contains: text });
  }
  /** Text field starts with `text`, ignoring case (`$startsWith`). */
  startsWith(field: string, text: string): Self {
    return this.where(field, { $startsWith: text });
  }
  /** Text field ends with `text`, ignoring case (`$endsWith`). */
  endsWith(field: string, text: string): Self {
    return this.where(field, { $endsWith: text });
  }
  /** Field (or an element of an array field) equals one of the values (`$hasSome`); at least one value. */
  hasSome(field: string, ...values: unknown[]): Self {
    const list = valueList(values);
    return list.length > 0 ? this.where(field, { $hasSome: list }) : invalid('hasSome', 'given values');
  }
  /** Array field holds every value (`$hasAll`); at least one value. */
  hasAll(field: string, ...values: unknown[]): Self {
    const list = valueList(values);
    return list.length > 0 ? this.where(field, { $hasAll: list }) : invalid('hasAll', 'given values');
  }
  /** Field equals one of the values (`$in`). */
  in(field: string, ...values: unknown[]): Self {
    return this.where(field, { $in: valueList(values) });
  }
  /** Field is present (`true`) or absent (`false`) (`$exists`). */
  exists(field: string, present?: unknown): Self {
    return typeof present === 'boolean'
      ? this.where(field, { $exists: present })
      : invalid('exists', 'given a boolean');
  }
  /** Field is missing or `null` (`{field: null}`). */
  isEmpty(field: string): Self {
    return this.where(field, null);
  }
  /** Field has a value other than `null` (`{field: {$ne: null}}`). */
  isNotEmpty(field: string): Self {
    return this.where(field, { $ne: null });
  }
  /** This filter AND every given one. */
  and(...filters: FilterLike[]): Self {
    return this.withConditions([...this.conditions, ...filters.map((filter) => filterOf(filter))]);
  }
  /** This filter OR any given one: `{$or: [this, ...filters]}` (this left out when empty). */
  or(...filters: FilterLike[]): Self {
    const either = disjunction([this.toFilter(), ...filters.map((filter) => filterOf(filter))]);
    return this.withConditions([either]);
  }
  /** This filter AND NOT the given ones: `{$not: [filter]}` (an array of one filter). */
  not(...filters: FilterLike[]): Self {
    return this.withConditions([
      ...this.conditions,
      { $not: [conjunction(filters.map((filter) => filterOf(filter)))] },
    ]);
  }
  /** The filter object built so far (`{}` for none), in the public form. */
  toFilter(): FilterObject {
    return conjunction(this.conditions);
  }
}

/** A standalone, immutable filter (`items.filter()`). */
export class Filter extends FilterMethods<Filter> implements FilterBuilder {
  protected withConditions(conditions: readonly FilterObject[]): Filter {
    return new Filter(conditions);
  }
}
