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

/** The value types a filter can compare with. */
export type FilterValue = string | number | boolean | Date;

/**
 * Typed text as the value to compare with, typed by the field's type when the collection says it
 * (a NUMBER field compares numbers, a DATETIME field dates, a TEXT field text even when it looks
 * like a number: `title is 1984` finds the movie "1984"). For a field the collection does not
 * describe: numbers and true/false as such, anything else as text.
 */
export function parseFilterValue(text: string, fieldType?: string): FilterValue {
  const trimmed = text.trim();
  switch (fieldType) {
    case 'NUMBER':
      return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
    case 'DATETIME': {
      // A date alone (2010-01-01) is midnight UTC, as the platform reads it.
      const date = new Date(trimmed);
      return trimmed !== '' && !Number.isNaN(date.getTime()) ? date : text;
    }
    case 'BOOLEAN':
      return trimmed === 'true' || trimmed === 'false' ? trimmed === 'true' : text;
    case undefined:
      if (/^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
      if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true';
      return text;
    default:
      // TEXT, DATE (kept as `YYYY-MM-DD` text, which sorts as dates do), URL and the others: as typed.
      return text;
  }
}

/** The operators that compare the field with the parsed value: each is the builder method of its name. */
const comparisons = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const satisfies readonly OperatorName[];

/** Whether the operator is one of the {@link comparisons}. */
const isComparison = (operator: OperatorName): operator is (typeof comparisons)[number] =>
  (comparisons as readonly OperatorName[]).includes(operator);

/** The type of each field of the collection, by key (what {@link parseFilterValue} types values by). */
export type FieldTypes = ReadonlyMap<string, string>;

/** Adds one complete row to the query (rows without a field are skipped); values typed by `fieldTypes`. */
export function applyFilter(
  query: ItemsQueryBuilder<Item>,
  row: FilterRow,
  fieldTypes: FieldTypes = new Map(),
): ItemsQueryBuilder<Item> {
  if (!row.field.trim()) return query;
  const field = row.field.trim();
  const type = fieldTypes.get(field);
  const typed = (text: string) => parseFilterValue(text, type);
  if (isComparison(row.operator)) return query[row.operator](field, typed(row.value));
  switch (row.operator) {
    case 'contains':
      return query.contains(field, row.value);
    case 'startsWith':
      return query.startsWith(field, row.value);
    case 'hasSome':
      // An ARRAY_STRING field holds text: its elements are compared as text.
      return query.hasSome(
        field,
        row.value.split(',').map((part) => (type === 'ARRAY_STRING' ? part.trim() : typed(part.trim()))),
      );
    case 'isEmpty':
      return query.isEmpty(field);
    case 'isNotEmpty':
      return query.isNotEmpty(field);
  }
}
