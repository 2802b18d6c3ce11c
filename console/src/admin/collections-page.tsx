/** Admin: the list of collections, and creating one. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { DataCollection, DataCollectionFieldType, DataCollectionRole } from 'sitekit-sdk';
import { mutationOptions } from 'sitekit-sdk/react';
import { Link, useRouter } from '../app/router.js';
import { DataTable } from '../ui/data-table.js';
import { Dialog } from '../ui/dialog.js';
import { FormFooter, useSubmitOnce } from '../ui/form-status.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { permissionOperations, roleLabel, roles } from './permissions.js';
import {
  collectionIdProblem,
  fieldKeyProblem,
  fieldTypes,
  isReferenceType,
  type CollectionField,
} from '../data/collection-rules.js';
import { useCollections } from '../data/use-collections.js';

/** Every collection with its field count and permissions. */
export function CollectionsPage() {
  const client = useAdminClient();
  const collections = useCollections(client);
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Collections"
        description="The site's data collections, their fields and who may read and write their items."
        actions={
          <button type="button" onClick={() => setCreating(true)}>
            New collection
          </button>
        }
      />
      <QueryView
        query={collections}
        loading="Loading collections…"
        errorTitle="Could not load the collections"
        emptyTitle="No collections yet"
        emptyHint="Create one to start storing items."
      >
        {(list) => (
          <DataTable
            headings={['Collection', 'Fields', ...permissionOperations.map((operation) => operation.label), '']}
            rows={list}
            rowKey={(collection) => collection._id}
            cells={(collection) => (
              <>
                <td>
                  <Link to={`/admin/collections/${encodeURIComponent(collection._id)}`}>
                    {collection.displayName || collection._id}
                  </Link>
                  <div className="muted small mono">{collection._id}</div>
                </td>
                <td>{collection.fields?.filter((field) => !field.systemField).length ?? 0}</td>
                {permissionOperations.map((operation) => (
                  <td key={operation.key}>{roleLabel(collection.permissions?.[operation.key])}</td>
                ))}
                <td className="actions">
                  <Link className="button secondary small" to={`/admin/items/${encodeURIComponent(collection._id)}`}>
                    Items
                  </Link>
                </td>
              </>
            )}
          />
        )}
      </QueryView>
      <NewCollectionDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

/** One field being added in the New collection dialog. */
interface NewField {
  key: string;
  type: DataCollectionFieldType;
  referencedCollectionId: string;
}

const blankField = (key = ''): NewField => ({ key, type: 'TEXT', referencedCollectionId: '' });

/** The field as the platform takes it (a reference field names the collection it points at). */
function fieldOf({ key, type, referencedCollectionId }: NewField): CollectionField {
  const typeMetadata =
    type === 'REFERENCE'
      ? { reference: { referencedCollectionId } }
      : type === 'MULTI_REFERENCE'
        ? { multiReference: { referencedCollectionId } }
        : undefined;
  return { key: key.trim(), displayName: key.trim(), type, ...(typeMetadata ? { typeMetadata } : {}) };
}

function NewCollectionDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const client = useAdminClient();
  const { navigate } = useRouter();
  const [id, setId] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [readRole, setReadRole] = useState<DataCollectionRole>('ANYONE');
  const [writeRole, setWriteRole] = useState<DataCollectionRole>('ADMIN');
  const [fields, setFields] = useState<NewField[]>([blankField('title')]);
  // Problems are shown once the person tried to submit, not while they are still typing.
  const [tried, setTried] = useState(false);
  const create = useMutation({
    ...mutationOptions(client, (c, collection: DataCollection) => c.collections.createDataCollection(collection)),
    onSuccess: (collection) => {
      onClose();
      navigate(`/admin/collections/${encodeURIComponent(collection._id)}`);
    },
  });
  const createOnce = useSubmitOnce(create.mutateAsync);
  const idProblem = collectionIdProblem(id.trim());
  const keyProblems = fields.map((field) => (field.key.trim() ? fieldKeyProblem(field.key.trim()) : undefined));
  const changeField = (index: number, change: Partial<NewField>) =>
    setFields(fields.map((other, position) => (position === index ? { ...other, ...change } : other)));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (idProblem || keyProblems.some(Boolean)) return;
    createOnce({
      _id: id.trim(),
      displayName: displayName.trim() || id.trim(),
      fields: fields.filter((field) => field.key.trim()).map(fieldOf),
      permissions: { read: readRole, insert: writeRole, update: writeRole, remove: writeRole },
    });
  };
  return (
    <Dialog open={open} title="New collection" onClose={onClose}>
      <form className="stack" onSubmit={submit} noValidate>
        <label className="field">
          Collection ID
          <input
            value={id}
            onChange={(event) => setId(event.target.value)}
            required
            autoFocus
            placeholder="Recipes"
            aria-invalid={tried && idProblem ? true : undefined}
            aria-describedby="collection-id-problem"
          />
          <FieldProblem id="collection-id-problem" problem={tried ? idProblem : undefined} />
        </label>
        <label className="field">
          Display name
          <input value={displayName} onChange={(event) => setDisplayName(event.target.value)} placeholder="Recipes" />
        </label>
        <div className="row">
          <label className="field">
            Who can read items
            <RoleSelect value={readRole} onChange={setReadRole} />
          </label>
          <label className="field">
            Who can write items
            <RoleSelect value={writeRole} onChange={setWriteRole} />
          </label>
        </div>
        <fieldset className="stack" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="small muted">Fields</legend>
          {fields.map((field, index) => (
            <div className="stack" key={index}>
              <div className="row">
                <input
                  aria-label={`Field ${index + 1} key`}
                  value={field.key}
                  placeholder="key"
                  onChange={(event) => changeField(index, { key: event.target.value })}
                  aria-invalid={tried && keyProblems[index] ? true : undefined}
                  aria-describedby={`field-${index}-problem`}
                />
                <FieldTypeSelect
                  label={`Field ${index + 1} type`}
                  value={field.type}
                  onChange={(type) => changeField(index, { type })}
                />
                {isReferenceType(field.type) && (
                  <input
                    aria-label={`Field ${index + 1} referenced collection`}
                    placeholder="Referenced collection ID"
                    value={field.referencedCollectionId}
                    onChange={(event) => changeField(index, { referencedCollectionId: event.target.value })}
                    required
                  />
                )}
                <button
                  type="button"
                  className="secondary small"
                  onClick={() => setFields(fields.filter((_, position) => position !== index))}
                  aria-label={`Remove field ${index + 1}`}
                >
                  Remove
                </button>
              </div>
              <FieldProblem id={`field-${index}-problem`} problem={tried ? keyProblems[index] : undefined} />
            </div>
          ))}
          <div>
            <button type="button" className="secondary small" onClick={() => setFields([...fields, blankField()])}>
              Add a field
            </button>
          </div>
        </fieldset>
        <FormFooter
          mutation={create}
          errorTitle="Could not create the collection"
          submitLabel="Create collection"
          pendingLabel="Creating…"
        />
      </form>
    </Dialog>
  );
}

/** A select of every field type (the one list: the New collection dialog and the collection page offer the same). */
export function FieldTypeSelect({
  value,
  onChange,
  label,
}: {
  value: DataCollectionFieldType;
  onChange(type: DataCollectionFieldType): void;
  label: string;
}) {
  return (
    <select
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value as DataCollectionFieldType)}
    >
      {fieldTypes.map((type) => (
        <option key={type}>{type}</option>
      ))}
    </select>
  );
}

/** A form field's problem in words, under the field (nothing when there is none). */
export function FieldProblem({ id, problem }: { id: string; problem: string | undefined }) {
  return (
    <span id={id} className="field-problem" role={problem ? 'alert' : undefined}>
      {problem}
    </span>
  );
}

/** A select of the four collection roles. */
export function RoleSelect({
  value,
  onChange,
  label,
}: {
  value: DataCollectionRole;
  onChange(role: DataCollectionRole): void;
  label?: string;
}) {
  return (
    <select value={value} aria-label={label} onChange={(event) => onChange(event.target.value as DataCollectionRole)}>
      {roles.map((role) => (
        <option key={role.role} value={role.role}>
          {role.label}
        </option>
      ))}
    </select>
  );
}
