'use client';

import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { ApiError, referencedMessage } from '@/lib/api/api-error';
import type { StagesView } from '@/lib/bff/businesses';
import { closingStageIds } from '@/lib/bff/closing-stages';
import type { DealView } from '@/lib/bff/deals';
import { dealQuery } from '@/lib/queries/deals';
import { useMoveDealStage } from '@/lib/queries/mutations/use-move-deal-stage';
import { ClosingStageDialog } from '../ui/closing-stage-dialog';
import { recipientLabel, statusLabel } from './deal-labels';

interface Props {
  initialDeal: DealView;
  stages: StagesView;
  business: { id: string; name: string | null } | null;
}

type Outcome =
  | { kind: 'moved'; text: string }
  | { kind: 'changed'; text: string; retry: { id: string; name: string } }
  | { kind: 'failed'; text: string };

/** What moved under us, in words: the stage, or else some other change of the deal. */
function explainChange(before: DealView, now: DealView): string {
  if (before.workflow.stage.id !== now.workflow.stage.id) {
    return `Someone moved this deal from ${before.workflow.stage.name} to ${now.workflow.stage.name} after you opened it.`;
  }
  if (before.name !== now.name) return `Someone renamed this deal to “${now.name}” after you opened it.`;
  return 'Someone changed this deal after you opened it.';
}

/** A deal's facts and its workflow: every stage of its pipeline in order, with a move to any other. */
export function DealWorkflow({ initialDeal, stages, business }: Props) {
  const { data: deal } = useQuery({ ...dealQuery(initialDeal.id), initialData: initialDeal });
  const mover = useMoveDealStage();
  const busy = mover.isPending;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const messageRef = useRef<HTMLDivElement>(null);
  const currentIndex = stages.items.findIndex((s) => s.id === deal.workflow.stage.id);
  const closing = useMemo(() => closingStageIds(stages.items), [stages.items]);
  const [confirming, setConfirming] = useState<{ id: string; name: string } | null>(null);

  const show = (o: Outcome) => {
    setOutcome(o);
    // The button pressed is gone or moved: the message is where the person continues.
    requestAnimationFrame(() => messageRef.current?.focus());
  };

  const move = (target: { id: string; name: string }) => {
    const before = deal;
    setOutcome(null);
    mover.mutate(
      { before, stageId: target.id },
      {
        onSuccess: (result) => {
          if (result.kind === 'moved') {
            show({ kind: 'moved', text: `Moved to ${result.deal.workflow.stage.name}.` });
            return;
          }
          const now = result.current;
          if (now.workflow.stage.id === target.id) show({ kind: 'moved', text: `${explainChange(before, now)} It is already at ${target.name}.` });
          else show({ kind: 'changed', text: `${explainChange(before, now)} It is now at ${now.workflow.stage.name}; your move to ${target.name} was not made.`, retry: target });
        },
        onError: (e) =>
          show({ kind: 'failed', text: e instanceof ApiError ? `The deal was not moved: ${referencedMessage(e)}` : 'The deal was not moved. Try again.' }),
      },
    );
  };

  return (
    <>
      <div className="deals-head">
        <h1 id="deal-title">{deal.name}</h1>
      </div>
      <dl className="deals-facts">
        <dt>Business</dt>
        <dd>{business ? (business.name ?? business.id) : <span className="muted">Not named by the Portal</span>}</dd>
        <dt>For</dt>
        <dd>{recipientLabel(deal.recipient)}</dd>
        <dt>Pipeline</dt>
        <dd>{deal.workflow.pipeline.name}</dd>
        <dt>Stage</dt>
        <dd>{deal.workflow.stage.name}</dd>
        <dt>Status</dt>
        <dd>{statusLabel(deal.status)}</dd>
      </dl>

      <section className="deals-panel" aria-labelledby="workflow-title">
        <h2 id="workflow-title">Workflow</h2>
        <ol className="deals-stepper" aria-label={`Stages of ${stages.pipeline.name}`}>
          {stages.items.map((s, i) => {
            const current = s.id === deal.workflow.stage.id;
            return (
              <li key={s.id} aria-current={current ? 'step' : undefined}>
                <span>
                  {i + 1}. {s.name}
                </span>
                <span className="deals-step-state">{current ? 'Current stage' : currentIndex >= 0 && i < currentIndex ? 'Earlier stage' : 'Later stage'}</span>
                {!current && (
                  <button
                    type="button"
                    className="secondary"
                    // A closing stage (Won, Lost…) ends the deal: asked first, any other move goes at once.
                    onClick={() => (closing.has(s.id) ? setConfirming(s) : move(s))}
                    disabled={busy}
                  >
                    Move to {s.name}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
        {busy && (
          <p role="status" className="muted">
            Moving the deal…
          </p>
        )}
        <div ref={messageRef} tabIndex={-1}>
          <div role="status">{outcome?.kind === 'moved' && <p className="notice success">{outcome.text}</p>}</div>
          <div role="alert">
            {outcome?.kind === 'failed' && <p className="notice warning">{outcome.text}</p>}
            {outcome?.kind === 'changed' && (
              <div className="notice warning">
                <p>{outcome.text}</p>
                <button
                  type="button"
                  onClick={() => (closing.has(outcome.retry.id) ? setConfirming(outcome.retry) : move(outcome.retry))}
                  disabled={busy}
                >
                  Move to {outcome.retry.name} now
                </button>
              </div>
            )}
          </div>
        </div>
        <ClosingStageDialog
          pending={confirming && { value: confirming, stageName: confirming.name }}
          subject={deal.name}
          noun="deal"
          pipelineName={stages.pipeline.name}
          onConfirm={move}
          onCancel={() => setConfirming(null)}
        />
      </section>
    </>
  );
}
