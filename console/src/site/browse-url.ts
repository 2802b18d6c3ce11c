/**
 * The browse page's query in its URL (`?collection=Movies&filter=releaseDate:ge:2010-01-01&sort=title`),
 * so a reload, a bookmark or Back shows the same results.
 */
import { operators, type FilterRow, type OperatorName } from './filters.js';

/** What the browse page queries with. */
export interface BrowseQuery {
  collectionId: string;
  filters: FilterRow[];
  sortField: string;
  sortDirection: 'ascending' | 'descending';
  limit: number;
  /** Items skipped (the page shown). */
  offset: number;
}

/** The query of a first visit. */
export const defaultBrowseQuery: BrowseQuery = {
  collectionId: 'Movies',
  filters: [],
  sortField: '',
  sortDirection: 'ascending',
  limit: 10,
  offset: 0,
};

/** The page sizes offered. */
export const pageSizes = [10, 25, 50] as const;

const operatorNames = new Set<string>(operators.map((operator) => operator.name));

/**
 * One filter row as `field:operator:value` (field keys hold no `:`, so the first two split it;
 * the value keeps any colons it has).
 */
const encodeFilter = (row: FilterRow): string => `${row.field}:${row.operator}:${row.value}`;

function decodeFilter(text: string): FilterRow | undefined {
  const first = text.indexOf(':');
  const second = first < 0 ? -1 : text.indexOf(':', first + 1);
  if (second < 0) return undefined;
  const operator = text.slice(first + 1, second);
  if (!operatorNames.has(operator)) return undefined;
  return { field: text.slice(0, first), operator: operator as OperatorName, value: text.slice(second + 1) };
}

/** A whole number of at least `minimum` from the URL, else `fallback`. */
function wholeNumber(text: string | null, minimum: number, fallback: number): number {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value >= minimum ? value : fallback;
}

/** The query a URL's search parameters describe (anything missing or unreadable: the default). */
export function browseQueryFrom(search: URLSearchParams): BrowseQuery {
  const limit = wholeNumber(search.get('limit'), 1, defaultBrowseQuery.limit);
  return {
    collectionId: search.get('collection')?.trim() || defaultBrowseQuery.collectionId,
    filters: search.getAll('filter').flatMap((text) => decodeFilter(text) ?? []),
    sortField: search.get('sort') ?? '',
    sortDirection: search.get('order') === 'descending' ? 'descending' : 'ascending',
    limit: (pageSizes as readonly number[]).includes(limit) ? limit : defaultBrowseQuery.limit,
    offset: wholeNumber(search.get('offset'), 0, 0),
  };
}

/** The browse page's URL for a query (only what differs from the default is written). */
export function browseUrlOf(query: BrowseQuery): string {
  const search = new URLSearchParams();
  search.set('collection', query.collectionId);
  for (const row of query.filters) if (row.field.trim()) search.append('filter', encodeFilter(row));
  if (query.sortField) search.set('sort', query.sortField);
  if (query.sortDirection === 'descending') search.set('order', 'descending');
  if (query.limit !== defaultBrowseQuery.limit) search.set('limit', String(query.limit));
  if (query.offset > 0) search.set('offset', String(query.offset));
  return `/site/browse?${search.toString()}`;
}
