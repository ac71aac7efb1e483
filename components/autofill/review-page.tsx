'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useRef, useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { SuggestionAcceptReply, SuggestionDismissReply, type SuggestionView } from '@/lib/bff/autofill';
import { formModel } from '@/lib/forms';
import { formSnapshotQuery } from '@/lib/queries/form-snapshot';
import { autofillApiBase, runsQuery, suggestionsKey, suggestionsQuery } from '@/lib/queries/autofill';
import { messageOf } from './errors';
import { ShortcutHelp } from './shortcut-help';
import { SuggestionCard, type CardState } from './suggestion-card';
import { currentAnswer, resolveTarget, targetId, type SuggestionTarget } from './suggestion-targets';
import { useQueueShortcuts } from './use-queue-shortcuts';
import './autofill.css';

interface Props {
  applicationId: string;
  /** The run named in the address (?run=), if any. */
  requestedRunId: string | null;
}

interface Entry {
  suggestion: SuggestionView;
  target: SuggestionTarget;
}

interface SectionGroup {
  key: string;
  label: string;
  questions: Array<{ key: string; label: string; itemLabel: string | null; entries: Entry[] }>;
}

const IDLE: CardState = { busy: null, error: null };

/** Sections, then questions, in the order the suggestions come (the contract's). */
function groupEntries(entries: Entry[]): SectionGroup[] {
  const sections: SectionGroup[] = [];
  for (const e of entries) {
    let section = sections.find((s) => s.key === e.target.sectionKey);
    if (!section) sections.push((section = { key: e.target.sectionKey, label: e.target.sectionLabel, questions: [] }));
    let question = section.questions.find((q) => q.key === e.target.questionKey);
    if (!question) {
      section.questions.push(
        (question = { key: e.target.questionKey, label: e.target.questionLabel, itemLabel: e.target.itemLabel, entries: [] }),
      );
    }
    question.entries.push(e);
  }
  return sections;
}

/**
 * The review queue of one run's suggestions: grouped by section and question, each with the answer now
 * beside the proposal, its source and concerns; accept, dismiss, accept all without concerns, and keyboard
 * shortcuts to move through the queue. An accepted answer is in the form at once (the form reads a fresh
 * snapshot when it opens).
 */
export function ReviewPage({ applicationId, requestedRunId }: Props) {
  const base = autofillApiBase(applicationId);
  const apiBase = `/api/applications/${applicationId}` as const;
  const router = useRouter();
  const queryClient = useQueryClient();
  const runs = useQuery(runsQuery(base));
  // Always a fresh read: the answers may have changed since the form last cached them.
  const snapshot = useQuery({ ...formSnapshotQuery(apiBase), staleTime: 0 });

  const completed = useMemo(() => (runs.data ?? []).filter((r) => r.status === 'completed'), [runs.data]);
  const runId = completed.find((r) => r.id === requestedRunId)?.id ?? completed[0]?.id ?? null;
  const newestRun = runs.data?.[0] ?? null;
  const suggestions = useQuery({ ...suggestionsQuery(base, runId ?? ''), enabled: runId !== null });

  const [cards, setCards] = useState<ReadonlyMap<string, CardState>>(new Map());
  // Accepted values, shown as the current answer until a fresh snapshot has them.
  const [accepted, setAccepted] = useState<ReadonlyMap<string, { value: unknown; at: number }>>(new Map());
  const [announcement, setAnnouncement] = useState('');
  const [batch, setBatch] = useState<{ done: number; total: number; error: string | null; running: boolean } | null>(null);
  const stopBatch = useRef(false);

  const model = useMemo(() => (snapshot.data ? formModel(snapshot.data.contract) : null), [snapshot.data]);
  const entries = useMemo<Entry[]>(
    () => (suggestions.data ?? []).map((s) => ({ suggestion: s, target: resolveTarget(model, snapshot.data ?? null, s) })),
    [suggestions.data, model, snapshot.data],
  );
  const sections = useMemo(() => groupEntries(entries), [entries]);
  // Keyboard order is display order: section by section.
  const ordered = useMemo(() => sections.flatMap((s) => s.questions.flatMap((q) => q.entries)), [sections]);

  const setCard = (id: string, state: CardState) => setCards((m) => new Map(m).set(id, state));
  const replaceSuggestion = useCallback(
    async (next: SuggestionView) => {
      const key = suggestionsKey(base, runId ?? '');
      // A read still under way began before this decision: its list would put the suggestion back.
      await queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<SuggestionView[]>(key, (list) => list?.map((s) => (s.id === next.id ? next : s)));
    },
    [queryClient, base, runId],
  );

  const labelOf = (e: Entry) => e.target.fieldLabel;

  /** Accepts one suggestion; true when it was accepted. */
  const accept = useCallback(
    async (e: Entry, quiet = false): Promise<boolean> => {
      const s = e.suggestion;
      setCard(s.id, { busy: 'accept', error: null });
      try {
        const reply = await apiFetch(`${base}/suggestions/${encodeURIComponent(s.id)}/accept`, {
          method: 'POST',
          headers: { 'Idempotency-Key': crypto.randomUUID() },
          schema: SuggestionAcceptReply,
        });
        await replaceSuggestion(reply.suggestion);
        setAccepted((m) => new Map(m).set(targetId(s), { value: s.proposed_value, at: Date.now() }));
        setCard(s.id, IDLE);
        if (!quiet) {
          setAnnouncement(`Accepted “${labelOf(e)}”.`);
          void queryClient.invalidateQueries({ queryKey: formSnapshotQuery(apiBase).queryKey });
        }
        return true;
      } catch (err) {
        const stale = err instanceof ApiError && err.details.some((d) => d.code === 'stale_suggestion');
        const text = stale
          ? 'Not accepted: the answer changed after this suggestion was made, so it is stale now.'
          : `Not accepted. ${messageOf(err)}`;
        setCard(s.id, { busy: null, error: text });
        setAnnouncement(`“${labelOf(e)}”: ${text}`);
        if (err instanceof ApiError && err.status === 409) {
          void queryClient.invalidateQueries({ queryKey: suggestionsKey(base, runId ?? '') });
          void queryClient.invalidateQueries({ queryKey: formSnapshotQuery(apiBase).queryKey });
        }
        return false;
      }
    },
    [base, apiBase, queryClient, replaceSuggestion, runId],
  );

  const dismiss = useCallback(
    async (e: Entry): Promise<boolean> => {
      const s = e.suggestion;
      setCard(s.id, { busy: 'dismiss', error: null });
      try {
        const reply = await apiFetch(`${base}/suggestions/${encodeURIComponent(s.id)}/dismiss`, {
          method: 'POST',
          headers: { 'Idempotency-Key': crypto.randomUUID() },
          schema: SuggestionDismissReply,
        });
        await replaceSuggestion(reply.suggestion);
        setCard(s.id, IDLE);
        setAnnouncement(`Dismissed “${labelOf(e)}”.`);
        return true;
      } catch (err) {
        const text = `Not dismissed. ${messageOf(err)}`;
        setCard(s.id, { busy: null, error: text });
        setAnnouncement(`“${labelOf(e)}”: ${text}`);
        if (err instanceof ApiError && err.status === 409) void queryClient.invalidateQueries({ queryKey: suggestionsKey(base, runId ?? '') });
        return false;
      }
    },
    [base, queryClient, replaceSuggestion, runId],
  );

  const clean = ordered.filter((e) => e.suggestion.status === 'pending' && e.suggestion.concerns.length === 0);

  async function acceptAll() {
    const queue = clean;
    if (queue.length === 0 || batch?.running) return;
    stopBatch.current = false;
    setBatch({ done: 0, total: queue.length, error: null, running: true });
    setAnnouncement(`Accepting ${queue.length} suggestions without concerns…`);
    let done = 0;
    let error: string | null = null;
    for (const e of queue) {
      if (stopBatch.current) break;
      if (!(await accept(e, true))) {
        error = `Stopped at “${labelOf(e)}”: see the message on its card.`;
        break;
      }
      done += 1;
      setBatch({ done, total: queue.length, error: null, running: true });
    }
    setBatch({ done, total: queue.length, error, running: false });
    setAnnouncement(error ?? `Accepted ${done} of ${queue.length} suggestions without concerns.`);
    void queryClient.invalidateQueries({ queryKey: formSnapshotQuery(apiBase).queryKey });
  }

  const locked = batch?.running === true;
  const cardRefs = useRef(new Map<string, HTMLElement>());
  const [active, setActive] = useState(0);
  const helpRef = useRef<{ open(): void }>(null);
  const queueRef = useRef<HTMLDivElement>(null);

  const focusCard = useCallback(
    (index: number) => {
      const e = ordered[Math.max(0, Math.min(index, ordered.length - 1))];
      if (!e) return;
      cardRefs.current.get(e.suggestion.id)?.focus();
    },
    [ordered],
  );

  useQueueShortcuts({
    container: queueRef,
    onMove: (delta, inQueue) => focusCard(inQueue ? active + delta : active),
    onAccept: () => {
      const e = ordered[active];
      if (e && e.suggestion.status === 'pending' && !locked) void accept(e).then((ok) => ok && focusCard(active + 1));
      else if (e) setAnnouncement(`“${labelOf(e)}” cannot be accepted: it is ${e.suggestion.status}.`);
    },
    onDismiss: () => {
      const e = ordered[active];
      if (e && e.suggestion.status === 'pending' && !locked) void dismiss(e).then((ok) => ok && focusCard(active + 1));
      else if (e) setAnnouncement(`“${labelOf(e)}” cannot be dismissed: it is ${e.suggestion.status}.`);
    },
    onHelp: () => helpRef.current?.open(),
  });

  // An accepted value is the current answer until a snapshot read after the accept has it.
  const currentOf = (e: Entry) => {
    const overlay = accepted.get(targetId(e.suggestion));
    if (overlay && overlay.at > snapshot.dataUpdatedAt) return overlay.value;
    return currentAnswer(snapshot.data ?? null, e.suggestion);
  };

  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.suggestion.status, (counts.get(e.suggestion.status) ?? 0) + 1);

  return (
    <div className="autofill-page">
      <h1>Review Autofill suggestions</h1>
      <nav aria-label="Application" className="autofill-links">
        <Link href={`/applications/${applicationId}`}>Application form</Link>
        <Link href={`/applications/${applicationId}/autofill`}>Autofill preparation</Link>
        <button type="button" className="link-button" onClick={() => helpRef.current?.open()} aria-keyshortcuts="?">
          Keyboard shortcuts
        </button>
      </nav>
      <ShortcutHelp ref={helpRef} />
      <p role="status" aria-live="polite" className="autofill-announce">
        {announcement}
      </p>
      {runs.isPending || (runId !== null && (suggestions.isPending || snapshot.isPending)) ? (
        <p role="status" className="loading">
          Loading the suggestions…
        </p>
      ) : runs.error || suggestions.error ? (
        <div className="notice warning" role="alert">
          <p>The suggestions could not be loaded. {messageOf(runs.error ?? suggestions.error)}</p>
          <button type="button" onClick={() => void (runs.error ? runs.refetch() : suggestions.refetch())}>
            Try again
          </button>
        </div>
      ) : runId === null ? (
        <div className="notice info">
          <p>
            There is no finished Autofill run to review yet.{' '}
            <Link href={`/applications/${applicationId}/autofill`}>Prepare and start Autofill</Link>.
          </p>
        </div>
      ) : (
        <>
          {newestRun && newestRun.id !== runId && newestRun.status !== 'completed' && (
            <p className="notice info">
              A newer run is {newestRun.status === 'failed' ? 'failed' : 'in progress'}; <Link href={`/applications/${applicationId}/autofill`}>see it on the preparation page</Link>.
            </p>
          )}
          {snapshot.error && (
            <p className="notice warning" role="alert">
              The current answers could not be read ({messageOf(snapshot.error)}); the values shown are those the run saw.
            </p>
          )}
          <div className="autofill-toolbar">
            {completed.length > 1 && (
              <div className="field">
                <label htmlFor="autofill-run-choice">Run</label>
                <select
                  id="autofill-run-choice"
                  value={runId}
                  onChange={(e) => router.replace(`/applications/${applicationId}/review?run=${encodeURIComponent(e.target.value)}`)}
                >
                  {completed.map((r, i) => (
                    <option key={r.id} value={r.id}>
                      {new Date(r.created_at).toLocaleString('en-GB')} · {r.suggestion_count} suggestions{i === 0 ? ' (latest)' : ''}
                    </option>
                  ))}
                </select>
              </div>
            )}
            <p className="autofill-counts">
              {entries.length} suggestion{entries.length === 1 ? '' : 's'}:{' '}
              {(['pending', 'accepted', 'dismissed', 'stale', 'failed'] as const)
                .filter((k) => counts.has(k))
                .map((k) => `${counts.get(k)} ${k === 'pending' ? 'waiting' : k}`)
                .join(', ')}
            </p>
            <div className="actions">
              <button type="button" onClick={() => void acceptAll()} disabled={clean.length === 0 || locked}>
                Accept all without concerns ({clean.length})
              </button>
              {locked && (
                <button type="button" className="secondary" onClick={() => (stopBatch.current = true)}>
                  Stop
                </button>
              )}
            </div>
            {batch && (
              <div className="autofill-progress">
                <progress aria-label="Accepting suggestions without concerns" value={batch.done} max={batch.total} />
                <span>
                  {batch.done} of {batch.total} accepted
                </span>
              </div>
            )}
            {batch?.error && (
              <p className="field-error" role="alert">
                {batch.error}
              </p>
            )}
          </div>
          {entries.length === 0 ? (
            <p>This run made no suggestions.</p>
          ) : (
            <div ref={queueRef} className="autofill-queue" aria-label="Suggestions" role="region">
              {sections.map((section) => (
                <section key={section.key} aria-labelledby={`sec-${section.key}`}>
                  <h2 id={`sec-${section.key}`}>{section.label}</h2>
                  {section.questions.map((q) => (
                    <div key={q.key} className="autofill-question">
                      <h3>
                        {q.label}
                        {q.itemLabel && <span className="muted"> ({q.itemLabel})</span>}
                      </h3>
                      {q.entries.map((e) => (
                        <SuggestionCard
                          key={e.suggestion.id}
                          ref={(el) => {
                            if (el) cardRefs.current.set(e.suggestion.id, el);
                            else cardRefs.current.delete(e.suggestion.id);
                          }}
                          suggestion={e.suggestion}
                          target={e.target}
                          current={currentOf(e)}
                          state={cards.get(e.suggestion.id) ?? IDLE}
                          locked={locked}
                          onAccept={() => void accept(e)}
                          onDismiss={() => void dismiss(e)}
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
