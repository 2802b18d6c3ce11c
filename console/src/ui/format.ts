/** How values look in tables: short, readable, never "[object Object]". */

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** A date and time in the reader's locale; '—' for nothing, the input as is when unreadable. */
export function formatDateTime(value: Date | string | number | undefined | null): string {
  if (value === undefined || value === null || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : dateTime.format(date);
}

/** A time of day with seconds, for logs. */
export function formatTime(value: Date | string | number | undefined | null): string {
  if (value === undefined || value === null || value === '') return '—';
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : timeOnly.format(date);
}

/** A byte count as B / KB / MB (the wire sends 64-bit sizes as decimal strings). */
export function formatBytes(value: number | string | undefined): string {
  const bytes = typeof value === 'string' ? Number(value) : value;
  if (bytes === undefined || !Number.isFinite(bytes)) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Any item field's value as one line of text. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  // A date stored at midnight UTC is a calendar date (a release date), not a moment.
  if (value instanceof Date) return value.getTime() % 86_400_000 === 0 ? dateOnly.format(value) : formatDateTime(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(formatValue).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    // A referenced item returned in full: its title says more than its JSON.
    if (typeof record._id === 'string') return String(record.title ?? record.name ?? record._id);
    return JSON.stringify(value);
  }
  return String(value);
}

/** The first characters of a long id, for narrow columns (the full id stays in the title attribute). */
export function shortId(id: string | undefined): string {
  if (!id) return '—';
  return id.length > 10 ? `${id.slice(0, 8)}…` : id;
}

/** The badge colour of an HTTP status: green for success, amber for 4xx, red for 5xx (or no answer). */
export function statusBadgeClass(status: number | undefined): string {
  if (status === undefined || status >= 500) return 'badge-danger';
  if (status >= 400) return 'badge-warn';
  return 'badge-ok';
}
