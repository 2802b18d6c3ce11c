/**
 * One input per collection field type, and the conversions between what an input holds (text)
 * and what an item holds (numbers, booleans, dates, references, JSON).
 */
import type { DataCollectionField } from 'sitekit-sdk';

/** Field types edited as plain text. */
const textTypes = new Set([
  'TEXT',
  'URL',
  'IMAGE',
  'RICH_TEXT',
  'VIDEO',
  'AUDIO',
  'DOCUMENT',
  'REFERENCE',
  'TIME',
  'LANGUAGE',
]);

/** Thrown when an input cannot become the field's value; the message is shown under the form. */
export class FieldInputError extends Error {
  override readonly name = 'FieldInputError';
}

/** Whether the item form edits this field (system fields and multi-references are managed elsewhere). */
export function isEditable(field: DataCollectionField): boolean {
  return !field.systemField && !field.readOnly && field.type !== 'MULTI_REFERENCE' && !field.key.startsWith('_');
}

/** An item value as the text its input shows. */
export function toInputText(field: DataCollectionField, value: unknown): string {
  if (value === undefined || value === null) return '';
  if (field.type === 'BOOLEAN') return value === true ? 'true' : 'false';
  if (field.type === 'DATETIME' && value instanceof Date) return toLocalDateTime(value);
  if (field.type === 'REFERENCE' && typeof value === 'object') return String((value as { _id?: unknown })._id ?? '');
  if (textTypes.has(field.type) || field.type === 'NUMBER' || field.type === 'DATE') return String(value);
  return JSON.stringify(value, null, 2);
}

/** The text of an input as the item's value; `undefined` leaves the field out. */
export function fromInputText(field: DataCollectionField, text: string): unknown {
  if (field.type === 'BOOLEAN') return text === 'true';
  if (text.trim() === '') return undefined;
  switch (field.type) {
    case 'NUMBER': {
      const number = Number(text);
      if (Number.isNaN(number))
        throw new FieldInputError(`${field.displayName ?? field.key}: "${text}" is not a number`);
      return number;
    }
    case 'DATETIME': {
      const date = new Date(text);
      if (Number.isNaN(date.getTime()))
        throw new FieldInputError(`${field.displayName ?? field.key}: "${text}" is not a date and time`);
      return date;
    }
    case 'ARRAY_STRING':
      return text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);
    default:
      if (textTypes.has(field.type) || field.type === 'DATE') return text;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new FieldInputError(`${field.displayName ?? field.key}: not valid JSON`);
      }
  }
}

/** `YYYY-MM-DDTHH:mm` in local time, what `<input type="datetime-local">` holds. */
function toLocalDateTime(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Props of {@link FieldInput}. */
export interface FieldInputProps {
  field: DataCollectionField;
  text: string;
  onChange(text: string): void;
}

/** The input that suits the field's type. */
export function FieldInput({ field, text, onChange }: FieldInputProps) {
  const label = field.displayName || field.key;
  if (field.type === 'BOOLEAN') {
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
  const hint =
    field.type === 'REFERENCE'
      ? `ID of an item of ${field.typeMetadata?.reference?.referencedCollectionId ?? 'the referenced collection'}`
      : field.type === 'ARRAY_STRING'
        ? 'Comma-separated'
        : textTypes.has(field.type) || field.type === 'NUMBER' || field.type === 'DATE' || field.type === 'DATETIME'
          ? undefined
          : 'JSON';
  return (
    <label className="field">
      <span>
        {label} <span className="hint">{field.type.toLowerCase()}</span>
      </span>
      {hint === 'JSON' ? (
        <textarea value={text} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          type={
            field.type === 'NUMBER'
              ? 'number'
              : field.type === 'DATE'
                ? 'date'
                : field.type === 'DATETIME'
                  ? 'datetime-local'
                  : 'text'
          }
          step={field.type === 'NUMBER' ? 'any' : undefined}
          value={text}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {hint && hint !== 'JSON' && <span className="hint">{hint}</span>}
    </label>
  );
}
