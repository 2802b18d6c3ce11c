/** The items a multi-reference field of one item refers to: listing, adding and removing them. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { mutationOptions, queryOptions } from 'sitekit-sdk/react';
import { useState } from 'react';
import type { DataCollectionField, Item } from 'sitekit-sdk';
import { Dialog } from '../ui/dialog.js';
import { formatValue } from '../ui/format.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { InlineForm } from './inline-form.js';

/** Props of {@link ReferencesDialog}. */
export interface ReferencesDialogProps {
  collectionId: string;
  item: Item;
  field: DataCollectionField;
  onClose(): void;
}

/** Lists the referenced items, and adds or removes references by item ID. */
export function ReferencesDialog({ collectionId, item, field, onClose }: ReferencesDialogProps) {
  const client = useAdminClient();
  const itemId = item._id ?? '';
  const referencedCollectionId =
    field.typeMetadata?.multiReference?.referencedCollectionId ?? field.typeMetadata?.reference?.referencedCollectionId;
  // Keyed under the collection, so the reference writes below (item writes of it) refresh it.
  const referenced = useQuery(
    queryOptions(client, (c, { signal }) =>
      c.items.queryReferenced(collectionId, itemId, field.key, { signal, limit: 100 }),
    ),
  );
  const [newId, setNewId] = useState('');
  const change = useMutation({
    ...mutationOptions(client, (c, { action, referencedId }: { action: 'add' | 'remove'; referencedId: string }) =>
      action === 'add'
        ? c.items.insertReference(collectionId, field.key, itemId, referencedId)
        : c.items.removeReference(collectionId, field.key, itemId, referencedId),
    ),
    onSuccess: () => setNewId(''),
  });
  const items: Item[] = referenced.data?.items ?? [];
  return (
    <Dialog open title={`${field.displayName || field.key} of ${formatValue(item)}`} onClose={onClose}>
      <p className="muted">
        Items of <code>{referencedCollectionId ?? 'the referenced collection'}</code> this item refers to.
      </p>
      <QueryView
        query={referenced}
        loading="Loading references…"
        errorTitle="Could not load the references"
        isEmpty={(page) => page.items.length === 0}
        emptyTitle="No references yet"
      >
        {() => (
          <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {items.map((referencedItem) => (
              <li key={referencedItem._id} className="row-between">
                <span>
                  {formatValue(referencedItem)} <span className="muted mono small">{referencedItem._id}</span>
                </span>
                <button
                  type="button"
                  className="secondary small"
                  onClick={() => change.mutate({ action: 'remove', referencedId: referencedItem._id ?? '' })}
                >
                  Remove
                </button>
              </li>
            ))}
          </ul>
        )}
      </QueryView>
      <InlineForm
        onSubmit={() => change.mutate({ action: 'add', referencedId: newId.trim() })}
        mutation={change}
        submitLabel="Add reference"
        pendingLabel="Saving…"
        errorTitle="Could not change the references"
      >
        <input
          aria-label="Referenced item ID"
          placeholder="Item ID to refer to"
          value={newId}
          onChange={(event) => setNewId(event.target.value)}
          required
        />
      </InlineForm>
    </Dialog>
  );
}
