/** The dialog that creates or edits one item, with an input per editable field. */
import { useState, type FormEvent } from 'react';
import type { DataCollection, Item } from 'sitekit-sdk';
import { Dialog } from '../ui/dialog.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { FieldInput } from './field-input.js';
import { isEditable, itemFromForm, toInputText } from './field-text.js';

/** Props of {@link ItemEditor}. */
export interface ItemEditorProps {
  collection: DataCollection;
  /** The item to edit; `null` creates one. */
  item: Item | null;
  saving: boolean;
  error: unknown;
  onSave(item: Record<string, unknown>): void;
  onClose(): void;
}

/** Create or edit an item. Rendered only while open, so its inputs start from the item each time. */
export function ItemEditor({ collection, item, saving, error, onSave, onClose }: ItemEditorProps) {
  const fields = (collection.fields ?? []).filter(isEditable);
  // What the inputs first showed: a field whose text is still this keeps the item's value as it was.
  const [shownTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((field) => [field.key, toInputText(field, item?.[field.key])])),
  );
  const [texts, setTexts] = useState(shownTexts);
  const [inputError, setInputError] = useState<unknown>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      const values = itemFromForm(fields, item, shownTexts, texts);
      setInputError(null);
      onSave(values);
    } catch (problem) {
      setInputError(problem);
    }
  };
  return (
    <Dialog
      open
      title={item ? 'Edit item' : `New item in ${collection.displayName || collection._id}`}
      onClose={onClose}
    >
      <form className="stack" onSubmit={submit}>
        {fields.length === 0 && (
          <p className="muted">This collection has no editable fields; the item will hold its system fields only.</p>
        )}
        {fields.map((field) => (
          <FieldInput
            key={field.key}
            field={field}
            text={texts[field.key] ?? ''}
            onChange={(text) => setTexts({ ...texts, [field.key]: text })}
          />
        ))}
        {inputError !== null && <ErrorNotice error={inputError} />}
        {error !== null && error !== undefined && <ErrorNotice title="Could not save the item" error={error} />}
        <div className="row">
          <button type="submit" disabled={saving}>
            {saving ? 'Saving…' : item ? 'Save changes' : 'Create item'}
          </button>
          <button type="button" className="secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
