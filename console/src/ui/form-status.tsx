/** The end of every form: how its last submission went, and a submit button that says when it is busy. */
import type { ReactNode } from 'react';
import { ErrorNotice } from './error-notice.js';

/** The part of a TanStack mutation result these read. */
export interface MutationLike {
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  error: unknown;
}

/** Props of {@link FormStatus}. */
export interface FormStatusProps {
  mutation: MutationLike;
  /** Shown above the error, e.g. "Could not save the permissions". */
  errorTitle: string;
  /** Shown after a success, e.g. "Permissions saved." (nothing when omitted). */
  successText?: ReactNode;
}

/** The error of the last submission in words, or its success. */
export function FormStatus({ mutation, errorTitle, successText }: FormStatusProps) {
  if (mutation.isError) return <ErrorNotice title={errorTitle} error={mutation.error} />;
  if (mutation.isSuccess && successText) {
    return (
      <div className="notice notice-ok" role="status">
        {successText}
      </div>
    );
  }
  return null;
}

/** Props of {@link SubmitButton}. */
export interface SubmitButtonProps {
  pending: boolean;
  /** The label at rest, e.g. "Save profile". */
  children: ReactNode;
  /** The label while busy, e.g. "Saving…". */
  pendingLabel: string;
  className?: string;
  disabled?: boolean;
}

/** A submit button, disabled and relabelled while its form is busy. */
export function SubmitButton({ pending, children, pendingLabel, className, disabled = false }: SubmitButtonProps) {
  return (
    <button type="submit" className={className} disabled={pending || disabled}>
      {pending ? pendingLabel : children}
    </button>
  );
}
