'use client';

import { useRef, useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { ApplicationView } from '@/lib/bff/applications';
import { useSubmitApplication } from '@/lib/queries/mutations/use-submit-application';
import { checkForm, problemsFromDetails, type Problem } from './form-check';
import { ProblemList } from './problem-list';
import { useFormEnv } from './runtime-context';

/**
 * Submit: first everything typed is saved, then the form's own check lists what is missing (each linked
 * to its field); the Portal has the last word, and its 422 list is shown the same way.
 */
interface Props {
  onSubmitted(app: ApplicationView): void;
  /**
   * The client invited to send for review: the same check, then the application goes to staff (`send`,
   * which throws the 422 of what is missing alike) instead of the Portal. `again`: it was sent back to them.
   */
  review?: { send(): Promise<unknown>; again: boolean };
  /** Staff reviewing: the same submit, named for where it goes. */
  fromReview?: boolean;
}

export function SubmitPanel({ onSubmitted, review, fromReview = false }: Props) {
  const { runtime, apiBase } = useFormEnv();
  const submitter = useSubmitApplication(apiBase);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const show = (list: Problem[]) => {
    setProblems(list);
    runtime.markSubmitAttempted();
    requestAnimationFrame(() => listRef.current?.focus());
  };

  const submit = async () => {
    setFailure(null);
    setProblems(null);
    setBusy('Saving your latest answers…');
    try {
      const check = await checkForm(runtime);
      if (check.kind === 'problems') return show(check.problems);
      if (check.kind === 'unsaved') {
        setFailure('Some answers are not saved yet. Submit again once the status says “All changes saved”.');
        return;
      }
      if (review) {
        setBusy('Sending for review…');
        await review.send();
        setSent(true);
        return;
      }
      setBusy('Submitting…');
      const app = await submitter.mutateAsync();
      runtime.clearStorage();
      onSubmitted(app);
    } catch (e) {
      if (e instanceof ApiError && e.status === 422 && e.details.length > 0) show(problemsFromDetails(runtime, e.details));
      else setFailure(e instanceof ApiError ? referencedMessage(e) : `${review ? 'Sending' : 'Submitting'} failed. Try again.`);
    } finally {
      setBusy(null);
    }
  };

  const title = review ? (review.again ? 'Send back for review' : 'Send for review') : fromReview ? 'Submit to the Portal' : 'Submit';
  return (
    <section className="submit-panel" aria-labelledby="submit-title">
      <h2 id="submit-title">{title}</h2>
      <p className="muted">
        {review
          ? 'Check your answers, then send them to the team for review. While they review, the answers cannot be changed; they submit the application or ask you for changes.'
          : 'Check your answers, then submit. After submitting, the answers can no longer be changed.'}
      </p>
      {problems && problems.length > 0 && <ProblemList ref={listRef} problems={problems} before={review ? 'before this application can be sent for review' : 'before this application can be submitted'} />}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="button" onClick={submit} disabled={busy !== null} aria-describedby={busy ? 'submit-busy' : undefined}>
        {review ? title : fromReview ? 'Submit to the Portal' : 'Submit application'}
      </button>
      {sent && (
        <p role="status" className="notice success">
          Sent for review.
        </p>
      )}
      {busy && (
        <p id="submit-busy" role="status">
          {busy}
        </p>
      )}
    </section>
  );
}
