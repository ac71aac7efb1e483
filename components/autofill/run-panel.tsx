'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useRef } from 'react';
import type { RunView } from '@/lib/bff/autofill';
import { preparationKey, runFinished, runQuery, runsKey } from '@/lib/queries/autofill';
import { useRetryRun } from '@/lib/queries/mutations/use-retry-run';
import { When } from '../ui/when';
import { messageOf } from './errors';
import { UnusedText } from './unused-text';

interface Props {
  applicationId: string;
  /** The newest run as the runs list gave it. */
  run: RunView;
  canEdit: boolean;
  canReview: boolean;
}

const STEP_TEXT: Record<string, string> = {
  queued: 'Waiting to start',
  reading_evidence: 'Reading the evidence',
  matching_fields: 'Matching the application’s questions',
  drafting_suggestions: 'Drafting suggestions',
  completed: 'Finished',
  failed: 'Failed',
};

const stepText = (step: string) => STEP_TEXT[step] ?? step.replace(/_/g, ' ');

/**
 * The newest run: a progress bar that moves while the run works (the run is polled until it finishes), the
 * failure and a Retry when it failed and may be retried, a link to the suggestions when it completed.
 */
export function RunPanel({ applicationId, run: listed, canEdit, canReview }: Props) {
  const queryClient = useQueryClient();
  const { data: run = listed } = useQuery({ ...runQuery(applicationId, listed.id), initialData: listed });
  const retrier = useRetryRun(applicationId);
  const retrying = retrier.isPending;
  const error = retrier.error ? `The run was not retried. ${messageOf(retrier.error)}` : '';
  const headingRef = useRef<HTMLHeadingElement>(null);

  // When the run ends the preparation can start again and the list should know: read both once.
  const finished = runFinished(run);
  const wasFinished = useRef(finished);
  useEffect(() => {
    if (finished && !wasFinished.current) {
      void queryClient.invalidateQueries({ queryKey: preparationKey(applicationId) });
      queryClient.setQueryData<RunView[]>(runsKey(applicationId), (list) => list?.map((r) => (r.id === run.id ? run : r)));
    }
    wasFinished.current = finished;
  }, [finished, queryClient, applicationId, run]);

  function retry() {
    if (retrying) return;
    retrier.mutate(run.id, { onSuccess: () => headingRef.current?.focus() });
  }

  const { completed_units: done, total_units: total } = run.progress;
  const percent = total > 0 ? Math.round((100 * done) / total) : 0;
  return (
    <section className="autofill-panel" aria-labelledby="autofill-run-title" data-run-status={run.status}>
      <h2 id="autofill-run-title" ref={headingRef} tabIndex={-1}>
        Latest run
      </h2>
      <p className="muted">
        Started <When iso={run.created_at} />
        {run.attempt_sequence && run.attempt_sequence > 1 ? `, attempt ${run.attempt_sequence}` : ''}
      </p>
      <div className="autofill-progress">
        <progress aria-label="Autofill progress" aria-describedby="autofill-run-step" value={done} max={Math.max(total, 1)} />
        <span aria-hidden="true">{percent}%</span>
      </div>
      <p id="autofill-run-step" role="status" className="autofill-step">
        {run.status === 'completed'
          ? `Finished: ${run.suggestion_count} suggestion${run.suggestion_count === 1 ? '' : 's'}${run.warning_count > 0 ? `, ${run.warning_count} with warnings` : ''}.`
          : run.status === 'failed'
            ? 'Autofill failed.'
            : `${stepText(run.progress.step)} (step ${Math.min(done + 1, Math.max(total, 1))} of ${Math.max(total, 1)})`}
      </p>
      {run.status === 'failed' && (
        <div className="notice warning" role="alert">
          <p>
            <strong>Why:</strong> {run.failure?.message ?? 'The Portal gave no reason.'}
          </p>
          {run.can_retry && canEdit && (
            <button type="button" onClick={retry} disabled={retrying}>
              {retrying ? 'Retrying…' : 'Retry'}
            </button>
          )}
        </div>
      )}
      {run.status === 'completed' && <UnusedText applicationId={applicationId} runId={run.id} />}
      {run.status === 'completed' &&
        (canReview ? (
          <p>
            <Link href={`/applications/${applicationId}/review?run=${encodeURIComponent(run.id)}`}>Review the suggestions</Link>
          </p>
        ) : (
          <p>Staff will review the suggestions; accepted ones appear in your application.</p>
        ))}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
