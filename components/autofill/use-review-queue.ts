'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { intakeFormBase } from '@/lib/api/form-base';
import type { SuggestionView } from '@/lib/bff/autofill';
import { formModel } from '@/lib/forms';
import { runsQuery, suggestionsQuery } from '@/lib/queries/autofill';
import { formSnapshotKey, formSnapshotQuery } from '@/lib/queries/form-snapshot';
import { useAcceptSuggestion } from '@/lib/queries/mutations/use-accept-suggestion';
import { useDismissSuggestion } from '@/lib/queries/mutations/use-dismiss-suggestion';
import { messageOf } from './errors';
import type { CardState, Decision } from './suggestion-card';
import { currentAnswer, resolveTarget, targetId, type SuggestionTarget } from './suggestion-targets';

export interface Entry {
  suggestion: SuggestionView;
  target: SuggestionTarget;
}

export interface SectionGroup {
  key: string;
  label: string;
  questions: Array<{ key: string; label: string; itemLabel: string | null; entries: Entry[] }>;
}

export interface Batch {
  done: number;
  total: number;
  error: string | null;
  running: boolean;
}

export const IDLE: CardState = { busy: null, error: null };

/** How a decision reads on the page, done and refused. */
const WORDS: Record<Decision, { done: string; refused: string }> = {
  accept: { done: 'Accepted', refused: 'Not accepted' },
  dismiss: { done: 'Dismissed', refused: 'Not dismissed' },
};

const STALE = 'Not accepted: the answer changed after this suggestion was made, so it is stale now.';

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

const labelOf = (e: Entry) => e.target.fieldLabel;

/**
 * The review queue of one run, without its view: the run chosen, its suggestions grouped by section and
 * question with the answer each would replace, and the decisions (accept, dismiss, accept all without
 * concerns, with progress and a stop) with each card's busy and error state and what the live region says.
 * An accepted value is the current answer until a snapshot read after the accept has it.
 */
export function useReviewQueue(applicationId: string, requestedRunId: string | null) {
  const queryClient = useQueryClient();
  const apiBase = intakeFormBase(applicationId);
  const runs = useQuery(runsQuery(applicationId));
  // Always a fresh read: the answers may have changed since the form last cached them.
  const snapshot = useQuery({ ...formSnapshotQuery(apiBase), staleTime: 0 });

  const completed = useMemo(() => (runs.data ?? []).filter((r) => r.status === 'completed'), [runs.data]);
  const runId = completed.find((r) => r.id === requestedRunId)?.id ?? completed[0]?.id ?? null;
  const newestRun = runs.data?.[0] ?? null;
  const suggestions = useQuery({ ...suggestionsQuery(applicationId, runId ?? ''), enabled: runId !== null });
  const { mutateAsync: acceptOne } = useAcceptSuggestion(applicationId, runId ?? '');
  const { mutateAsync: dismissOne } = useDismissSuggestion(applicationId, runId ?? '');

  const [cards, setCards] = useState<ReadonlyMap<string, CardState>>(new Map());
  // Accepted values, shown as the current answer until a fresh snapshot has them.
  const [accepted, setAccepted] = useState<ReadonlyMap<string, { value: unknown; at: number }>>(new Map());
  const [announcement, announce] = useState('');
  const [batch, setBatch] = useState<Batch | null>(null);
  const stopBatch = useRef(false);

  const model = useMemo(() => (snapshot.data ? formModel(snapshot.data.contract) : null), [snapshot.data]);
  const entries = useMemo<Entry[]>(
    () => (suggestions.data ?? []).map((s) => ({ suggestion: s, target: resolveTarget(model, snapshot.data ?? null, s) })),
    [suggestions.data, model, snapshot.data],
  );
  const sections = useMemo(() => groupEntries(entries), [entries]);
  // Keyboard order is display order: section by section.
  const ordered = useMemo(() => sections.flatMap((s) => s.questions.flatMap((q) => q.entries)), [sections]);
  const clean = ordered.filter((e) => e.suggestion.status === 'pending' && e.suggestion.concerns.length === 0);

  const setCard = (id: string, state: CardState) => setCards((m) => new Map(m).set(id, state));

  /** Accepts or dismisses one suggestion; true when it was. Within a batch only the batch speaks. */
  async function decide(kind: Decision, e: Entry, inBatch = false): Promise<boolean> {
    const s = e.suggestion;
    setCard(s.id, { busy: kind, error: null });
    try {
      if (kind === 'accept') {
        await acceptOne({ suggestionId: s.id, inBatch });
        setAccepted((m) => new Map(m).set(targetId(s), { value: s.proposed_value, at: Date.now() }));
      } else {
        await dismissOne(s.id);
      }
      setCard(s.id, IDLE);
      if (!inBatch) announce(`${WORDS[kind].done} “${labelOf(e)}”.`);
      return true;
    } catch (err) {
      const stale = kind === 'accept' && err instanceof ApiError && err.details.some((d) => d.code === 'stale_suggestion');
      const text = stale ? STALE : `${WORDS[kind].refused}. ${messageOf(err)}`;
      setCard(s.id, { busy: null, error: text });
      announce(`“${labelOf(e)}”: ${text}`);
      return false;
    }
  }

  async function acceptAll() {
    const queue = clean;
    if (queue.length === 0 || batch?.running) return;
    stopBatch.current = false;
    setBatch({ done: 0, total: queue.length, error: null, running: true });
    announce(`Accepting ${queue.length} suggestions without concerns…`);
    let done = 0;
    let error: string | null = null;
    for (const e of queue) {
      if (stopBatch.current) break;
      if (!(await decide('accept', e, true))) {
        error = `Stopped at “${labelOf(e)}”: see the message on its card.`;
        break;
      }
      done += 1;
      setBatch({ done, total: queue.length, error: null, running: true });
    }
    setBatch({ done, total: queue.length, error, running: false });
    announce(error ?? `Accepted ${done} of ${queue.length} suggestions without concerns.`);
    // The accepts of a batch leave the form's answers to this one read.
    void queryClient.invalidateQueries({ queryKey: formSnapshotKey(apiBase) });
  }

  const currentOf = (e: Entry) => {
    const overlay = accepted.get(targetId(e.suggestion));
    if (overlay && overlay.at > snapshot.dataUpdatedAt) return overlay.value;
    return currentAnswer(snapshot.data ?? null, e.suggestion);
  };

  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.suggestion.status, (counts.get(e.suggestion.status) ?? 0) + 1);

  return {
    runs,
    snapshot,
    suggestions,
    completed,
    runId,
    newestRun,
    entries,
    sections,
    ordered,
    clean,
    counts,
    cardOf: (id: string) => cards.get(id) ?? IDLE,
    currentOf,
    announcement,
    announce,
    batch,
    /** A batch is under way: single decisions wait. */
    locked: batch?.running === true,
    decide,
    acceptAll,
    stop: () => {
      stopBatch.current = true;
    },
  };
}
