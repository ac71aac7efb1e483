'use client';

import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { FormBase } from '@/lib/api/form-base';
import type { ContractView } from '@/lib/bff/applications';
import type { ChangeRequestView } from '@/lib/bff/review';
import { REVIEW_STATE_TEXT, REVIEW_TEXT_MAX } from '@/lib/bff/review-text';
import { applicationContractQuery } from '@/lib/queries/application-contract';
import { reviewQuery, useReviewAction, type ReviewAction } from '@/lib/queries/review';
import { When } from '@/components/ui/when';
import { ReviewMode } from './review-mode';
import './review.css';

/** A question staff may ask to change: the form's answers outside lists, files aside. */
interface ReviewQuestion {
  schema_key: string;
  field_key: string;
  label: string;
}

interface Props {
  apiBase: FormBase;
  applicationId: string;
}

/**
 * The answers a change may be asked of, from the contract, read when the request form first shows: a large
 * form's 1,200 labels would otherwise ride along in every page of it.
 */
function reviewQuestions(contract: ContractView): ReviewQuestion[] {
  const listed = new Set(contract.repeatable_groups.map((g) => g.block_key));
  return contract.questions
    .filter((q) => !listed.has(q.block_key) && q.answer_shape !== 'file')
    .flatMap((q) => q.fields.map((f) => ({ schema_key: q.schema_key, field_key: f.field_key, label: q.fields.length > 1 ? `${q.label} – ${f.label}` : q.label })));
}

const failureText = (e: unknown) =>
  e instanceof ApiError ? (e.status === 412 ? 'The review changed meanwhile (shown now): check it, then try again.' : referencedMessage(e)) : 'That did not work. Try again.';

/**
 * Staff's side of review before submit: the state, the change requests with the client's replies, a form to
 * request a change of one answer (or review mode, which asks it of any answer, item or file beside it and
 * marks answers "Looks right"), and sending the requests to the client (who is mailed). Submitting to the
 * Portal is the form's own Submit below.
 */
export function StaffReviewPanel({ apiBase, applicationId }: Props) {
  const { data: review } = useQuery(reviewQuery(apiBase, applicationId));
  const action = useReviewAction(apiBase, applicationId);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [reviewMode, setReviewMode] = useState(false);
  const modeId = useId();
  if (!review) return null;
  const run = async (a: ReviewAction, message: string) => {
    setFailure(null);
    setDone(null);
    try {
      await action.mutateAsync(a);
      setDone(message);
      return true;
    } catch (e) {
      setFailure(failureText(e));
      return false;
    }
  };
  const reviewing = review.state === 'in_review' || review.state === 'changes_requested';
  return (
    <section className="review-panel" aria-labelledby="review-title">
      <h2 id="review-title">Review</h2>
      <p>
        State: <strong>{REVIEW_STATE_TEXT[review.state]}</strong>
        {review.client_submits ? ' (the client submits to the Portal without a review)' : ''}
      </p>
      {review.requests.length > 0 && (
        <ul className="review-requests" aria-label="Change requests">
          {review.requests.map((r) => (
            <RequestItem key={r.id} request={r} busy={action.isPending} onResolve={() => void run({ kind: 'resolve', body: { request_id: r.id } }, 'Marked resolved.')} />
          ))}
        </ul>
      )}
      {reviewing && (
        <p>
          <button type="button" className="secondary" aria-expanded={reviewMode} aria-controls={modeId} onClick={() => setReviewMode(!reviewMode)}>
            Review mode
          </button>
        </p>
      )}
      {reviewing && reviewMode && (
        <div id={modeId}>
          <ReviewMode
            apiBase={apiBase}
            applicationId={applicationId}
            requests={review.requests}
            requesting={action.isPending}
            onRequest={(body) => run({ kind: 'request', body }, 'Change requested.')}
          />
        </div>
      )}
      {reviewing && !reviewMode && <RequestForm applicationId={applicationId} busy={action.isPending} onRequest={(body) => run({ kind: 'request', body }, 'Change requested.')} />}
      {review.state === 'in_review' && review.open_count > 0 && (
        <button type="button" disabled={action.isPending} onClick={() => void run({ kind: 'return' }, 'Sent to the client, who is mailed.')}>
          Send the requests to the client
        </button>
      )}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <p role="status">{done}</p>
    </section>
  );
}

function RequestItem({ request: r, busy, onResolve }: { request: ChangeRequestView; busy: boolean; onResolve(): void }) {
  const id = useId();
  return (
    <li>
      <p id={`${id}-what`}>
        <strong>{r.label}</strong> — {r.status === 'open' ? 'open' : r.resolved_how === 'changed' ? 'resolved by the client’s change' : 'resolved'}
      </p>
      <p className="review-comment">{r.comment}</p>
      {r.staff_note && <p className="muted">Staff note: {r.staff_note}</p>}
      {r.changed && (
        <p>
          Changed from “{r.changed.from}” to “{r.changed.to}”
        </p>
      )}
      {r.replies.map((p, i) => (
        <p key={i} className="review-comment">
          <strong>{p.by === 'client' ? 'The client' : (p.name ?? 'Staff')}</strong> (<When iso={p.at} />): {p.text}
        </p>
      ))}
      {r.status === 'open' && (
        <button type="button" className="secondary" disabled={busy} aria-describedby={`${id}-what`} onClick={onResolve}>
          Mark resolved
        </button>
      )}
    </li>
  );
}

function RequestForm({ applicationId, busy, onRequest }: { applicationId: string; busy: boolean; onRequest(body: { target: { kind: 'answer'; schema_key: string; field_key: string }; comment: string; staff_note: string | null }): Promise<boolean> }) {
  const id = useId();
  const { data: contract, isError } = useQuery(applicationContractQuery(applicationId));
  const questions = useMemo(() => (contract ? reviewQuestions(contract) : []), [contract]);
  const [question, setQuestion] = useState(0);
  const [comment, setComment] = useState('');
  const [note, setNote] = useState('');
  const left = REVIEW_TEXT_MAX - comment.length;
  const q = questions[question];
  const submit = async () => {
    if (!q) return;
    const ok = await onRequest({ target: { kind: 'answer', schema_key: q.schema_key, field_key: q.field_key }, comment, staff_note: note.trim() === '' ? null : note });
    if (ok) {
      setComment('');
      setNote('');
    }
  };
  return (
    <form className="review-request-form" onSubmit={(e) => (e.preventDefault(), void submit())} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Request a change</h3>
      <label htmlFor={`${id}-question`}>Answer to change</label>
      {isError && <p className="field-error">The questions could not be loaded. Reload the page to try again.</p>}
      <select id={`${id}-question`} value={question} disabled={!contract} onChange={(e) => setQuestion(Number(e.target.value))}>
        {questions.map((x, i) => (
          <option key={`${x.schema_key}.${x.field_key}`} value={i}>
            {x.label}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-comment`}>What should change (the client reads this)</label>
      <textarea id={`${id}-comment`} rows={3} value={comment} onChange={(e) => setComment(e.target.value)} aria-describedby={`${id}-count`} />
      <p id={`${id}-count`} className={left < 0 ? 'field-error' : 'muted'} aria-live="polite">
        {left >= 0 ? `${left} characters left` : `${-left} characters too many`}
      </p>
      <label htmlFor={`${id}-note`}>Note for staff only (optional)</label>
      <textarea id={`${id}-note`} rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      <p>
        <button type="submit" disabled={busy || left < 0 || comment.trim() === '' || !q}>
          Request the change
        </button>
      </p>
    </form>
  );
}
