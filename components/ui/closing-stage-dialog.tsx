'use client';

import { ConfirmDialog } from './confirm-dialog';

interface Props<T> {
  /** What is about to move, with the closing stage it would move to; null when nothing asks. */
  pending: { value: T; stageName: string } | null;
  /** "Harbour Street Café", "the deal": who moves. */
  subject: string;
  /** "business" or "deal": whose way through the pipeline ends. */
  noun: string;
  pipelineName: string;
  onConfirm: (value: T) => void;
  onCancel: () => void;
  /** Where focus returns when the opener is gone by then (see ConfirmDialog). */
  returnFocus?: () => HTMLElement | null | undefined;
}

/** The confirmation before a move to a closing stage (business, deal or board card): one click must not end a way through a pipeline. */
export function ClosingStageDialog<T>({ pending, subject, noun, pipelineName, onConfirm, onCancel, returnFocus }: Props<T>) {
  const stageName = pending?.stageName ?? '';
  return (
    <ConfirmDialog
      open={pending !== null}
      title={`Move ${subject} to ${stageName}?`}
      confirmLabel={`Move to ${stageName}`}
      danger
      onConfirm={() => {
        onCancel();
        if (pending) onConfirm(pending.value);
      }}
      onCancel={onCancel}
      returnFocus={returnFocus}
    >
      <p>
        {stageName} is a closing stage of {pipelineName}: the {noun}’s way through it ends there.
      </p>
    </ConfirmDialog>
  );
}
