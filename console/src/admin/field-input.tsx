/** One input per collection field type; the conversions to and from its text are in field-text.ts. */
import type { DataCollectionField } from 'sitekit-sdk';
import { inputKind, type FieldInputKind } from './field-text.js';

/** Props of {@link FieldInput}. */
export interface FieldInputProps {
  field: DataCollectionField;
  text: string;
  onChange(text: string): void;
}

/** The `<input type>` of each kind edited in a one-line input. */
const inputTypes: Partial<Record<FieldInputKind, string>> = {
  text: 'text',
  number: 'number',
  date: 'date',
  datetime: 'datetime-local',
};

/** The hint under the input, for the kinds whose expected text is not obvious. */
function hintOf(field: DataCollectionField, kind: FieldInputKind): string | undefined {
  if (field.type === 'REFERENCE')
    return `ID of an item of ${field.typeMetadata?.reference?.referencedCollectionId ?? 'the referenced collection'}`;
  if (kind === 'lines') return 'One per line (or a JSON list of strings)';
  if (kind === 'json') return 'JSON';
  return undefined;
}

/** The input that suits the field's type. */
export function FieldInput({ field, text, onChange }: FieldInputProps) {
  const label = field.displayName || field.key;
  const kind = inputKind(field);
  if (kind === 'checkbox') {
    return (
      <label className="check">
        <input
          type="checkbox"
          checked={text === 'true'}
          onChange={(event) => onChange(event.target.checked ? 'true' : 'false')}
        />
        {label}
      </label>
    );
  }
  const hint = hintOf(field, kind);
  return (
    <label className="field">
      <span>
        {label} <span className="hint">{field.type.toLowerCase()}</span>
      </span>
      {kind === 'json' || kind === 'lines' ? (
        <textarea value={text} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          type={inputTypes[kind]}
          step={kind === 'number' ? 'any' : undefined}
          value={text}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint && <span className="hint">{hint}</span>}
    </label>
  );
}
