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
}

/**
 * A question before an action that is hard to take back (a revocation, a move to a closing stage). A native
 * modal <dialog>: the page behind it is inert, Escape cancels, and focus moves into it on opening and back
 * to whatever had it (the button that asked) on closing.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel = 'Cancel', danger, busy, onConfirm, onCancel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const el = dialog.current;
    if (!el || !open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!el.open) el.showModal();
    confirm.current?.focus();
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
            <button ref={confirm} type="button" className={danger ? 'danger' : undefined} disabled={busy} onClick={onConfirm}>
              {confirmLabel}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={onCancel}>
              {cancelLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
