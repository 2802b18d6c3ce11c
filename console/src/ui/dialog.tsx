/**
 * A modal dialog on the native `<dialog>` element: the browser traps focus, Escape closes it and
 * focus returns to the opener, which is what keyboard users expect.
 */
import { useEffect, useRef, type ReactNode } from 'react';

/** Props of {@link Dialog}. */
export interface DialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
}

/** A modal with a title; render it with `open` and close it from `onClose`. */
export function Dialog({ open, title, onClose, children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The browser would focus the Close button; the first field is where a person starts typing.
      dialog.querySelector<HTMLElement>('input, select, textarea')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} aria-label={title} onClose={onClose} onCancel={onClose}>
      {open && (
        <div className="dialog-body">
          <div className="row-between">
            <h2>{title}</h2>
            <button type="button" className="secondary small" onClick={onClose}>
              Close
            </button>
          </div>
          {children}
        </div>
      )}
    </dialog>
  );
}
