'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { HistoryEntryView } from '@/lib/bff/history';
import { historyActorText } from '@/lib/bff/history-actor';
import { recordedValueText, type QuestionModel } from '@/lib/forms';
import { questionHistoryQuery } from '@/lib/queries/answer-history';
import { When } from '@/components/ui/when';
import { useFormEnv } from './runtime-context';
import './question-history.css';

function Change({ entry, question }: { entry: HistoryEntryView; question: QuestionModel }) {
  const field = question.fields.find((f) => f.fieldKey === entry.field_key);
  const show = (v: unknown) => recordedValueText(field, v);
  const part = question.fields.length > 1 && field ? `${field.label}: ` : '';
  const change = entry.old.known ? (
    <>
      changed {part}“<span className="history-value">{show(entry.old.value)}</span>” to “<span className="history-value">{show(entry.new_value)}</span>”
    </>
  ) : (
    <>
      set {part}“<span className="history-value">{show(entry.new_value)}</span>”
    </>
  );
  return (
    <li>
      {historyActorText(entry.by)} {change}
      <span className="history-when">
        {' · '}
        <When iso={entry.at} />
      </span>
    </li>
  );
}

/** The newest changes of a question, read when this mounts (the disclosure is opened) and again each time it does. */
function Changes({ question, itemId }: { question: QuestionModel; itemId: string | null }) {
  const { apiBase } = useFormEnv();
  const history = useQuery(questionHistoryQuery(apiBase, question.schemaKey, itemId));
  return (
    <div aria-live="polite" aria-busy={history.isFetching}>
      {history.isPending ? (
        <p>Loading the history…</p>
      ) : history.isError ? (
        <p role="alert">The history could not be loaded. Close and open it again to try once more.</p>
      ) : history.data.entries.length === 0 ? (
        <p>No changes recorded yet.</p>
      ) : (
        <>
          <ol className="history-list">
            {history.data.entries.map((e) => (
              <Change key={e.id} entry={e} question={question} />
            ))}
          </ol>
          {history.data.next_before !== null && <p className="field-help">Showing the newest {history.data.entries.length} changes.</p>}
        </>
      )}
    </div>
  );
}

/**
 * "History" under a question: closed, it costs a <details> and nothing else (no query, no request); opened, it
 * reads the question's newest changes.
 */
export function QuestionHistory({ question, itemId }: { question: QuestionModel; itemId: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <details className="question-history" onToggle={(e) => setOpen(e.currentTarget.open)}>
      {/* Just "History", right after the question it belongs to: a name repeating the question's label would make
          that label name two controls, and finding the field by its label ambiguous. */}
      <summary>History</summary>
      {open && <Changes question={question} itemId={itemId} />}
    </details>
  );
}
