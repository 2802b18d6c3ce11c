/** Admin: a collection's items as a table, with create, edit, bulk delete and references. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { DataCollection, DataCollectionField, Item } from 'sitekit-sdk';
import { mutationOptions, queryOptions } from 'sitekit-sdk/react';
import { Link, useRouter } from '../app/router.js';
import { DataTable } from '../ui/data-table.js';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { formatDateTime, formatValue, shortId } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { Pager } from '../ui/pager.js';
import { FormStatus } from '../ui/form-status.js';
import { QueryView } from '../ui/query-view.js';
import { EmptyState } from '../ui/states.js';
import { useAdminClient } from './admin-client.js';
import { ItemEditor } from './item-editor.js';
import { ReferencesDialog } from './references-dialog.js';
import { useCollection, useCollections } from '../data/use-collections.js';

const pageSize = 20;
/** Beyond this many fields the table becomes unreadable; the editor still shows them all. */
const maxColumns = 5;

/** Props of {@link ItemsPage}. */
export interface ItemsPageProps {
  /** The collection shown; none shows the collection picker only. */
  collectionId: string | undefined;
}

/** The items of one collection. */
export function ItemsPage({ collectionId }: ItemsPageProps) {
  const client = useAdminClient();
  const collections = useCollections(client);
  const { navigate } = useRouter();
  return (
    <>
      <PageHeader
        title="Items"
        description="Read and write any collection's items with the elevated client."
        actions={
          <label className="row">
            <span className="muted">Collection</span>
            <select
              aria-label="Collection"
              value={collectionId ?? ''}
              onChange={(event) => navigate(`/admin/items/${encodeURIComponent(event.target.value)}`)}
            >
              <option value="" disabled>
                Choose a collection
              </option>
              {collections.data?.map((collection) => (
                <option key={collection._id} value={collection._id}>
                  {collection.displayName || collection._id}
                </option>
              ))}
            </select>
          </label>
        }
      />
      {collections.isError && <ErrorNotice title="Could not load the collections" error={collections.error} />}
      {collectionId ? (
        <CollectionItems collectionId={collectionId} />
      ) : (
        <EmptyState title="Choose a collection">
          <span className="row">
            {collections.data?.map((collection) => (
              <Link
                key={collection._id}
                className="button secondary small"
                to={`/admin/items/${encodeURIComponent(collection._id)}`}
              >
                {collection.displayName || collection._id}
              </Link>
            ))}
          </span>
        </EmptyState>
      )}
    </>
  );
}

function CollectionItems({ collectionId }: { collectionId: string }) {
  const client = useAdminClient();
  const collection = useCollection(client, collectionId);
  return (
    <QueryView
      query={collection}
      loading="Loading the collection…"
      errorTitle="Could not load the collection"
      isEmpty={() => false}
      emptyTitle=""
    >
      {(loaded) => <ItemsTable key={collectionId} collection={loaded} />}
    </QueryView>
  );
}

function ItemsTable({ collection }: { collection: DataCollection }) {
  const client = useAdminClient();
  const [offset, setOffset] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<Item | null | undefined>(undefined);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [references, setReferences] = useState<{ item: Item; field: DataCollectionField } | null>(null);

  const fields = (collection.fields ?? []).filter((field) => !field.systemField && !field.key.startsWith('_'));
  const columns = fields.slice(0, maxColumns);
  const singleReferences = columns.filter((field) => field.type === 'REFERENCE').map((field) => field.key);
  const newestFirst = client.items.query(collection._id).descending('_createdDate').skip(offset).limit(pageSize);
  // The page's query also counts the items, for the pager's total.
  const page = useQuery(
    queryOptions(singleReferences.length > 0 ? newestFirst.include(...singleReferences) : newestFirst, {
      returnTotalCount: true,
    }),
  );

  // Item writes invalidate every query of this collection (pages, counts, references), so they refetch.
  const save = useMutation({
    ...mutationOptions(client, (c, values: Item) =>
      typeof values._id === 'string'
        ? c.items.update(collection._id, { ...values, _id: values._id })
        : c.items.insert(collection._id, values),
    ),
    onSuccess: () => setEditing(undefined),
  });
  const bulkDelete = useMutation({
    ...mutationOptions(client, (c, ids: string[]) => c.items.bulkRemove(collection._id, ids)),
    onSuccess: () => {
      setSelected(new Set());
      setConfirmingDelete(false);
    },
  });

  const items: Item[] = page.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((item) => selected.has(item._id ?? ''));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const openEditor = (item: Item | null) => {
    save.reset();
    setEditing(item);
  };

  return (
    <section className="stack" aria-label={`Items of ${collection._id}`}>
      <div className="row-between">
        <div className="row">
          <button type="button" onClick={() => openEditor(null)}>
            New item
          </button>
          <button
            type="button"
            className="danger"
            disabled={selected.size === 0}
            onClick={() => setConfirmingDelete(true)}
          >
            Delete selected{selected.size > 0 ? ` (${selected.size})` : ''}
          </button>
        </div>
        <Link to={`/admin/collections/${encodeURIComponent(collection._id)}`}>Fields and permissions</Link>
      </div>
      <QueryView
        query={page}
        loading="Loading items…"
        errorTitle="Could not load the items"
        isEmpty={(loaded) => loaded.items.length === 0}
        emptyTitle={`${collection.displayName || collection._id} has no items`}
        emptyHint={
          <button type="button" className="link" onClick={() => openEditor(null)}>
            Create the first one
          </button>
        }
      >
        {(loaded) => (
          <>
            <DataTable
              testId="items-table"
              headings={[
                <input
                  type="checkbox"
                  aria-label="Select every item of this page"
                  checked={allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((item) => item._id ?? '')))}
                />,
                'ID',
                ...columns.map((field) => field.displayName || field.key),
                'Created',
                '',
              ]}
              rows={items}
              rowKey={(item) => item._id}
              cells={(item) => (
                <>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select item ${item._id}`}
                      checked={selected.has(item._id ?? '')}
                      onChange={() => toggle(item._id ?? '')}
                    />
                  </td>
                  <td className="mono nowrap" title={item._id} data-testid="item-id">
                    {shortId(item._id)}
                  </td>
                  {columns.map((field) => (
                    <td key={field.key} className="cell-clip">
                      <Cell field={field} item={item} onOpenReferences={() => setReferences({ item, field })} />
                    </td>
                  ))}
                  <td className="muted small nowrap">{formatDateTime(item._createdDate)}</td>
                  <td className="actions">
                    <button type="button" className="secondary small" onClick={() => openEditor(item)}>
                      Edit
                    </button>
                  </td>
                </>
              )}
            />
            <Pager
              offset={offset}
              limit={pageSize}
              count={loaded.items.length}
              total={loaded.totalCount}
              hasNext={loaded.hasNext}
              onChange={setOffset}
            />
          </>
        )}
      </QueryView>
      {editing !== undefined && (
        <ItemEditor
          collection={collection}
          item={editing}
          saving={save.isPending}
          error={save.error}
          onSave={(values) => save.mutate(values)}
          onClose={() => setEditing(undefined)}
        />
      )}
      <Dialog open={confirmingDelete} title="Delete items" onClose={() => setConfirmingDelete(false)}>
        <p>
          Delete {selected.size} item{selected.size === 1 ? '' : 's'} from {collection.displayName || collection._id}?
          This cannot be undone.
        </p>
        <FormStatus mutation={bulkDelete} errorTitle="Could not delete the items" />
        <div className="row">
          <button
            type="button"
            className="danger"
            disabled={bulkDelete.isPending}
            onClick={() => bulkDelete.mutate([...selected])}
          >
            {bulkDelete.isPending ? 'Deleting…' : 'Delete'}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirmingDelete(false)}>
            Cancel
          </button>
        </div>
      </Dialog>
      {references && (
        <ReferencesDialog
          collectionId={collection._id}
          item={references.item}
          field={references.field}
          onClose={() => setReferences(null)}
        />
      )}
    </section>
  );
}

/** One table cell: references link to their item, multi-references open the references dialog. */
function Cell({ field, item, onOpenReferences }: { field: DataCollectionField; item: Item; onOpenReferences(): void }) {
  const value = item[field.key];
  if (field.type === 'MULTI_REFERENCE') {
    return (
      <button type="button" className="link" onClick={onOpenReferences}>
        Manage references
      </button>
    );
  }
  if (field.type === 'REFERENCE' && value) {
    const referencedCollectionId = field.typeMetadata?.reference?.referencedCollectionId;
    const label = formatValue(value);
    return referencedCollectionId ? (
      <Link to={`/admin/items/${encodeURIComponent(referencedCollectionId)}`}>{label}</Link>
    ) : (
      <span>{label}</span>
    );
  }
  if (field.type === 'IMAGE' && typeof value === 'string' && /^https?:/.test(value)) {
    return <img src={value} alt="" height={32} />;
  }
  return <span title={formatValue(value)}>{formatValue(value)}</span>;
}
