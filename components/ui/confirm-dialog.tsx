'use client';

import { useEffect, useId, useRef, type ReactNode } from 'react';
import './confirm-dialog.css';

interface Props {
  /** Whether the dialog is shown; the caller owns the state, so a busy action can keep it open. */
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  /** The confirm button in red: the action removes or ends something. */
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  /** Cancel, Escape or closing the dialog any other way. */
  onCancel(): void;
  /**
   * The control focus goes back to when the dialog closes, asked for as it opens; by default whatever had
   * focus then (the button that asked). For an opener that is gone by then, e.g. an item of a menu that
   * closed as the dialog opened.
   */
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * A question before an action that is hard to take back (a revocation, a move to a closing stage). A native
 * modal <dialog>: the page behind it is inert, Escape cancels, focus moves into it on opening (to the safe
 * choice, Cancel, so a stray Enter takes nothing back) and back to the control that asked on closing.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', danger, busy, onConfirm, onCancel, returnFocus }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const returnTo = useRef(returnFocus);
  useEffect(() => {
    returnTo.current = returnFocus;
  });

  useEffect(() => {
    const el = dialog.current;
    if (!el || !open) return;
    const active = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    const opener = returnTo.current?.() ?? active;
    if (!el.open) el.showModal();
    cancel.current?.focus();
    return () => {
      if (el.open) el.close();
      // The opener may be gone (the row it lived in changed): then focus stays where the page put it.
      if (opener?.isConnected && !(opener as HTMLButtonElement).disabled) opener.focus();
    };
  }, [open]);

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(e) => {
        // Escape: the caller closes it (its state), so React and the element never disagree.
        e.preventDefault();
        if (!busy) onCancel();
      }}
    >
      {open && (
        <>
          <h2 id={titleId}>{title}</h2>
          <div id={bodyId}>{children}</div>
          <div className="actions">
            <button type="button" className={danger ? 'danger' : undefined} disabled={busy} onClick={onConfirm}>
              {confirmLabel}
            </button>
            <button ref={cancel} type="button" className="secondary" disabled={busy} onClick={onCancel}>
              {cancelLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
