'use client';

import { forwardRef } from 'react';
import type { SuggestionView } from '@/lib/bff/autofill';
import { humanize } from '@/lib/forms';
import type { SuggestionTarget } from './suggestion-targets';
import { ValueDiff } from './value-diff';

export type Decision = 'accept' | 'dismiss';

export interface CardState {
  busy: Decision | null;
  error: string | null;
}

interface Props {
  suggestion: SuggestionView;
  target: SuggestionTarget;
  /** The answer as it is now (after an accept: the accepted value). */
  current: unknown;
  state: CardState;
  /** Another action (accept all) is under way: single decisions wait. */
  locked: boolean;
  onDecide(decision: Decision): void;
  onFocus(): void;
}

const BUTTONS: ReadonlyArray<{ decision: Decision; label: string; busy: string; key: string; className?: string }> = [
  { decision: 'accept', label: 'Accept', busy: 'Accepting…', key: 'a' },
  { decision: 'dismiss', label: 'Dismiss', busy: 'Dismissing…', key: 'd', className: 'secondary' },
];

const STATUS_TEXT: Record<SuggestionView['status'], string> = {
  pending: 'Waiting for review',
  accepted: 'Accepted',
  dismissed: 'Dismissed',
  stale: 'Stale — the answer changed since',
  failed: 'Failed',
};

/** One suggestion: what it would change, where it came from, its concerns, and Accept / Dismiss. */
export const SuggestionCard = forwardRef<HTMLElement, Props>(function SuggestionCard(
  { suggestion: s, target, current, state, locked, onDecide, onFocus },
  ref,
) {
  const titleId = `sugg-${s.id}-title`;
  const pending = s.status === 'pending';
  const label = target.fieldLabel === target.questionLabel ? target.questionLabel : `${target.questionLabel}: ${target.fieldLabel}`;
  return (
    <article
      ref={ref}
      className={`autofill-card autofill-card-${s.status}`}
      aria-labelledby={titleId}
      tabIndex={-1}
      data-suggestion-id={s.id}
      onFocus={onFocus}
    >
      <header className="autofill-card-head">
        <h4 id={titleId}>{label}</h4>
        <span className={`autofill-badge autofill-status-${s.status}`}>{STATUS_TEXT[s.status]}</span>
      </header>
      <ValueDiff field={target.field} current={current} proposed={s.proposed_value} />
      <div className="autofill-source">
        <p>
          <span className="muted">Source: </span>
          {s.source.file_name ? (
            <>
              document <strong>{s.source.file_name}</strong>
            </>
          ) : s.source.kind === 'text' ? (
            'from the text'
          ) : (
            (s.source.kind ?? 'unknown')
          )}
          {s.source.confidence !== null && <span className="muted"> · confidence {Math.round(s.source.confidence * 100)}%</span>}
        </p>
        {s.source.excerpt && <blockquote className="autofill-quote">{s.source.excerpt}</blockquote>}
      </div>
      {s.concerns.length > 0 && (
        <ul className="autofill-concerns" aria-label="Concerns">
          {s.concerns.map((c, i) => (
            <li key={i}>
              <span className="autofill-badge autofill-concern">{humanize(c.code ?? 'concern')}</span> {c.message}
            </li>
          ))}
        </ul>
      )}
      {s.status === 'stale' && (
        <p className="muted">The answer was changed after this suggestion was made, so it can no longer be accepted.</p>
      )}
      {(pending || s.status === 'stale') && (
        <div className="actions">
          {BUTTONS.map((b) => (
            <button
              key={b.decision}
              type="button"
              className={b.className}
              onClick={() => onDecide(b.decision)}
              disabled={!pending || state.busy !== null || locked}
              aria-keyshortcuts={b.key}
              aria-describedby={titleId}
            >
              {state.busy === b.decision ? b.busy : b.label}
            </button>
          ))}
        </div>
      )}
      {state.error && (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      )}
    </article>
  );
});
