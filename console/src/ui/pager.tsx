/** Previous / next paging for offset-paged lists. */

/** Props of {@link Pager}. */
export interface PagerProps {
  /** Zero-based offset of the first row shown. */
  offset: number;
  /** Rows per page. */
  limit: number;
  /** Rows shown on this page. */
  count: number;
  /** All rows, when the server counted them. */
  total?: number;
  /** Whether a next page exists (used when there is no total). */
  hasNext: boolean;
  onChange(offset: number): void;
}

/** "Showing 21–40 of 300", with Previous and Next buttons. */
export function Pager({ offset, limit, count, total, hasNext, onChange }: PagerProps) {
  const first = count === 0 ? 0 : offset + 1;
  const last = offset + count;
  return (
    <nav className="pager" aria-label="Pages">
      <span className="muted" data-testid="pager-status">
        {count === 0 ? 'No rows' : `Showing ${first}–${last}${total !== undefined ? ` of ${total}` : ''}`}
      </span>
      <span className="row">
        <button
          type="button"
          className="secondary small"
          disabled={offset === 0}
          onClick={() => onChange(Math.max(0, offset - limit))}
        >
          Previous
        </button>
        <button type="button" className="secondary small" disabled={!hasNext} onClick={() => onChange(offset + limit)}>
          Next
        </button>
      </span>
    </nav>
  );
}
