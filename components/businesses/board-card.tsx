'use client';

import Link from 'next/link';
import { useId } from 'react';
import { useDisclosure } from '../ui/use-disclosure';
import type { BoardCardView } from '@/lib/bff/workspace';
import { When } from '../ui/when';

/** The class of a card's "Move to…" button (the board returns focus to it). */
export const MENU_BUTTON_CLASS = 'board-card-menu-button';

interface Props {
  card: BoardCardView;
  stages: readonly { id: string; name: string }[];
  /** The card is being moved: its menu is shut and says so. */
  moving: boolean;
  onMove(stageId: string): void;
  /** Where focus goes once the card lands in its column. */
  cardRef?: (el: HTMLLIElement | null) => void;
}

/**
 * A business on the board: its name, progress and last activity. It moves by drag and drop or, for the
 * keyboard, with its "Move to…" menu (a disclosure of one button per other stage; Escape closes it).
 */
export function BoardCard({ card, stages, moving, onMove, cardRef }: Props) {
  const { open, setOpen, toggle, onKeyDown } = useDisclosure();
  const menuId = useId();
  const name = card.name ?? 'Unnamed business';


  return (
    <li
      ref={cardRef}
      tabIndex={-1}
      className={moving ? 'board-card board-card-moving' : 'board-card'}
      draggable={!moving}
      onDragStart={(e) => {
        e.dataTransfer.setData('text/plain', card.id);
        e.dataTransfer.effectAllowed = 'move';
      }}
      onKeyDown={onKeyDown}
      aria-busy={moving || undefined}
      data-business-id={card.id}
    >
      <Link href={`/businesses/${encodeURIComponent(card.id)}`} className="board-card-name" draggable={false}>
        {name}
      </Link>
      {card.progress_percent !== null ? (
        <span className="board-card-progress">
          <progress max={100} value={card.progress_percent} aria-label={`Application of ${name}`} /> {card.progress_percent}%
        </span>
      ) : (
        <span className="muted">No application progress</span>
      )}
      <span className="muted board-card-activity">
        {card.last_activity_at ? (
          <>
            Last activity <When iso={card.last_activity_at} />
          </>
        ) : (
          'No activity yet'
        )}
      </span>
      <button
        ref={toggle}
        type="button"
        className={`secondary ${MENU_BUTTON_CLASS}`}
        aria-expanded={open}
        aria-controls={menuId}
        disabled={moving}
        onClick={() => setOpen((o) => !o)}
      >
        {moving ? 'Moving…' : 'Move to…'}
        <span className="visually-hidden"> {name}</span>
      </button>
      <ul id={menuId} className="board-card-menu" hidden={!open || moving} aria-label={`Move ${name} to`}>
        {stages
          .filter((s) => s.id !== card.stage_id)
          .map((s) => (
            <li key={s.id}>
              <button
                type="button"
                className="link-button"
                onClick={() => {
                  setOpen(false);
                  onMove(s.id);
                }}
              >
                {s.name}
              </button>
            </li>
          ))}
      </ul>
    </li>
  );
}
