/** The end of every form: how its last submission went, and a submit button that says when it is busy. */
import { useCallback, useRef, type ReactNode } from 'react';
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
        {/* One flex item: the notice stacks its children, which would split a sentence around its link. */}
        <span>{successText}</span>
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

/** Props of {@link FormFooter}. */
export interface FormFooterProps extends FormStatusProps {
  /** The submit button's label at rest, e.g. "Save settings". */
  submitLabel: string;
  /** Its label while busy, e.g. "Saving…". */
  pendingLabel: string;
  submitClassName?: string;
  /** Disables the button besides while busy (e.g. after a one-time success). */
  submitDisabled?: boolean;
  /** Shown at the far end of the button row (e.g. a "back to sign in" link). */
  aside?: ReactNode;
}

/** The status of the last submission, then the submit button (and an optional link beside it). */
export function FormFooter({
  mutation,
  errorTitle,
  successText,
  submitLabel,
  pendingLabel,
  submitClassName,
  submitDisabled,
  aside,
}: FormFooterProps) {
  return (
    <>
      <FormStatus mutation={mutation} errorTitle={errorTitle} successText={successText} />
      <div className={aside ? 'row-between' : 'row'}>
        <SubmitButton
          pending={mutation.isPending}
          pendingLabel={pendingLabel}
          className={submitClassName}
          disabled={submitDisabled}
        >
          {submitLabel}
        </SubmitButton>
        {aside}
      </div>
    </>
  );
}

/**
 * `mutateAsync` that runs once at a time: a second submission while the first is still running is
 * ignored. The submit button's `disabled` is not enough, because TanStack Query reports
 * `isPending` a tick after `mutate`, and a double click lands in between (two POSTs, the second
 * refused with a 409 nobody sees). The mutation's own state still holds the outcome.
 */
export function useSubmitOnce<V>(mutateAsync: (variables: V) => Promise<unknown>): (variables: V) => void {
  const running = useRef(false);
  return useCallback(
    (variables: V) => {
      if (running.current) return;
      running.current = true;
      mutateAsync(variables)
        // The failure is the mutation's error, shown by FormStatus; nothing else to do with it here.
        .catch(() => undefined)
        .finally(() => {
          running.current = false;
        });
    },
    [mutateAsync],
  );
}
