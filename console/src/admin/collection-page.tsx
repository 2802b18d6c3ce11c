/** Admin: one collection's fields and permissions; editing permissions, adding fields, deleting it. */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type {
  DataCollection,
  DataCollectionFieldType,
  DataCollectionPermissions,
  DataCollectionRole,
} from 'sitekit-sdk';
import { mutationOptions } from 'sitekit-sdk/react';
import { Link, useRouter } from '../app/router.js';
import { DataTable } from '../ui/data-table.js';
import { FormFooter } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { InlineForm } from './inline-form.js';
import { RoleSelect } from './collections-page.js';
import { permissionOperations } from './permissions.js';
import { useCollection } from '../data/use-collections.js';

/** Props of {@link CollectionPage}. */
export interface CollectionPageProps {
  collectionId: string;
}

/** The collection's fields and permissions. */
export function CollectionPage({ collectionId }: CollectionPageProps) {
  const client = useAdminClient();
  const collection = useCollection(client, collectionId);
  return (
    <>
      <PageHeader
        title={collection.data?.displayName || collectionId}
        description={
          <>
            Collection <code>{collectionId}</code> · <Link to="/admin/collections">all collections</Link>
          </>
        }
        actions={
          <Link className="button secondary" to={`/admin/items/${encodeURIComponent(collectionId)}`}>
            Open items
          </Link>
        }
      />
      <QueryView
        query={collection}
        loading="Loading the collection…"
        errorTitle="Could not load the collection"
        isEmpty={() => false}
        emptyTitle=""
      >
        {(loaded) => (
          <>
            <FieldsCard collection={loaded} />
            <div className="grid-2">
              <PermissionsCard collection={loaded} />
              <DangerCard collection={loaded} />
            </div>
          </>
        )}
      </QueryView>
    </>
  );
}

/** Saves a changed collection (the revision it carries is checked); every collection query then refetches. */
function useSaveCollection() {
  const client = useAdminClient();
  return useMutation(
    mutationOptions(client, (c, collection: DataCollection) => c.collections.updateDataCollection(collection)),
  );
}

const fieldTypes: DataCollectionFieldType[] = [
  'TEXT',
  'NUMBER',
  'BOOLEAN',
  'DATE',
  'DATETIME',
  'IMAGE',
  'URL',
  'RICH_TEXT',
  'REFERENCE',
  'MULTI_REFERENCE',
  'ARRAY_STRING',
  'ARRAY',
  'OBJECT',
  'ANY',
];

function FieldsCard({ collection }: { collection: DataCollection }) {
  const save = useSaveCollection();
  const [key, setKey] = useState('');
  const [type, setType] = useState<DataCollectionFieldType>('TEXT');
  const [referencedCollectionId, setReferencedCollectionId] = useState('');
  const needsReference = type === 'REFERENCE' || type === 'MULTI_REFERENCE';
  const addField = () => {
    const typeMetadata =
      type === 'REFERENCE'
        ? { reference: { referencedCollectionId } }
        : type === 'MULTI_REFERENCE'
          ? { multiReference: { referencedCollectionId } }
          : undefined;
    save.mutate(
      {
        ...collection,
        fields: [
          ...(collection.fields ?? []),
          { key: key.trim(), displayName: key.trim(), type, ...(typeMetadata ? { typeMetadata } : {}) },
        ],
      },
      { onSuccess: () => setKey('') },
    );
  };
  const fields = collection.fields ?? [];
  return (
    <section className="card" aria-labelledby="fields-title">
      <h2 id="fields-title">Fields</h2>
      <DataTable
        headings={['Key', 'Name', 'Type', 'Refers to', 'Notes']}
        rows={fields}
        rowKey={(field) => field.key}
        cells={(field) => {
          const referenced =
            field.typeMetadata?.reference?.referencedCollectionId ??
            field.typeMetadata?.multiReference?.referencedCollectionId;
          return (
            <>
              <td className="mono">{field.key}</td>
              <td>{field.displayName ?? '—'}</td>
              <td>
                <span className="badge">{field.type}</span>
              </td>
              <td>
                {referenced ? (
                  <Link to={`/admin/collections/${encodeURIComponent(referenced)}`}>{referenced}</Link>
                ) : (
                  '—'
                )}
              </td>
              <td className="muted small">
                {[field.systemField && 'system', field.readOnly && 'read-only', field.sortable && 'sortable']
                  .filter(Boolean)
                  .join(', ') || '—'}
              </td>
            </>
          );
        }}
      />
      <InlineForm
        label="Add a field"
        onSubmit={addField}
        mutation={save}
        submitLabel="Add field"
        pendingLabel="Saving…"
        errorTitle="Could not save the collection"
      >
        <input
          aria-label="New field key"
          placeholder="New field key"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          required
        />
        <select
          aria-label="New field type"
          value={type}
          onChange={(event) => setType(event.target.value as DataCollectionFieldType)}
        >
          {fieldTypes.map((fieldType) => (
            <option key={fieldType}>{fieldType}</option>
          ))}
        </select>
        {needsReference && (
          <input
            aria-label="Referenced collection"
            placeholder="Referenced collection ID"
            value={referencedCollectionId}
            onChange={(event) => setReferencedCollectionId(event.target.value)}
            required
          />
        )}
      </InlineForm>
    </section>
  );
}

function PermissionsCard({ collection }: { collection: DataCollection }) {
  const save = useSaveCollection();
  const [permissions, setPermissions] = useState<DataCollectionPermissions>(collection.permissions ?? {});
  useEffect(() => setPermissions(collection.permissions ?? {}), [collection.permissions]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ ...collection, permissions });
  };
  return (
    <section className="card" aria-labelledby="permissions-title">
      <h2 id="permissions-title">Permissions</h2>
      <p className="muted">The lowest role allowed to do each operation on items. The API key is always allowed.</p>
      <form className="stack" onSubmit={submit}>
        {permissionOperations.map((operation) => (
          <label key={operation.key} className="row-between">
            <span>{operation.label}</span>
            <RoleSelect
              label={`${operation.label} permission`}
              value={(permissions[operation.key] ?? 'ADMIN') as DataCollectionRole}
              onChange={(role) => setPermissions({ ...permissions, [operation.key]: role })}
            />
          </label>
        ))}
        <FormFooter
          mutation={save}
          errorTitle="Could not save the permissions"
          successText="Permissions saved."
          submitLabel="Save permissions"
          pendingLabel="Saving…"
        />
      </form>
    </section>
  );
}

function DangerCard({ collection }: { collection: DataCollection }) {
  const client = useAdminClient();
  const { navigate } = useRouter();
  const [confirmation, setConfirmation] = useState('');
  const remove = useMutation({
    ...mutationOptions(client, (c, collectionId: string) => c.collections.deleteDataCollection(collectionId)),
    onSuccess: () => navigate('/admin/collections'),
  });
  return (
    <section className="card" aria-labelledby="danger-title">
      <h2 id="danger-title">Delete the collection</h2>
      <p className="muted">Its items are deleted with it. Type the collection ID to confirm.</p>
      <InlineForm
        onSubmit={() => remove.mutate(collection._id)}
        mutation={remove}
        submitLabel="Delete"
        pendingLabel="Deleting…"
        submitClassName="danger"
        submitDisabled={confirmation !== collection._id}
        errorTitle="Could not delete the collection"
      >
        <input
          aria-label="Collection ID to confirm"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          placeholder={collection._id}
        />
      </InlineForm>
    </section>
  );
}
