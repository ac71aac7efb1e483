'use client';

import { useId, useState } from 'react';
import { referencedMessage, ApiError } from '@/lib/api/api-error';
import type { ChangeRequestView } from '@/lib/bff/review';
import { REVIEW_TEXT_MAX } from '@/lib/bff/review-text';
import { FieldLink } from '@/components/intake-form/field-link';
import './review.css';

interface Props {
  requests: readonly ChangeRequestView[];
  onReply(requestId: string, text: string): Promise<unknown>;
}

/**
 * What staff asked the client to change, at the top of the form: each linked to its field (the link opens
 * its section and focuses it, and the field is described by the comment), with a reply.
 */
export function ThingsToFix({ requests, onReply }: Props) {
  const open = requests.filter((r) => r.status === 'open');
  if (open.length === 0) {
    return (
      <div className="notice success" role="status">
        <p>Everything the team asked for is done. Send the application back for review below.</p>
      </div>
    );
  }
  return (
    <section className="notice warning" aria-labelledby="things-to-fix">
      <h2 id="things-to-fix">{open.length === 1 ? '1 thing to fix' : `${open.length} things to fix`}</h2>
      <p>The team reviewed your application and asks for these changes. Fix each, then send it back for review at the end of the form.</p>
      <ol className="review-fix-list">
        {open.map((r) => (
          <li key={r.id}>
            {r.field_name ? <FieldLink name={r.field_name}>{r.label}</FieldLink> : <strong>{r.label}</strong>}
            <p className="review-comment">{r.comment}</p>
            {r.replies.length > 0 && (
              <ul className="review-replies" aria-label="Replies">
                {r.replies.map((p, i) => (
                  <li key={i}>
                    <strong>{p.by === 'client' ? 'You' : (p.name ?? 'The team')}:</strong> {p.text}
                  </li>
                ))}
              </ul>
            )}
            <ReplyForm onReply={(text) => onReply(r.id, text)} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReplyForm({ onReply }: { onReply(text: string): Promise<unknown> }) {
  const id = useId();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const left = REVIEW_TEXT_MAX - text.length;
  const submit = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await onReply(text);
      setText('');
    } catch (e) {
      setFailure(e instanceof ApiError ? referencedMessage(e) : 'The reply was not sent. Try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <details className="review-reply-form">
      <summary>Reply to the team</summary>
      <label htmlFor={`${id}-text`}>Your reply</label>
      <textarea id={`${id}-text`} rows={3} value={text} onChange={(e) => setText(e.target.value)} aria-describedby={`${id}-count`} />
      <p id={`${id}-count`} className={left < 0 ? 'field-error' : 'muted'} aria-live="polite">
        {left >= 0 ? `${left} characters left` : `${-left} characters too many`}
      </p>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="button" className="secondary" disabled={busy || left < 0 || text.trim() === ''} onClick={() => void submit()}>
        Send reply
      </button>
    </details>
  );
}
