/**
 * The three states every list shows around its data: loading (a spinner with words), failed (the
 * error in words, with its code) and empty (what to do next), so no page forgets one of them.
 */
import type { ReactNode } from 'react';
import { ErrorNotice } from './error-notice.js';
import { EmptyState, Loading } from './states.js';

/** The part of a TanStack query result this view reads. */
export interface QueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
}

/** Props of {@link QueryView}. */
export interface QueryViewProps<T> {
  query: QueryLike<T>;
  /** Shown while loading, e.g. "Loading items…". */
  loading: string;
  /** Shown above the error, e.g. "Could not load the items". */
  errorTitle: string;
  /** When the data counts as empty (default: an empty array). */
  isEmpty?: (data: T) => boolean;
  /** The empty state's title. */
  emptyTitle: string;
  /** What the empty state suggests doing. */
  emptyHint?: ReactNode;
  /** The data, once there is some. */
  children: (data: T) => ReactNode;
}

const isEmptyArray = (data: unknown): boolean => Array.isArray(data) && data.length === 0;

/** Renders the loading, error or empty state of `query`, or its data through `children`. */
export function QueryView<T>({
  query,
  loading,
  errorTitle,
  isEmpty = isEmptyArray,
  emptyTitle,
  emptyHint,
  children,
}: QueryViewProps<T>) {
  if (query.isPending) return <Loading label={loading} />;
  if (query.isError || query.data === undefined) return <ErrorNotice title={errorTitle} error={query.error} />;
  if (isEmpty(query.data)) return <EmptyState title={emptyTitle}>{emptyHint}</EmptyState>;
  return <>{children(query.data)}</>;
}
