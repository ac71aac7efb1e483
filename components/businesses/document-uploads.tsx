'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { uploadBusinessDocument } from '@/lib/api/upload-business-document';
import type { BusinessCreatedView } from '@/lib/bff/businesses';
import { formatBytes } from '@/lib/forms/file-checks';
import { applicationContractQuery } from '@/lib/queries/application-contract';
import { slotLabels } from './slot-labels';

type State =
  | { kind: 'ready' }
  | { kind: 'uploading'; loaded: number; total: number }
  | { kind: 'done'; total: number }
  | { kind: 'failed'; message: string };

interface Row {
  file: File;
  slotId: string;
  state: State;
  choiceError: string | null;
}

/** Two at a time keeps a batch moving without flooding the connection (as the form's file questions do). */
const PARALLEL_UPLOADS = 2;

interface Props {
  created: BusinessCreatedView;
  files: readonly File[];
  /** Called when every document is in (or there were none left to send). */
  onFinished(): void;
}

/**
 * The second step of creating a business with documents: the Portal issued one slot per file question of
 * the application; the person says which each document is, then each is streamed to its slot with progress.
 */
export function DocumentUploads({ created, files, onFinished }: Props) {
  const slots = created.uploads;
  const { data: contract, isPending } = useQuery(applicationContractQuery(created.application.id));
  const labels = slotLabels(slots, contract);
  // With one slot there is nothing to choose; with several the person decides (a document is never guessed into one).
  const [rows, setRows] = useState<Row[]>(() =>
    files.map((file) => ({ file, slotId: slots.length === 1 ? slots[0]!.id : '', state: { kind: 'ready' }, choiceError: null })),
  );
  const [status, setStatus] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const running = useRef(false);
  const stop = useRef(new AbortController());
  useEffect(() => {
    const controller = stop.current;
    return () => controller.abort();
  }, []);

  const patch = (i: number, change: Partial<Row>) => setRows((list) => list.map((r, j) => (j === i ? { ...r, ...change } : r)));

  function choose(i: number, slotId: string) {
    patch(i, { slotId, choiceError: null });
  }

  /** Single-file slots keep only the newest file, so two documents for one of them would lose one. */
  function checkChoices(list: Row[]): Row[] {
    return list.map((r, i) => {
      if (r.state.kind === 'done') return r;
      if (!r.slotId) return { ...r, choiceError: `Choose what ${r.file.name} is` };
      const slot = slots.find((s) => s.id === r.slotId)!;
      const clash = !slot.multiple && list.some((o, j) => j !== i && o.slotId === r.slotId);
      return { ...r, choiceError: clash ? `${labels.get(slot.id)} takes one document: choose another for ${r.file.name}` : null };
    });
  }

  async function uploadAll() {
    if (running.current) return;
    const checked = checkChoices(rows);
    setRows(checked);
    const wrong = checked.findIndex((r) => r.choiceError);
    if (wrong >= 0) {
      setProblem('Say what each document is before uploading.');
      document.getElementById(`biz-doc-slot-${wrong}`)?.focus();
      return;
    }
    setProblem(null);
    running.current = true;
    const todo = checked.flatMap((r, i) => (r.state.kind === 'done' ? [] : [i]));
    setStatus(`Uploading ${todo.length} ${todo.length === 1 ? 'document' : 'documents'}…`);
    const outcomes: boolean[] = [];
    const worker = async () => {
      for (let i = todo.shift(); i !== undefined; i = todo.shift()) outcomes.push(await uploadOne(i, checked[i]!));
    };
    await Promise.all(Array.from({ length: PARALLEL_UPLOADS }, worker));
    running.current = false;
    if (stop.current.signal.aborted) return;
    const failed = outcomes.filter((ok) => !ok).length;
    if (failed === 0) {
      setStatus('All documents are uploaded.');
      onFinished();
    } else {
      setStatus(`${failed} ${failed === 1 ? 'document was' : 'documents were'} not uploaded.`);
      setProblem('Some documents were not uploaded: see below, then try again.');
    }
  }

  async function uploadOne(i: number, row: Row): Promise<boolean> {
    patch(i, { state: { kind: 'uploading', loaded: 0, total: row.file.size } });
    try {
      await uploadBusinessDocument({
        businessId: created.business.id,
        uploadId: row.slotId,
        file: row.file,
        signal: stop.current.signal,
        onProgress: (loaded, total) => patch(i, { state: { kind: 'uploading', loaded, total } }),
      });
      patch(i, { state: { kind: 'done', total: row.file.size } });
      return true;
    } catch (e) {
      const message = e instanceof ApiError ? `${e.message}${e.details[0] ? ` ${e.details[0].message}` : ''}` : 'The upload failed.';
      patch(i, { state: { kind: 'failed', message } });
      return false;
    }
  }

  const busy = rows.some((r) => r.state.kind === 'uploading');
  const left = rows.filter((r) => r.state.kind !== 'done').length;

  return (
    <section aria-labelledby="biz-docs-title" className="stack">
      <h2 id="biz-docs-title">Initial documents</h2>
      {isPending && (
        <p role="status" className="loading">
          Reading the application’s document questions…
        </p>
      )}
      <div role="alert">{problem && <p className="form-error">{problem}</p>}</div>
      <ol className="biz-uploads">
        {rows.map((r, i) => {
          const id = `biz-doc-slot-${i}`;
          const progressId = `biz-doc-progress-${i}`;
          return (
            <li key={i} className="biz-upload">
              <p className="biz-upload-name">
                <strong>{r.file.name}</strong> <span className="muted">({formatBytes(r.file.size)})</span>
              </p>
              <div className="field">
                <label htmlFor={id}>What is {r.file.name}?</label>
                <select
                  id={id}
                  value={r.slotId}
                  disabled={r.state.kind === 'uploading' || r.state.kind === 'done'}
                  aria-invalid={r.choiceError ? true : undefined}
                  aria-describedby={r.choiceError ? `${id}-error` : undefined}
                  onChange={(e) => choose(i, e.target.value)}
                >
                  {slots.length > 1 && <option value="">Choose…</option>}
                  {slots.map((s) => (
                    <option key={s.id} value={s.id}>
                      {labels.get(s.id)}
                    </option>
                  ))}
                </select>
                {r.choiceError && (
                  <p id={`${id}-error`} className="field-error">
                    {r.choiceError}
                  </p>
                )}
              </div>
              {(r.state.kind === 'uploading' || r.state.kind === 'done') && (
                <div className="biz-upload-progress">
                  <span id={progressId}>{r.state.kind === 'done' ? `${r.file.name} uploaded` : `Uploading ${r.file.name}`}</span>
                  <progress aria-labelledby={progressId} max={Math.max(1, r.state.total)} value={r.state.kind === 'done' ? r.state.total : r.state.loaded} />
                </div>
              )}
              {r.state.kind === 'failed' && <p className="field-error">{`${r.file.name} was not uploaded. ${r.state.message}`}</p>}
            </li>
          );
        })}
      </ol>
      <p role="status" className="visually-hidden">
        {status}
      </p>
      {left > 0 && (
        <div className="actions">
          <button type="button" onClick={() => void uploadAll()} disabled={busy}>
            {busy ? 'Uploading…' : rows.some((r) => r.state.kind === 'failed') ? 'Try the upload again' : `Upload ${left === 1 ? 'the document' : `${left} documents`}`}
          </button>
        </div>
      )}
    </section>
  );
}
