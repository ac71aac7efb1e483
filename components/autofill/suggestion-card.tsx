'use client';

import { forwardRef } from 'react';
import type { SuggestionView } from '@/lib/bff/autofill';
import { humanize } from '@/lib/forms';
import type { SuggestionTarget } from './suggestion-targets';
import { ValueDiff } from './value-diff';

export interface CardState {
  busy: 'accept' | 'dismiss' | null;
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
  onAccept(): void;
  onDismiss(): void;
  onFocus(): void;
}

const STATUS_TEXT: Record<SuggestionView['status'], string> = {
  pending: 'Waiting for review',
  accepted: 'Accepted',
  dismissed: 'Dismissed',
  stale: 'Stale — the answer changed since',
  failed: 'Failed',
};

/** One suggestion: what it would change, where it came from, its concerns, and Accept / Dismiss. */
export const SuggestionCard = forwardRef<HTMLElement, Props>(function SuggestionCard(
  { suggestion: s, target, current, state, locked, onAccept, onDismiss, onFocus },
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
          <button
            type="button"
            onClick={onAccept}
            disabled={!pending || state.busy !== null || locked}
            aria-keyshortcuts="a"
            aria-describedby={titleId}
          >
            {state.busy === 'accept' ? 'Accepting…' : 'Accept'}
          </button>
          <button
            type="button"
            className="secondary"
            onClick={onDismiss}
            disabled={!pending || state.busy !== null || locked}
            aria-keyshortcuts="d"
            aria-describedby={titleId}
          >
            {state.busy === 'dismiss' ? 'Dismissing…' : 'Dismiss'}
          </button>
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
