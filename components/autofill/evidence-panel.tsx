'use client';

import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { apiFetch } from '@/lib/api/api-fetch';
import { uploadEvidence } from '@/lib/api/upload-evidence';
import { EVIDENCE_UPLOAD_TYPES, MAX_EVIDENCE_BYTES, PreparationReply, type EvidenceSourceView, type PreparationView } from '@/lib/bff/autofill';
import { acceptAttribute, checkFilesBeforeUpload, describeTypes, formatBytes } from '@/lib/forms/file-checks';
import type { AutofillApiBase } from '@/lib/queries/autofill';
import { messageOf, preparationConflictOf } from './errors';
import { usePreparationWrites } from './use-preparation';

interface Props {
  base: AutofillApiBase;
  preparation: PreparationView;
  canEdit: boolean;
}

interface Upload {
  key: number;
  file: File;
  loaded: number;
  started: boolean;
  controller: AbortController;
}

/** Two at a time keeps a batch moving without flooding the connection. */
const PARALLEL_UPLOADS = 2;
const ACCEPT = acceptAttribute(EVIDENCE_UPLOAD_TYPES);

const STATUS_TEXT: Record<string, string> = {
  pending: 'Waiting to be read',
  running: 'Being read',
  success: 'Ready',
  failed: 'Could not be read',
};

/**
 * Evidence documents: choose or drop several, each uploads with its own progress bar, then the Portal reads
 * it (pending → running → success | failed, with the reason). The page polls the preparation until every
 * file has settled, and the live region says when each one does.
 */
export function EvidencePanel({ base, preparation, canEdit }: Props) {
  const { latest, remember } = usePreparationWrites(base);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);
  const waiting = useRef<Upload[]>([]);
  const running = useRef(0);
  const inFlight = useRef(new Set<AbortController>());
  const files = useMemo(() => preparation.evidence_sources.filter((s) => s.kind !== 'text'), [preparation.evidence_sources]);

  // Leaving the page stops what is still uploading.
  useEffect(() => {
    const queue = waiting;
    const controllers = inFlight.current;
    return () => {
      queue.current = [];
      for (const c of controllers) c.abort();
    };
  }, []);

  // Say when a file has been read (or could not be), once per change of its status.
  const seen = useRef<Map<string, string | null> | null>(null);
  useEffect(() => {
    const before = seen.current;
    const now = new Map(files.map((f) => [f.id ?? f.name ?? '', f.status]));
    seen.current = now;
    if (before === null) return;
    const settled = files.filter((f) => {
      const was = before.get(f.id ?? f.name ?? '');
      return was !== undefined && was !== f.status && (f.status === 'success' || f.status === 'failed');
    });
    if (settled.length > 0) {
      setStatus(settled.map((f) => `${f.name ?? 'A file'}: ${f.status === 'success' ? 'ready' : `could not be read. ${f.failure_reason ?? ''}`}`).join(' '));
    }
  }, [files]);

  const patch = (key: number, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  const drop = (key: number) => setUploads((list) => list.filter((u) => u.key !== key));

  function pump() {
    while (running.current < PARALLEL_UPLOADS && waiting.current.length > 0) {
      const next = waiting.current.shift()!;
      running.current += 1;
      void run(next).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }

  async function run({ file, key, controller }: Upload) {
    if (controller.signal.aborted) return;
    patch(key, { started: true });
    inFlight.current.add(controller);
    try {
      const reply = await uploadEvidence({ base, file, signal: controller.signal, onProgress: (loaded) => patch(key, { loaded }) });
      drop(key);
      await remember({ preparation: reply.preparation, etag: reply.etag });
      setStatus(`${file.name} uploaded; waiting to be read.`);
    } catch (e) {
      drop(key);
      if (controller.signal.aborted) return;
      setProblems((list) => [...list, `${file.name} was not uploaded. ${messageOf(e)}`]);
    } finally {
      inFlight.current.delete(controller);
    }
  }

  function add(chosen: File[], how: string) {
    if (chosen.length === 0) return;
    const checks = checkFilesBeforeUpload(chosen, {
      already: 0,
      maxFiles: undefined,
      multiple: true,
      allowedTypes: EVIDENCE_UPLOAD_TYPES,
      maxBytes: MAX_EVIDENCE_BYTES,
    });
    setProblems(checks.flatMap((c) => (c.ok ? [] : [c.message])));
    const accepted = checks.flatMap((c): Upload[] =>
      c.ok ? [{ key: nextKey.current++, file: c.file, loaded: 0, started: false, controller: new AbortController() }] : [],
    );
    if (accepted.length > 0) {
      setUploads((list) => [...list, ...accepted]);
      waiting.current.push(...accepted);
      pump();
    }
    const refused = checks.length - accepted.length;
    setStatus(
      `${plural(checks.length)} ${how}. ${accepted.length > 0 ? `Uploading ${plural(accepted.length)}. ` : ''}${refused > 0 ? `${plural(refused)} not accepted.` : ''}`,
    );
  }

  function cancel(upload: Upload) {
    waiting.current = waiting.current.filter((u) => u.key !== upload.key);
    upload.controller.abort();
    drop(upload.key);
    setStatus(`Upload of ${upload.file.name} cancelled.`);
    inputRef.current?.focus();
  }

  async function remove(file: EvidenceSourceView) {
    const id = file.id;
    if (!id || removing.has(id)) return;
    setRemoving((s) => new Set(s).add(id));
    const name = file.name ?? 'The file';
    const attempt = () =>
      apiFetch(`${base}/preparation/files/${encodeURIComponent(id)}`, {
        method: 'DELETE',
        headers: { 'If-Match': latest()?.etag ?? '*' },
        schema: PreparationReply,
      });
    try {
      let reply: PreparationReply;
      try {
        reply = await attempt();
      } catch (e) {
        // The preparation moved on (another file was read): removing this one is still what was asked.
        const current = preparationConflictOf(e);
        if (!current) throw e;
        await remember(current);
        if (!current.preparation.evidence_sources.some((s) => s.id === id)) {
          setStatus(`${name} had already been removed.`);
          return;
        }
        reply = await attempt();
      }
      await remember(reply);
      setStatus(`${name} removed.`);
      inputRef.current?.focus();
    } catch (e) {
      setProblems((list) => [...list, `${name} was not removed. ${messageOf(e)}`]);
    } finally {
      setRemoving((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
  }

  function onDragOver(e: DragEvent<HTMLDivElement>) {
    if (!e.dataTransfer.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  }
  function onDragLeave(e: DragEvent<HTMLDivElement>) {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  }
  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    add(Array.from(e.dataTransfer.files), 'dropped');
  }

  return (
    <section className="autofill-panel" aria-labelledby="autofill-evidence-title">
      <h2 id="autofill-evidence-title">Evidence documents</h2>
      {files.length === 0 ? (
        <p className="muted">No documents yet.</p>
      ) : (
        <table className="table autofill-files">
          <caption className="visually-hidden">Evidence documents and whether Autofill could read them</caption>
          <thead>
            <tr>
              <th scope="col">Document</th>
              <th scope="col">Size</th>
              <th scope="col">Status</th>
              {canEdit && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {files.map((f) => {
              const busy = f.id !== null && removing.has(f.id);
              return (
                <tr key={f.id ?? f.name} data-status={f.status ?? undefined}>
                  <td>{f.name ?? 'Unnamed document'}</td>
                  <td>{f.size !== null ? formatBytes(f.size) : ''}</td>
                  <td>
                    <span className={`autofill-badge autofill-file-${f.status ?? 'unknown'}`}>{STATUS_TEXT[f.status ?? ''] ?? 'Unknown'}</span>
                    {f.status === 'failed' && f.failure_reason && <span className="autofill-reason"> {f.failure_reason}</span>}
                  </td>
                  {canEdit && (
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`${busy ? 'Removing' : 'Remove'} ${f.name ?? 'document'}`}
                        aria-disabled={busy || undefined}
                        onClick={() => void remove(f)}
                      >
                        {busy ? 'Removing…' : 'Remove'}
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {uploads.length > 0 && (
        <ul className="autofill-uploads" aria-label="Uploading">
          {uploads.map((u) => (
            <li key={u.key}>
              <span>{u.file.name}</span>
              {u.started ? (
                <progress aria-label={`Uploading ${u.file.name}`} value={u.loaded} max={u.file.size} />
              ) : (
                <progress aria-label={`Waiting to upload ${u.file.name}`} />
              )}
              <span className="muted" aria-hidden="true">
                {u.started ? `${Math.floor((100 * u.loaded) / u.file.size)}%` : 'Waiting'}
              </span>
              <button type="button" className="link-button" aria-label={`Cancel upload of ${u.file.name}`} onClick={() => cancel(u)}>
                Cancel
              </button>
            </li>
          ))}
        </ul>
      )}
      {canEdit && (
        <div
          className={dragging ? 'autofill-zone autofill-zone-active' : 'autofill-zone'}
          onDragEnter={onDragOver}
          onDragOver={onDragOver}
          onDragLeave={onDragLeave}
          onDrop={onDrop}
          data-testid="evidence-drop-zone"
        >
          <label htmlFor="autofill-evidence-input">Add documents</label>
          <input
            ref={inputRef}
            id="autofill-evidence-input"
            type="file"
            multiple
            accept={ACCEPT}
            aria-describedby="autofill-evidence-help"
            onChange={(e) => {
              add(Array.from(e.target.files ?? []), 'chosen');
              e.target.value = '';
            }}
          />
          <p id="autofill-evidence-help" className="muted">
            Or drop files here. Autofill reads text, CSV and PDF; {describeTypes(EVIDENCE_UPLOAD_TYPES)} are accepted, up to{' '}
            {formatBytes(MAX_EVIDENCE_BYTES)} each.
          </p>
        </div>
      )}
      {problems.length > 0 && (
        <div className="notice warning" role="alert">
          <ul>
            {problems.map((p, i) => (
              <li key={i}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      <p role="status" className="muted autofill-status">
        {status}
      </p>
    </section>
  );
}

const plural = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
