'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { ApiError } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { BusinessStageTransitionView, BusinessView } from '@/lib/bff/businesses';
import { businessKey, businessQuery, businessStagesQuery } from '@/lib/queries/business';

interface Move {
  stageId: string;
  stageName: string;
  etag: string;
  key: string;
}

type Notice = { kind: 'done' | 'problem'; text: string } | null;

const TransitionReply = z.object({ transition: BusinessStageTransitionView });
/** The 412 reply carries the business as it is now. */
const ConflictBody = z.object({ current: BusinessView });

/** The request may have reached the Portal: retrying the same move reuses its Idempotency-Key. */
const outcomeUnknown = (e: unknown) => e instanceof ApiError && (e.status === 0 || e.status === 429 || e.status >= 500);

/**
 * The business's pipeline as a stepper: every stage in order, the current one marked, and a move to each
 * other stage. A move quotes the ETag the page last read (If-Match); when someone moved the business first
 * the Portal refuses it (412), and the page shows where the business is now and lets the person decide again.
 */
export function WorkflowStepper({ business }: { business: BusinessView }) {
  const queryClient = useQueryClient();
  const stages = useQuery(businessStagesQuery(business.id));
  const [notice, setNotice] = useState<Notice>(null);
  const lastFailed = useRef<Move | null>(null);
  const currentStep = useRef<HTMLLIElement>(null);
  const [focusCurrent, setFocusCurrent] = useState(0);
  const currentId = business.workflow.stage.id;

  useEffect(() => {
    if (focusCurrent > 0) currentStep.current?.focus();
  }, [focusCurrent]);

  const move = useMutation({
    mutationFn: (m: Move) =>
      apiFetch(`/api/businesses/${business.id}/stage-transitions`, {
        method: 'POST',
        body: { stage_id: m.stageId },
        headers: { 'If-Match': m.etag, 'Idempotency-Key': m.key },
        schema: TransitionReply,
      }),
    onSuccess: ({ transition }) => {
      lastFailed.current = null;
      queryClient.setQueryData(businessQuery(business.id).queryKey, (old) =>
        old
          ? {
              ...old,
              revision: transition.revision,
              etag: transition.etag,
              workflow: { ...old.workflow, stage: transition.stage },
              status: { ...old.status, stage: transition.stage.name, updated_at: transition.updated_at },
            }
          : old,
      );
      setNotice({ kind: 'done', text: `Moved to ${transition.stage.name}.` });
      setFocusCurrent((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: businessKey(business.id), exact: true });
    },
    onError: (e, m) => {
      lastFailed.current = outcomeUnknown(e) ? m : null;
      if (e instanceof ApiError && e.status === 412) {
        const parsed = ConflictBody.safeParse(e.body);
        if (parsed.success) {
          const now = parsed.data.current;
          queryClient.setQueryData(businessQuery(business.id).queryKey, now);
          const already = now.workflow.stage.id === m.stageId;
          setNotice({
            kind: 'problem',
            text: already
              ? `Someone moved it meanwhile: it is now in ${now.workflow.stage.name}, where you wanted it. Nothing else to do.`
              : `Someone moved it meanwhile: now in ${now.workflow.stage.name}. It was not moved to ${m.stageName}; check the stage and move it again if you still want to.`,
          });
          if (already) setFocusCurrent((n) => n + 1);
          return;
        }
        void queryClient.invalidateQueries({ queryKey: businessKey(business.id), exact: true });
      }
      const text = e instanceof ApiError ? `${e.message}${e.requestId ? ` (reference ${e.requestId})` : ''}` : 'The move failed.';
      const retry = outcomeUnknown(e) ? ' Trying again is safe: it will not be moved twice.' : '';
      setNotice({ kind: 'problem', text: `It was not moved to ${m.stageName}. ${text}${retry}` });
    },
  });

  function start(stage: { id: string; name: string }) {
    const again = lastFailed.current;
    const key = again && again.stageId === stage.id && again.etag === business.etag ? again.key : crypto.randomUUID();
    setNotice(null);
    move.mutate({ stageId: stage.id, stageName: stage.name, etag: business.etag, key });
  }

  return (
    <section aria-labelledby="biz-workflow-title" className="stack">
      <h2 id="biz-workflow-title">Workflow</h2>
      <div role="alert">{notice?.kind === 'problem' && <p className="notice warning">{notice.text}</p>}</div>
      <div role="status">{notice?.kind === 'done' && <p className="notice success">{notice.text}</p>}</div>
      {stages.isPending && (
        <p role="status" className="loading">
          Loading the stages…
        </p>
      )}
      {stages.error && (
        <div className="notice warning" role="alert">
          <p>The stages could not be loaded: {stages.error.message}</p>
          <button type="button" onClick={() => void stages.refetch()}>
            Try again
          </button>
        </div>
      )}
      {stages.data && (
        <ol className="biz-stepper" aria-label={`Stages of ${stages.data.pipeline.name}`}>
          {stages.data.items.map((s, i) => {
            const current = s.id === currentId;
            const moving = move.isPending && move.variables?.stageId === s.id;
            return (
              <li
                key={s.id}
                ref={current ? currentStep : undefined}
                tabIndex={current ? -1 : undefined}
                aria-current={current ? 'step' : undefined}
                className={current ? 'biz-step biz-step-current' : 'biz-step'}
              >
                <span className="biz-step-number" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="biz-step-name">{s.name}</span>
                {current ? (
                  <span className="biz-step-note">Current stage</span>
                ) : (
                  <button type="button" className="secondary" disabled={move.isPending} onClick={() => start(s)}>
                    {moving ? `Moving to ${s.name}…` : `Move to ${s.name}`}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
