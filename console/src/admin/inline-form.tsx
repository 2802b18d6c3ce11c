/** The admin pages' one-line form: its fields and submit button in a row, then how its last submission went. */
import type { ReactNode } from 'react';
import { FormStatus, SubmitButton, type MutationLike } from '../ui/form-status.js';

/** Props of {@link InlineForm}. */
export interface InlineFormProps {
  /** Called when the form is submitted (the browser's own submission is prevented). */
  onSubmit(): void;
  /** The mutation the form runs: its pending state relabels the button, its outcome shows below. */
  mutation: MutationLike;
  /** The submit button's label at rest, e.g. "Add field". */
  submitLabel: string;
  /** Its label while busy, e.g. "Saving…". */
  pendingLabel: string;
  submitClassName?: string;
  /** Disables the button besides while busy (e.g. until a confirmation is typed). */
  submitDisabled?: boolean;
  /** Shown above the error of a failed submission, e.g. "Could not save the collection". */
  errorTitle: string;
  /** The form's accessible name, when the fields do not make it clear. */
  label?: string;
  /** The fields. */
  children: ReactNode;
}

/** Fields and a submit button on one row; the error of the last submission below them. */
export function InlineForm({
  onSubmit,
  mutation,
  submitLabel,
  pendingLabel,
  submitClassName,
  submitDisabled,
  errorTitle,
  label,
  children,
}: InlineFormProps) {
  return (
    <>
      <form
        className="row"
        aria-label={label}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        <SubmitButton
          pending={mutation.isPending}
          pendingLabel={pendingLabel}
          className={submitClassName}
          disabled={submitDisabled}
        >
          {submitLabel}
        </SubmitButton>
      </form>
      <FormStatus mutation={mutation} errorTitle={errorTitle} />
    </>
  );
}
