'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { ApiError, outcomeUnknown, referencedMessage } from '@/lib/api/api-error';
import type { BoardCardView, BoardView } from '@/lib/bff/workspace';
import { useMoveBoardCard } from '@/lib/queries/mutations/use-move-board-card';
import { ClosingStageDialog } from '../ui/closing-stage-dialog';
import { Notice, type NoticeState } from '../ui/notice';
import { FreshnessNote } from '../workspace/freshness-note';
import { BoardCard, MENU_BUTTON_CLASS } from './board-card';
import './board.css';

type Stage = BoardView['stages'][number];

/** A card's "Move to…" button. */
const menuButtonOf = (card: HTMLLIElement | undefined) => card?.querySelector<HTMLButtonElement>(`.${MENU_BUTTON_CLASS}`) ?? null;

/**
 * The pipeline board: one column per stage, the read model's cards in them. A move goes upstream with
 * If-Match (useMoveBoardCard); the card moves at once and goes back to where the business really is when the
 * Portal says someone moved it first. A move to a closing stage is confirmed first.
 */
export function PipelineBoard({ view, now }: { view: BoardView; now: string }) {
  const [cards, setCards] = useState<BoardCardView[]>(view.cards);
  const [notice, setNotice] = useState<NoticeState>(null);
  const [confirming, setConfirming] = useState<{ card: BoardCardView; stage: Stage } | null>(null);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const [focusCard, setFocusCard] = useState<{ id: string; n: number } | null>(null);
  const cardEls = useRef(new Map<string, HTMLLIElement>());
  const move = useMoveBoardCard();
  const stageById = new Map(view.stages.map((s) => [s.id, s]));
  const nameOf = (c: BoardCardView) => c.name ?? 'Unnamed business';

  useEffect(() => {
    if (focusCard) cardEls.current.get(focusCard.id)?.focus();
  }, [focusCard]);

  // A card put in a column goes to its top: it has the newest activity there.
  const place = (id: string, stageId: string) =>
    setCards((all) => {
      const card = all.find((c) => c.id === id);
      return card ? [{ ...card, stage_id: stageId }, ...all.filter((c) => c !== card)] : all;
    });
  const land = (id: string) => setFocusCard((f) => ({ id, n: (f?.n ?? 0) + 1 }));

  function request(card: BoardCardView, stageId: string) {
    const stage = stageById.get(stageId);
    if (!stage || stageId === card.stage_id || move.isPending) return;
    if (stage.closing) setConfirming({ card, stage });
    else start(card, stage);
  }

  function start(card: BoardCardView, stage: Stage) {
    const from = card.stage_id;
    const name = nameOf(card);
    setNotice(null);
    place(card.id, stage.id);
    move.mutate(
      { businessId: card.id, fromStageId: from, stageId: stage.id, stageName: stage.name },
      {
        onSuccess: (outcome) => {
          if (outcome.kind === 'moved') {
            setNotice({ kind: 'done', text: `Moved ${name} to ${stage.name}.` });
            land(card.id);
            return;
          }
          const now = outcome.current.workflow;
          // Put back where the business really is: its column here, or off this pipeline's board.
          const here = now.pipeline.id === view.pipeline.id && stageById.has(now.stage.id);
          if (here) place(card.id, now.stage.id);
          else setCards((all) => all.filter((c) => c.id !== card.id));
          setNotice({
            kind: 'problem',
            text:
              now.stage.id === stage.id
                ? `Someone moved ${name} meanwhile: it is already in ${now.stage.name}, where you wanted it.`
                : `Someone moved ${name} meanwhile: it is now in ${now.stage.name}${here ? '' : ` (${now.pipeline.name})`}. It was not moved to ${stage.name}; move it again if you still want to.`,
          });
          if (here) land(card.id);
        },
        onError: (e) => {
          place(card.id, from);
          const text = e instanceof ApiError ? referencedMessage(e) : 'The move failed.';
          const retry = outcomeUnknown(e) ? ' Trying again is safe: it will not be moved twice.' : '';
          setNotice({ kind: 'problem', text: `${name} was not moved to ${stage.name}. ${text}${retry}` });
          land(card.id);
        },
      },
    );
  }

  return (
    <div className="stack">
      {view.pipelines.length > 1 && (
        <nav aria-label="Pipelines" className="actions">
          {view.pipelines.map((p) => (
            <Link key={p.id} href={`/businesses/board?pipeline=${encodeURIComponent(p.id)}`} aria-current={p.id === view.pipeline.id ? 'page' : undefined}>
              {p.name}
            </Link>
          ))}
        </nav>
      )}
      <FreshnessNote freshness={view.freshness} now={now} canRefresh />
      <p className="muted">Drag a card to another column, or use its “Move to…” menu. Each column shows the {view.per_stage} businesses with the newest activity.</p>
      <Notice notice={notice} />
      <div className="board">
        {view.stages.map((stage) => {
          const inStage = cards.filter((c) => c.stage_id === stage.id);
          // The read model's count, moved along with the cards moved on this page.
          const total = stage.total + inStage.length - view.cards.filter((v) => v.stage_id === stage.id).length;
          return (
            <section
              key={stage.id}
              aria-labelledby={`board-${stage.id}`}
              className={dropTarget === stage.id ? 'board-column board-column-target' : 'board-column'}
              data-stage-id={stage.id}
              onDragOver={(e) => {
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                setDropTarget(stage.id);
              }}
              onDragLeave={() => setDropTarget((t) => (t === stage.id ? null : t))}
              onDrop={(e) => {
                e.preventDefault();
                setDropTarget(null);
                const card = cards.find((c) => c.id === e.dataTransfer.getData('text/plain'));
                if (card) request(card, stage.id);
              }}
            >
              <h2 id={`board-${stage.id}`}>
                {stage.name} <span className="board-count">({total})</span>
                {stage.closing && <span className="visually-hidden">, a closing stage</span>}
              </h2>
              {inStage.length === 0 ? (
                <p className="muted">No businesses.</p>
              ) : (
                <ul className="board-cards" aria-labelledby={`board-${stage.id}`}>
                  {inStage.map((card) => (
                    <BoardCard
                      key={card.id}
                      card={card}
                      stages={view.stages}
                      moving={move.isPending && move.variables?.businessId === card.id}
                      onMove={(stageId) => request(card, stageId)}
                      cardRef={(el) => {
                        if (el) cardEls.current.set(card.id, el);
                        else cardEls.current.delete(card.id);
                      }}
                    />
                  ))}
                </ul>
              )}
              {total > inStage.length && (
                <p>
                  <Link href={`/businesses?stage=${encodeURIComponent(stage.id)}`}>All {total} in {stage.name}</Link>
                </p>
              )}
            </section>
          );
        })}
      </div>
      <ClosingStageDialog
        pending={confirming && { value: confirming, stageName: confirming.stage.name }}
        subject={confirming ? nameOf(confirming.card) : 'this business'}
        noun="business"
        pipelineName={view.pipeline.name}
        onConfirm={(c) => start(c.card, c.stage)}
        onCancel={() => setConfirming(null)}
        // The stage was chosen in the card's menu, which closed as the dialog opened: its "Move to…" button asked.
        returnFocus={() => (confirming ? menuButtonOf(cardEls.current.get(confirming.card.id)) : null)}
      />
    </div>
  );
}
