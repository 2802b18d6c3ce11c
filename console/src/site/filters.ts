/** The browse page's filter rows and how they become query-builder calls. */
import type { Item, ItemsQueryBuilder } from 'sitekit-sdk';

/** The operators offered, by their builder method names. */
export const operators = [
  { name: 'eq', label: 'is' },
  { name: 'ne', label: 'is not' },
  { name: 'gt', label: '>' },
  { name: 'ge', label: '≥' },
  { name: 'lt', label: '<' },
  { name: 'le', label: '≤' },
  { name: 'contains', label: 'contains' },
  { name: 'startsWith', label: 'starts with' },
  { name: 'hasSome', label: 'is one of' },
  { name: 'isEmpty', label: 'is empty' },
  { name: 'isNotEmpty', label: 'is not empty' },
] as const;

/** One of the operator names. */
export type OperatorName = (typeof operators)[number]['name'];

/** One row of the filter form. */
export interface FilterRow {
  field: string;
  operator: OperatorName;
  /** As typed; see {@link parseFilterValue}. */
  value: string;
}

/** Whether the operator compares with a value (the emptiness checks do not). */
export function takesValue(operator: OperatorName): boolean {
  return operator !== 'isEmpty' && operator !== 'isNotEmpty';
}

/** Typed text as the value to compare with: numbers and true/false as such, anything else as text. */
export function parseFilterValue(text: string): string | number | boolean {
  const trimmed = text.trim();
  if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
  return text;
}

/** The operators that compare the field with the parsed value: each is the builder method of its name. */
const comparisons = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const satisfies readonly OperatorName[];

/** Whether the operator is one of the {@link comparisons}. */
const isComparison = (operator: OperatorName): operator is (typeof comparisons)[number] =>
  (comparisons as readonly OperatorName[]).includes(operator);

/** Adds one complete row to the query (rows without a field are skipped). */
export function applyFilter(query: ItemsQueryBuilder<Item>, row: FilterRow): ItemsQueryBuilder<Item> {
  if (!row.field.trim()) return query;
  const field = row.field.trim();
  if (isComparison(row.operator)) return query[row.operator](field, parseFilterValue(row.value));
  switch (row.operator) {
    case 'contains':
      return query.contains(field, row.value);
    case 'startsWith':
      return query.startsWith(field, row.value);
    case 'hasSome':
      return query.hasSome(field, row.value.split(',').map(parseFilterValue));
    case 'isEmpty':
      return query.isEmpty(field);
    case 'isNotEmpty':
      return query.isNotEmpty(field);
  }
}
