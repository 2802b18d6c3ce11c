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
import { Dialog } from '../ui/dialog.js';
import { FormFooter, useSubmitOnce } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { InlineForm } from './inline-form.js';
import { FieldProblem, FieldTypeSelect, RoleSelect } from './collections-page.js';
import { permissionOperations } from './permissions.js';
import { TypesCard } from './types-card.js';
import { fieldKeyProblem, isReferenceType, type CollectionField } from '../data/collection-rules.js';
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
            <TypesCard collection={loaded} />
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

/** The metadata a field of `type` needs: the collection a reference points at. */
function typeMetadataOf(type: DataCollectionFieldType, referencedCollectionId: string) {
  if (type === 'REFERENCE') return { typeMetadata: { reference: { referencedCollectionId } } };
  if (type === 'MULTI_REFERENCE') return { typeMetadata: { multiReference: { referencedCollectionId } } };
  return {};
}

/** The collection a reference field points at, if it is one. */
const referencedBy = (field: CollectionField): string | undefined =>
  field.typeMetadata?.reference?.referencedCollectionId ?? field.typeMetadata?.multiReference?.referencedCollectionId;

function FieldsCard({ collection }: { collection: DataCollection }) {
  const save = useSaveCollection();
  const saveOnce = useSubmitOnce(save.mutateAsync);
  const [key, setKey] = useState('');
  const [type, setType] = useState<DataCollectionFieldType>('TEXT');
  const [referencedCollectionId, setReferencedCollectionId] = useState('');
  const [tried, setTried] = useState(false);
  const [editing, setEditing] = useState<CollectionField | null>(null);
  const [removing, setRemoving] = useState<CollectionField | null>(null);
  const keyProblem = fieldKeyProblem(key.trim());
  const addField = () => {
    setTried(true);
    if (keyProblem) return;
    const { typeMetadata } = typeMetadataOf(type, referencedCollectionId) as { typeMetadata?: object };
    save.mutate(
      {
        ...collection,
        fields: [
          ...(collection.fields ?? []),
          { key: key.trim(), displayName: key.trim(), type, ...(typeMetadata ? { typeMetadata } : {}) },
        ],
      },
      {
        onSuccess: () => {
          setKey('');
          setTried(false);
        },
      },
    );
  };
  const fields = collection.fields ?? [];
  return (
    <section className="card" aria-labelledby="fields-title">
      <h2 id="fields-title">Fields</h2>
      <DataTable
        headings={['Key', 'Name', 'Type', 'Refers to', 'Notes', '']}
        rows={fields}
        rowKey={(field) => field.key}
        cells={(field) => {
          const referenced = referencedBy(field);
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
              <td className="actions">
                {!field.systemField && (
                  <>
                    <button
                      type="button"
                      className="secondary small"
                      aria-label={`Edit field ${field.key}`}
                      onClick={() => setEditing(field)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="secondary small"
                      aria-label={`Remove field ${field.key}`}
                      onClick={() => setRemoving(field)}
                    >
                      Remove
                    </button>
                  </>
                )}
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
          aria-invalid={tried && keyProblem ? true : undefined}
          aria-describedby="new-field-key-problem"
        />
        <FieldTypeSelect label="New field type" value={type} onChange={setType} />
        {isReferenceType(type) && (
          <input
            aria-label="Referenced collection"
            placeholder="Referenced collection ID"
            value={referencedCollectionId}
            onChange={(event) => setReferencedCollectionId(event.target.value)}
            required
          />
        )}
      </InlineForm>
      <FieldProblem id="new-field-key-problem" problem={tried ? keyProblem : undefined} />
      {editing && (
        <EditFieldDialog
          collection={collection}
          field={editing}
          onClose={() => setEditing(null)}
          save={save}
          saveOnce={saveOnce}
        />
      )}
      <Dialog open={removing !== null} title="Remove field" onClose={() => setRemoving(null)}>
        {removing && (
          <div className="stack">
            <p>
              Remove the field <code>{removing.key}</code> from {collection.displayName || collection._id}? Items keep
              the values they hold under this key; the collection no longer describes them.
            </p>
            <div className="row">
              <button
                type="button"
                className="danger"
                disabled={save.isPending}
                onClick={() => {
                  saveOnce({ ...collection, fields: fields.filter((field) => field.key !== removing.key) });
                  setRemoving(null);
                }}
              >
                Remove
              </button>
            </div>
          </div>
        )}
      </Dialog>
    </section>
  );
}

/** Props of {@link EditFieldDialog}. */
interface EditFieldDialogProps {
  collection: DataCollection;
  field: CollectionField;
  onClose(): void;
  save: ReturnType<typeof useSaveCollection>;
  saveOnce(collection: DataCollection): void;
}

/** Changes a field's display name and type (its key names the items' values, so it stays). */
function EditFieldDialog({ collection, field, onClose, save, saveOnce }: EditFieldDialogProps) {
  const [displayName, setDisplayName] = useState(field.displayName ?? field.key);
  const [type, setType] = useState<DataCollectionFieldType>(field.type);
  const [referencedCollectionId, setReferencedCollectionId] = useState(referencedBy(field) ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { typeMetadata: _previous, ...rest } = field;
    const changed: CollectionField = {
      ...rest,
      displayName: displayName.trim() || field.key,
      type,
      ...typeMetadataOf(type, referencedCollectionId.trim()),
    };
    saveOnce({
      ...collection,
      fields: (collection.fields ?? []).map((other) => (other.key === field.key ? changed : other)),
    });
  };
  // Closes once the save went through (the collection, refetched, carries the change).
  const [submittedAt] = useState(() => save.submittedAt);
  useEffect(() => {
    if (save.isSuccess && save.submittedAt !== submittedAt) onClose();
  }, [save.isSuccess, save.submittedAt, submittedAt, onClose]);
  return (
    <Dialog open title={`Edit field ${field.key}`} onClose={onClose}>
      <form className="stack" onSubmit={submit}>
        <label className="field">
          Display name
          <input value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
        </label>
        <label className="field">
          Type
          <FieldTypeSelect label="Type" value={type} onChange={setType} />
          <span className="hint">Items keep their values; values of another type are not converted.</span>
        </label>
        {isReferenceType(type) && (
          <label className="field">
            Referenced collection
            <input
              value={referencedCollectionId}
              onChange={(event) => setReferencedCollectionId(event.target.value)}
              required
            />
          </label>
        )}
        <FormFooter
          mutation={save}
          errorTitle="Could not save the field"
          submitLabel="Save field"
          pendingLabel="Saving…"
        />
      </form>
    </Dialog>
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
