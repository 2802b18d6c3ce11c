/** The console's table (admin lists, the site's browse page): a scrolling wrapper, one heading row, one row an entry. */
import type { Key, ReactNode } from 'react';

/** Props of {@link DataTable}. */
export interface DataTableProps<Row> {
  /** The column headings in order; an empty string for a column without one (e.g. the actions). */
  headings: readonly ReactNode[];
  /** Tooltips of the headings, in the same order (e.g. a field's key under its display name); none when omitted. */
  headingTitles?: readonly (string | undefined)[];
  /** The entries, one table row each. */
  rows: readonly Row[];
  /** A key unique among the rows (an ID). */
  rowKey(row: Row): Key | undefined;
  /** The `<td>` cells of one row, one per heading. */
  cells(row: Row): ReactNode;
  /** The table's `data-testid`, for the browser tests. */
  testId?: string;
}

/** A table of `rows`, horizontally scrollable when wider than the page. */
export function DataTable<Row>({ headings, headingTitles, rows, rowKey, cells, testId }: DataTableProps<Row>) {
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        <thead>
          <tr>
            {headings.map((heading, index) => (
              // Headings have no state of their own: their position is their identity.
              <th key={index} title={headingTitles?.[index]}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>{cells(row)}</tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
