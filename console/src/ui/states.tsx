/** Loading and empty states, so no page is ever a blank rectangle. */
import type { ReactNode } from 'react';

/** A spinner with words, announced to screen readers. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

/** Props of {@link EmptyState}. */
export interface EmptyStateProps {
  title: string;
  children?: ReactNode;
}

/** What a list shows when it has nothing yet, and what to do about it. */
export function EmptyState({ title, children }: EmptyStateProps) {
  return (
    <div className="empty" data-testid="empty-state">
      <strong>{title}</strong>
      {children}
    </div>
  );
}

/** A determinate progress bar (0–1). */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
    >
      <div style={{ width: `${percent}%` }} />
    </div>
  );
}
