'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { RUN_SILENCE_MS, latestRunQuery, matchesKey, projectKey, runFinished } from '@/lib/queries/projects';
import { useRetryMatchRun } from '@/lib/queries/mutations/use-retry-match-run';
import { useStartMatchRun } from '@/lib/queries/mutations/use-start-match-run';
import { checkForm, problemsFromDetails, type Problem } from '../intake-form/form-check';
import { ProblemList } from '../intake-form/problem-list';
import { useFormEnv } from '../intake-form/runtime-context';
import type { LiveState } from '../live/use-live-events';
import { LoadState } from '../ui/load-state';

/** Why a start was refused, in the page's words (a 422's missing criteria are listed with links instead). */
function startProblem(e: Error): string {
  if (e instanceof ApiError && e.status === 412) return 'The criteria changed while the run was starting. Check them and find funders again.';
  if (e instanceof ApiError && e.status === 422) return 'Answer the required criteria first.';
  if (e instanceof ApiError && e.status === 409) return 'A run is already under way.';
  return e.message;
}

const missingOf = (e: Error | null) => (e instanceof ApiError && e.status === 422 && e.details.length > 0 ? e : null);

/**
 * "Find funders": checks the criteria as a submit checks an application (everything saved, then what is
 * missing listed with a link to each field; the Portal's own 422 list the same way), starts a match run,
 * shows its progress (funders screened) while it works, and its failure with a Retry. The bar moves with the
 * run's live events (the project page puts them in); the run is read every second only while live updates are
 * down (and the page says so), or once after a silence. It sits below the criteria form, whose runtime it reads.
 */
export function FindFunders({ projectId, live }: { projectId: string; live: LiveState }) {
  const { runtime } = useFormEnv();
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [checking, setChecking] = useState(false);
  const [unsaved, setUnsaved] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();
  const latest = useQuery(latestRunQuery(projectId, live === 'down'));
  const start = useStartMatchRun(projectId);
  const retry = useRetryMatchRun(projectId);
  const run = latest.data ?? null;

  // A run that ends brings new results and a new project status: read both (the live event may be late or lost).
  const finished = run !== null && runFinished(run);
  const wasFinished = useRef(finished);
  useEffect(() => {
    if (finished && !wasFinished.current) {
      void queryClient.invalidateQueries({ queryKey: matchesKey(projectId) });
      void queryClient.invalidateQueries({ queryKey: projectKey(projectId) });
    }
    wasFinished.current = finished;
  }, [finished, queryClient, projectId]);
  const working = run !== null && (run.status === 'pending' || run.status === 'running');
  const busy = checking || start.isPending || retry.isPending || working;

  const show = (list: Problem[]) => {
    setProblems(list);
    runtime.markSubmitAttempted();
    requestAnimationFrame(() => listRef.current?.focus());
  };
  const refused = (e: Error) => {
    const missing = missingOf(e);
    if (missing) show(problemsFromDetails(runtime, missing.details));
  };

  async function find() {
    setProblems(null);
    setUnsaved(false);
    setChecking(true);
    try {
      const check = await checkForm(runtime);
      if (check.kind === 'problems') return show(check.problems);
      if (check.kind === 'unsaved') return setUnsaved(true);
      start.mutate(undefined, { onError: refused });
    } finally {
      setChecking(false);
    }
  }

  // Live, but nothing heard of a working run for a while: its events may be lost, so read it once.
  const { dataUpdatedAt, refetch } = latest;
  useEffect(() => {
    if (!working || live !== 'open') return;
    const t = setTimeout(() => void refetch(), RUN_SILENCE_MS);
    return () => clearTimeout(t);
  }, [working, live, dataUpdatedAt, refetch]);

  const { completed_units: done = 0, total_units: total = 0 } = run?.progress ?? {};
  return (
    <section aria-labelledby="find-funders-title" className="funding-run stack" data-run-status={run?.status ?? 'none'}>
      <h2 id="find-funders-title">Find funders</h2>
      <LoadState query={latest} what="the latest run" />
      <p className="muted">Every funder is screened against the saved criteria; the results rank them with the reasons.</p>
      {run && (
        <div className="funding-progress">
          <progress aria-label="Funders screened" aria-describedby="funding-run-step" value={done} max={Math.max(total, 1)} />
          <span aria-hidden="true">
            {done} / {total}
          </span>
        </div>
      )}
      <p id="funding-run-step" role="status">
        {!run
          ? 'No run yet.'
          : run.status === 'completed'
            ? `Finished: ${run.match_count} match${run.match_count === 1 ? '' : 'es'} from ${total} funders screened.`
            : run.status === 'failed'
              ? 'The run failed.'
              : `Screening funders: ${done} of ${total} done.`}
      </p>
      {working && live === 'down' && <p className="muted">Live updates are not reaching this page: the run is checked every second instead.</p>}
      {run?.status === 'failed' && (
        <div className="notice warning" role="alert">
          <p>
            <strong>Why:</strong> {run.failure?.message ?? 'The Portal gave no reason.'}
          </p>
          {run.can_retry && (
            <button type="button" onClick={() => (setProblems(null), retry.mutate(run.id, { onError: refused }))} disabled={busy}>
              {retry.isPending ? 'Retrying…' : 'Retry the run'}
            </button>
          )}
        </div>
      )}
      <div className="actions">
        <button type="button" onClick={() => void find()} disabled={busy}>
          {checking ? 'Checking the criteria…' : start.isPending ? 'Starting…' : working ? 'Finding funders…' : run ? 'Find funders again' : 'Find funders'}
        </button>
      </div>
      {problems && problems.length > 0 && <ProblemList ref={listRef} problems={problems} before="before funders can be found" />}
      {unsaved && (
        <p className="form-error" role="alert">
          Some criteria are not saved yet. Find funders again once the status says “All changes saved”.
        </p>
      )}
      {start.error && !missingOf(start.error) && (
        <p className="field-error" role="alert">
          The run did not start. {startProblem(start.error)}
        </p>
      )}
      {retry.error && !missingOf(retry.error) && (
        <p className="field-error" role="alert">
          The run was not retried. {retry.error.message}
        </p>
      )}
    </section>
  );
}
