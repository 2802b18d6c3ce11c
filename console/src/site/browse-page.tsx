/** Site: browse a collection as the visitor or member, with filters, sort and paging. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { Item } from 'sitekit-sdk';
import { queryOptions, useClient } from 'sitekit-sdk/react';
import { useRouter } from '../app/router.js';
import { useCollection, useCollections } from '../data/use-collections.js';
import { DataTable } from '../ui/data-table.js';
import { formatValue } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { Pager } from '../ui/pager.js';
import { QueryView } from '../ui/query-view.js';
import { browseQueryFrom, browseUrlOf, pageSizes, type BrowseQuery } from './browse-url.js';
import { applyFilter, operators, takesValue, type FilterRow, type OperatorName } from './filters.js';

const hiddenColumns = new Set(['_owner', '_updatedDate']);
const maxColumns = 7;

/** The columns worth showing: the keys of the page's items, `_id` first, system dates last. */
function columnsOf(items: Item[]): string[] {
  const keys = new Set<string>();
  for (const item of items) for (const key of Object.keys(item)) if (!hiddenColumns.has(key)) keys.add(key);
  return [...keys]
    .sort((left, right) => Number(left.startsWith('_')) - Number(right.startsWith('_')) || 0)
    .slice(0, maxColumns);
}

/** Browse the demo site's data as its visitor or member. */
export function BrowsePage() {
  const client = useClient();
  const collections = useCollections(client);
  const { search, navigate } = useRouter();
  // What the query runs with lives in the URL (a reload keeps it); the form edits a draft of it.
  const applied = useMemo(() => browseQueryFrom(search), [search]);
  const [draft, setDraft] = useState<BrowseQuery>(applied);
  // Back and forward (and links) change the URL: the form shows the query they lead to.
  useEffect(() => setDraft(applied), [applied]);
  // Column headers use the fields' display names when the collection's schema can be read.
  const schema = useCollection(client, applied.collectionId);
  const headerOf = (key: string) => schema.data?.fields?.find((field) => field.key === key)?.displayName ?? key;
  // Filter values are typed by their fields' types (a date for a DATETIME field, text for TEXT).
  const fieldTypes = useMemo(
    () => new Map((schema.data?.fields ?? []).map((field) => [field.key, field.type as string])),
    [schema.data],
  );

  const filtered = applied.filters.reduce(
    (query, row) => applyFilter(query, row, fieldTypes),
    client.items.query(applied.collectionId),
  );
  const sorted = applied.sortField ? filtered[applied.sortDirection](applied.sortField) : filtered;
  const page = useQuery({
    ...queryOptions(sorted.skip(applied.offset).limit(applied.limit), { returnTotalCount: true }),
    // Typed values need the collection's field types: wait for them (or for their failure).
    enabled: applied.filters.length === 0 || !schema.isPending,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const collectionId = draft.collectionId.trim();
    // A blank collection ID names nothing to query (the builder would refuse it): the last query stays.
    if (collectionId === '') return;
    navigate(browseUrlOf({ ...draft, collectionId, offset: 0 }));
  };
  const setRow = (index: number, change: Partial<FilterRow>) =>
    setDraft({
      ...draft,
      filters: draft.filters.map((row, position) => (position === index ? { ...row, ...change } : row)),
    });
  const items = page.data?.items ?? [];
  const columns = columnsOf(items);

  return (
    <>
      <PageHeader title="Browse" description="Query a collection with this visitor's or member's permissions." />
      <form className="card" onSubmit={submit} aria-label="Query">
        <div className="row">
          <label className="field">
            Collection
            <input
              list="collection-ids"
              value={draft.collectionId}
              onChange={(event) => setDraft({ ...draft, collectionId: event.target.value })}
              required
            />
            <datalist id="collection-ids">
              {collections.data?.map((collection) => (
                <option key={collection._id} value={collection._id} />
              ))}
            </datalist>
          </label>
          <label className="field">
            Sort by
            <input
              list="field-keys"
              value={draft.sortField}
              placeholder="field"
              onChange={(event) => setDraft({ ...draft, sortField: event.target.value })}
            />
          </label>
          <label className="field">
            Order
            <select
              value={draft.sortDirection}
              onChange={(event) =>
                setDraft({ ...draft, sortDirection: event.target.value as BrowseQuery['sortDirection'] })
              }
            >
              <option value="ascending">Ascending</option>
              <option value="descending">Descending</option>
            </select>
          </label>
          <label className="field">
            Per page
            <select value={draft.limit} onChange={(event) => setDraft({ ...draft, limit: Number(event.target.value) })}>
              {pageSizes.map((size) => (
                <option key={size}>{size}</option>
              ))}
            </select>
          </label>
          <datalist id="field-keys">
            {columns.map((key) => (
              <option key={key} value={key} />
            ))}
          </datalist>
        </div>
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="small muted">Filters (all must match)</legend>
          {draft.filters.map((row, index) => (
            <div className="row" key={index}>
              <input
                aria-label={`Filter ${index + 1} field`}
                list="field-keys"
                placeholder="field"
                value={row.field}
                onChange={(event) => setRow(index, { field: event.target.value })}
              />
              <select
                aria-label={`Filter ${index + 1} operator`}
                value={row.operator}
                onChange={(event) => setRow(index, { operator: event.target.value as OperatorName })}
              >
                {operators.map((operator) => (
                  <option key={operator.name} value={operator.name}>
                    {operator.label}
                  </option>
                ))}
              </select>
              {takesValue(row.operator) && (
                <input
                  aria-label={`Filter ${index + 1} value`}
                  placeholder={row.operator === 'hasSome' ? 'a, b, c' : 'value'}
                  value={row.value}
                  onChange={(event) => setRow(index, { value: event.target.value })}
                />
              )}
              <button
                type="button"
                className="secondary small"
                onClick={() =>
                  setDraft({ ...draft, filters: draft.filters.filter((_, position) => position !== index) })
                }
              >
                Remove
              </button>
            </div>
          ))}
        </fieldset>
        <div className="row">
          <button
            type="button"
            className="secondary"
            onClick={() =>
              setDraft({ ...draft, filters: [...draft.filters, { field: '', operator: 'eq', value: '' }] })
            }
          >
            Add a filter
          </button>
          <button type="submit">Run query</button>
        </div>
      </form>
      <QueryView
        query={page}
        loading="Querying…"
        errorTitle="The query failed"
        isEmpty={(loaded) => loaded.items.length === 0}
        emptyTitle="Nothing matches"
        emptyHint="Change the filters and run the query again."
      >
        {(loaded) => (
          <>
            <DataTable
              testId="browse-table"
              headings={columns.map(headerOf)}
              headingTitles={columns}
              rows={loaded.items}
              rowKey={(item) => item._id}
              cells={(item) =>
                columns.map((key) => (
                  <td key={key} className="cell-clip" title={formatValue(item[key])}>
                    {formatValue(item[key])}
                  </td>
                ))
              }
            />
            <Pager
              offset={applied.offset}
              limit={applied.limit}
              count={loaded.items.length}
              total={loaded.totalCount}
              hasNext={loaded.hasNext}
              onChange={(offset) => navigate(browseUrlOf({ ...applied, offset }), { replace: true })}
            />
          </>
        )}
      </QueryView>
    </>
  );
}
