'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { LoadError } from '../ui/load-state';
import { formatDateTime } from '../ui/when';
import { messageOf } from './errors';
import { afterDecision, nearestWaiting, nextWaiting } from './queue-moves';
import { ShortcutHelp } from './shortcut-help';
import { SuggestionCard, type Decision } from './suggestion-card';
import { useQueueShortcuts } from './use-queue-shortcuts';
import { useReviewQueue } from './use-review-queue';
import './autofill.css';

interface Props {
  applicationId: string;
  /** The business the application is for; its page is linked for staff only (reviewers cannot open it). */
  business: { id: string; name: string; linked: boolean } | null;
  /** The run named in the address (?run=), if any. */
  requestedRunId: string | null;
}

const STATUSES = ['pending', 'accepted', 'dismissed', 'stale', 'failed'] as const;

/**
 * The review queue of one run's suggestions (useReviewQueue): grouped by section and question, each with
 * the answer now beside the proposal, its source and concerns; accept, dismiss, accept all without
 * concerns, and keyboard shortcuts to move through the queue. An accepted answer is in the form at once
 * (the form reads a fresh snapshot when it opens).
 */
export function ReviewPage({ applicationId, business, requestedRunId }: Props) {
  const router = useRouter();
  const q = useReviewQueue(applicationId, requestedRunId);
  const { runs, suggestions, snapshot, runId, ordered, locked } = q;
  const cardRefs = useRef(new Map<string, HTMLElement>());
  const [active, setActive] = useState(0);
  const helpRef = useRef<{ open(): void }>(null);
  const queueRef = useRef<HTMLDivElement>(null);

  const focusCard = (index: number | null) => {
    const e = index === null ? undefined : ordered[index];
    if (e) cardRefs.current.get(e.suggestion.id)?.focus();
  };
  // Keys move between the suggestions still waiting: a decided one can be neither accepted nor dismissed.
  const waiting = ordered.map((e) => e.suggestion.status === 'pending' && q.cardOf(e.suggestion.id).busy === null);

  const move = (delta: 1 | -1, inQueue: boolean) => {
    const to = inQueue ? nextWaiting(waiting, active, delta) : nearestWaiting(waiting, active);
    if (to !== null) focusCard(to);
    else q.announce(waiting.some(Boolean) ? `No suggestion waiting ${delta === 1 ? 'below' : 'above'}.` : 'No suggestion is waiting for review.');
  };

  /** a / d on the card in focus: decide, then on to the next card waiting. */
  const decideActive = (kind: Decision) => {
    const e = ordered[active];
    if (!e) return;
    const after = afterDecision(waiting, active);
    if (e.suggestion.status === 'pending' && !locked) void q.decide(kind, e).then((ok) => ok && focusCard(after));
    else q.announce(`“${e.target.fieldLabel}” cannot be ${kind === 'accept' ? 'accepted' : 'dismissed'}: it is ${e.suggestion.status}.`);
  };

  useQueueShortcuts({
    container: queueRef,
    onMove: move,
    onAccept: () => decideActive('accept'),
    onDismiss: () => decideActive('dismiss'),
    onHelp: () => helpRef.current?.open(),
  });

  return (
    <div className="autofill-page">
      <h1>Review Autofill suggestions</h1>
      {business && (
        <p className="autofill-for">
          For {business.linked ? <Link href={`/businesses/${encodeURIComponent(business.id)}`}>{business.name}</Link> : <strong>{business.name}</strong>}
        </p>
      )}
      <nav aria-label="Application" className="autofill-links">
        <Link href="/">← Review inbox</Link>
        <Link href={`/applications/${applicationId}`}>Application form</Link>
        <Link href={`/applications/${applicationId}/autofill`}>Autofill preparation</Link>
        <button type="button" className="link-button" onClick={() => helpRef.current?.open()} aria-keyshortcuts="?">
          Keyboard shortcuts
        </button>
      </nav>
      <ShortcutHelp ref={helpRef} />
      <p role="status" aria-live="polite" className="autofill-announce">
        {q.announcement}
      </p>
      {runs.isPending || (runId !== null && (suggestions.isPending || snapshot.isPending)) ? (
        <p role="status" className="loading">
          Loading the suggestions…
        </p>
      ) : runs.error || suggestions.error ? (
        <LoadError onRetry={() => void (runs.error ? runs.refetch() : suggestions.refetch())}>
          The suggestions could not be loaded. {messageOf(runs.error ?? suggestions.error)}
        </LoadError>
      ) : runId === null ? (
        <div className="notice info">
          <p>
            There is no finished Autofill run to review yet.{' '}
            <Link href={`/applications/${applicationId}/autofill`}>Prepare and start Autofill</Link>.
          </p>
        </div>
      ) : (
        <>
          {q.newestRun && q.newestRun.id !== runId && q.newestRun.status !== 'completed' && (
            <p className="notice info">
              A newer run is {q.newestRun.status === 'failed' ? 'failed' : 'in progress'};{' '}
              <Link href={`/applications/${applicationId}/autofill`}>see it on the preparation page</Link>.
            </p>
          )}
          {snapshot.error && (
            <p className="notice warning" role="alert">
              The current answers could not be read ({messageOf(snapshot.error)}); the values shown are those the run saw.
            </p>
          )}
          <div className="autofill-toolbar">
            {q.completed.length > 1 && (
              <div className="field">
                <label htmlFor="autofill-run-choice">Run</label>
                <select
                  id="autofill-run-choice"
                  value={runId}
                  onChange={(e) => router.replace(`/applications/${applicationId}/review?run=${encodeURIComponent(e.target.value)}`)}
                >
                  {q.completed.map((r, i) => (
                    <option key={r.id} value={r.id} suppressHydrationWarning>
                      {formatDateTime(r.created_at)} · {r.suggestion_count} suggestions{i === 0 ? ' (latest)' : ''}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <p className="autofill-counts">
              {q.entries.length} suggestion{q.entries.length === 1 ? '' : 's'}:{' '}
              {STATUSES.filter((k) => q.counts.has(k))
                .map((k) => `${q.counts.get(k)} ${k === 'pending' ? 'waiting' : k}`)
                .join(', ')}
            </p>
            <div className="actions">
              <button type="button" onClick={() => void q.acceptAll()} disabled={q.clean.length === 0 || locked}>
                Accept all without concerns ({q.clean.length})
              </button>
              {locked && (
                <button type="button" className="secondary" onClick={q.stop}>
                  Stop
                </button>
              )}
            </div>
            {q.batch && (
              <div className="autofill-progress">
                <progress aria-label="Accepting suggestions without concerns" value={q.batch.done} max={q.batch.total} />
                <span>
                  {q.batch.done} of {q.batch.total} accepted
                </span>
              </div>
            )}
            {q.batch?.error && (
              <p className="field-error" role="alert">
                {q.batch.error}
              </p>
            )}
          </div>
          {q.entries.length === 0 ? (
            <p>This run made no suggestions.</p>
          ) : (
            <div ref={queueRef} className="autofill-queue" aria-label="Suggestions" role="region">
              {q.sections.map((section) => (
                <section key={section.key} aria-labelledby={`sec-${section.key}`}>
                  <h2 id={`sec-${section.key}`}>{section.label}</h2>
                  {section.questions.map((question) => (
                    <div key={question.key} className="autofill-question">
                      <h3>
                        {question.label}
                        {question.itemLabel && <span className="muted"> ({question.itemLabel})</span>}
                      </h3>
                      {question.entries.map((e) => (
                        <SuggestionCard
                          key={e.suggestion.id}
                          ref={(el) => {
                            if (el) cardRefs.current.set(e.suggestion.id, el);
                            else cardRefs.current.delete(e.suggestion.id);
                          }}
                          suggestion={e.suggestion}
                          target={e.target}
                          current={q.currentOf(e)}
                          state={q.cardOf(e.suggestion.id)}
                          locked={locked}
                          onDecide={(kind) => void q.decide(kind, e)}
                          onFocus={() => setActive(ordered.indexOf(e))}
                        />
                      ))}
                    </div>
                  ))}
                </section>
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}
