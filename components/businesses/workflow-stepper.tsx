'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, outcomeUnknown, referencedMessage } from '@/lib/api/api-error';
import type { BusinessView } from '@/lib/bff/businesses';
import { closingStageIds } from '@/lib/bff/closing-stages';
import { businessStagesQuery } from '@/lib/queries/business';
import { useMoveBusinessStage } from '@/lib/queries/mutations/use-move-business-stage';
import { ClosingStageDialog } from '../ui/closing-stage-dialog';
import { LoadState } from '../ui/load-state';
import { Notice, type NoticeState } from '../ui/notice';

/**
 * The business's pipeline as a stepper: every stage in order, the current one marked, and a move to each
 * other stage. A move quotes the ETag the page last read (If-Match); when someone moved the business first
 * the Portal refuses it (412), and the page shows where the business is now and lets the person decide again.
 */
export function WorkflowStepper({ business }: { business: BusinessView }) {
  const stages = useQuery(businessStagesQuery(business.id));
  const move = useMoveBusinessStage(business.id);
  const [notice, setNotice] = useState<NoticeState>(null);
  const currentStep = useRef<HTMLLIElement>(null);
  const [focusCurrent, setFocusCurrent] = useState(0);
  const [confirming, setConfirming] = useState<{ id: string; name: string } | null>(null);
  const currentId = business.workflow.stage.id;
  const closing = useMemo(() => closingStageIds(stages.data?.items ?? []), [stages.data]);

  useEffect(() => {
    if (focusCurrent > 0) currentStep.current?.focus();
  }, [focusCurrent]);

  function start(stage: { id: string; name: string }) {
    setNotice(null);
    move.mutate(
      { stageId: stage.id, stageName: stage.name, etag: business.etag },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'moved') {
            setNotice({ kind: 'done', text: `Moved to ${outcome.transition.stage.name}.` });
            setFocusCurrent((n) => n + 1);
            return;
          }
          const now = outcome.current;
          const already = now.workflow.stage.id === stage.id;
          setNotice({
            kind: 'problem',
            text: already
              ? `Someone moved it meanwhile: it is now in ${now.workflow.stage.name}, where you wanted it. Nothing else to do.`
              : `Someone moved it meanwhile: now in ${now.workflow.stage.name}. It was not moved to ${stage.name}; check the stage and move it again if you still want to.`,
          });
          if (already) setFocusCurrent((n) => n + 1);
        },
        onError: (e) => {
          const text = e instanceof ApiError ? referencedMessage(e) : 'The move failed.';
          const retry = outcomeUnknown(e) ? ' Trying again is safe: it will not be moved twice.' : '';
          setNotice({ kind: 'problem', text: `It was not moved to ${stage.name}. ${text}${retry}` });
        },
      },
    );
  }

  return (
    <section aria-labelledby="biz-workflow-title" className="stack">
      <h2 id="biz-workflow-title">Workflow</h2>
      <Notice notice={notice} />
      <LoadState query={stages} what="the stages" />
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
                  <button
                    type="button"
                    className="secondary"
                    disabled={move.isPending}
                    // A closing stage ends the business's pipeline: asked first, any other move goes at once.
                    onClick={() => (closing.has(s.id) ? setConfirming(s) : start(s))}
                  >
                    {moving ? `Moving to ${s.name}…` : `Move to ${s.name}`}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <ClosingStageDialog
        pending={confirming && { value: confirming, stageName: confirming.name }}
        subject={business.name ?? 'this business'}
        noun="business"
        pipelineName={stages.data?.pipeline.name ?? 'the pipeline'}
        onConfirm={start}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
