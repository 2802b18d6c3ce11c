/**
 * The conversions between what an item holds (numbers, booleans, dates, lists, references, JSON)
 * and what the item form's inputs hold (text), and the rule that keeps an edit from rewriting a
 * field nobody touched.
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
  'PAGE_LINK',
]);

/** How the form edits a field's value. */
export type FieldInputKind = 'checkbox' | 'text' | 'number' | 'date' | 'datetime' | 'lines' | 'json';

/** The kind of input that edits a field of this type. */
export function inputKind(field: DataCollectionField): FieldInputKind {
  switch (field.type) {
    case 'BOOLEAN':
      return 'checkbox';
    case 'NUMBER':
      return 'number';
    case 'DATE':
      return 'date';
    case 'DATETIME':
      return 'datetime';
    case 'ARRAY_STRING':
      return 'lines';
    default:
      return textTypes.has(field.type) ? 'text' : 'json';
  }
}

/** Thrown when an input cannot become the field's value; the message is shown under the form. */
export class FieldInputError extends Error {
  override readonly name = 'FieldInputError';
  /** What kind of problem this is, for code that tells problems apart. */
  readonly code = 'FIELD_INPUT_INVALID';
}

/** Whether the item form edits this field (system fields and multi-references are managed elsewhere). */
export function isEditable(field: DataCollectionField): boolean {
  return !field.systemField && !field.readOnly && field.type !== 'MULTI_REFERENCE' && !field.key.startsWith('_');
}

/**
 * Whether a value reads back unchanged from one entry per line: a list of strings, none blank,
 * none with a line break or space at either end (reading the lines trims them and drops blank ones).
 */
const isListOfLines = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.every((entry) => typeof entry === 'string' && entry !== '' && entry.trim() === entry && !entry.includes('\n'));

/** A JSON list of strings, as the form shows a list that one entry per line cannot hold. */
function parseListOfStrings(text: string): string[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((entry) => typeof entry === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An item value as the text its input shows. A value whose shape does not suit its field's input
 * (a number in a TEXT field, a list with a line break in it) is shown as JSON, so nothing is hidden.
 */
export function toInputText(field: DataCollectionField, value: unknown): string {
  if (value === undefined || value === null) return '';
  switch (inputKind(field)) {
    case 'checkbox':
      return value === true ? 'true' : 'false';
    case 'datetime':
      if (value instanceof Date) return toLocalDateTime(value);
      break;
    case 'lines':
      if (isListOfLines(value)) return value.join('\n');
      break;
    case 'text':
      if (field.type === 'REFERENCE' && typeof value === 'object')
        return String((value as { _id?: unknown })._id ?? '');
      if (typeof value === 'string') return value;
      break;
    case 'number':
      if (typeof value === 'number') return String(value);
      break;
    case 'date':
      if (typeof value === 'string') return value;
      break;
    case 'json':
      break;
  }
  return JSON.stringify(value, null, 2);
}

/** The text of an input as the item's value; `undefined` leaves the field out. */
export function fromInputText(field: DataCollectionField, text: string): unknown {
  const kind = inputKind(field);
  if (kind === 'checkbox') return text === 'true';
  if (text.trim() === '') return undefined;
  const label = field.displayName || field.key;
  switch (kind) {
    case 'number': {
      const number = Number(text);
      if (Number.isNaN(number)) throw new FieldInputError(`${label}: "${text}" is not a number`);
      return number;
    }
    case 'datetime': {
      const date = new Date(text);
      if (Number.isNaN(date.getTime())) throw new FieldInputError(`${label}: "${text}" is not a date and time`);
      return date;
    }
    case 'lines':
      return (
        parseListOfStrings(text) ??
        text
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean)
      );
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new FieldInputError(`${label}: not valid JSON`);
      }
    default:
      return text;
  }
}

/**
 * The item the form saves: the edited item's values, with each field whose text the user changed
 * read back from its input. A field whose text is as the form first showed it keeps its value
 * exactly, so an edit of the title never rewrites a list, a date's seconds or a JSON value's shape.
 */
export function itemFromForm(
  fields: readonly DataCollectionField[],
  item: Readonly<Record<string, unknown>> | null,
  shownTexts: Readonly<Record<string, string>>,
  texts: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = item ? { ...item } : {};
  for (const field of fields) {
    const text = texts[field.key] ?? '';
    if (item && text === shownTexts[field.key]) continue;
    const value = fromInputText(field, text);
    if (value === undefined) delete values[field.key];
    else values[field.key] = value;
  }
  return values;
}

/** `YYYY-MM-DDTHH:mm` in local time, what `<input type="datetime-local">` holds. */
function toLocalDateTime(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
