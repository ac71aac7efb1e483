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
export function SubmitPanel({ onSubmitted }: { onSubmitted(app: ApplicationView): void }) {
  const { runtime, apiBase } = useFormEnv();
  const submitter = useSubmitApplication(apiBase);
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
      setBusy('Submitting…');
      const app = await submitter.mutateAsync();
      runtime.clearStorage();
      onSubmitted(app);
    } catch (e) {
      if (e instanceof ApiError && e.status === 422 && e.details.length > 0) show(problemsFromDetails(runtime, e.details));
      else setFailure(e instanceof ApiError ? referencedMessage(e) : 'Submitting failed. Try again.');
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="submit-panel" aria-labelledby="submit-title">
      <h2 id="submit-title">Submit</h2>
      <p className="muted">Check your answers, then submit. After submitting, the answers can no longer be changed.</p>
      {problems && problems.length > 0 && <ProblemList ref={listRef} problems={problems} before="before this application can be submitted" />}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="button" onClick={submit} disabled={busy !== null} aria-describedby={busy ? 'submit-busy' : undefined}>
        Submit application
      </button>
      {busy && (
        <p id="submit-busy" role="status">
          {busy}
        </p>
      )}
    </section>
  );
}
