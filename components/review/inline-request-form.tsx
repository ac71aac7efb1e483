'use client';

import { useId, useState } from 'react';
import type { ChangeRequestCreateBody } from '@/lib/bff/review';
import { REVIEW_TEXT_MAX } from '@/lib/bff/review-text';

interface Props {
  /** What the change is asked of, as the client will read it ("Owners, item 1"). */
  what: string;
  target: ChangeRequestCreateBody['target'];
  busy: boolean;
  onRequest(body: ChangeRequestCreateBody): Promise<boolean>;
  /** Closed without a request, or after one was made: the caller puts focus back where it came from. */
  onClose(requested: boolean): void;
}

/** Review mode's request of a change to one answer, one item or one file, right beside it. */
export function InlineRequestForm({ what, target, busy, onRequest, onClose }: Props) {
  const id = useId();
  const [comment, setComment] = useState('');
  const [note, setNote] = useState('');
  const left = REVIEW_TEXT_MAX - comment.length;
  const submit = async () => {
    if (await onRequest({ target, comment, staff_note: note.trim() === '' ? null : note })) onClose(true);
  };
  return (
    <form
      className="review-request-form review-inline-form"
      aria-label={`Request a change: ${what}`}
      onSubmit={(e) => (e.preventDefault(), void submit())}
      onKeyDown={(e) => e.key === 'Escape' && (e.preventDefault(), onClose(false))}
    >
      <label htmlFor={`${id}-comment`}>What should change (the client reads this)</label>
      {/* Opened by its button to be written in at once. */}
      <textarea id={`${id}-comment`} rows={3} value={comment} autoFocus onChange={(e) => setComment(e.target.value)} aria-describedby={`${id}-count`} />
      <p id={`${id}-count`} className={left < 0 ? 'field-error' : 'muted'} aria-live="polite">
        {left >= 0 ? `${left} characters left` : `${-left} characters too many`}
      </p>
      <label htmlFor={`${id}-note`}>Note for staff only (optional)</label>
      <textarea id={`${id}-note`} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      <p className="review-buttons">
        <button type="submit" disabled={busy || left < 0 || comment.trim() === ''}>
          Request the change
        </button>
        <button type="button" className="secondary" onClick={() => onClose(false)}>
          Cancel
        </button>
      </p>
    </form>
  );
}
