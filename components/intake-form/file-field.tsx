'use client';

import { useEffect, useRef, useState, type DragEvent } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { fileDownloadUrl, removeFile, uploadFile, type UploadTarget } from '@/lib/api/upload-file';
import type { FileView } from '@/lib/bff/files';
import { acceptAttribute, checkFilesBeforeUpload, formatBytes } from '@/lib/forms/file-checks';
import './file-field.css';

export interface FileFieldProps {
  apiBase: string;
  /** id of the visible control, for <label htmlFor> and for links that focus the field */
  inputId: string;
  label: string;
  helpText: string | null;
  hint: string | null;
  required: boolean;
  target: UploadTarget;
  /** 1: a single file; undefined: as many as the user likes. */
  maxFiles: number | undefined;
  readOnly: boolean;
  /** The files attached now; the parent owns the list and updates it from onUploaded / onRemoved. */
  files: readonly FileView[];
  /** The form's validation message for this field. */
  error: string | null;
  onUploaded(file: FileView): void;
  onRemoved(fileId: string): void;
}

interface Upload {
  key: number;
  file: File;
  loaded: number;
  started: boolean;
  controller: AbortController;
}

interface Problem {
  key: string;
  message: string;
}

/** Two at a time keeps a batch moving without one slow file holding up the rest or flooding the connection. */
const PARALLEL_UPLOADS = 2;
const ACCEPT = acceptAttribute();

export function FileField(props: FileFieldProps) {
  const { apiBase, inputId, label, helpText, hint, required, target, maxFiles, readOnly, files, error } = props;
  const ids = { help: `${inputId}-help`, hint: `${inputId}-hint`, error: `${inputId}-error`, problems: `${inputId}-problems` };
  const multiple = maxFiles !== 1;

  const [uploads, setUploads] = useState<Upload[]>([]);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState(false);

  const inputRef = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);
  const waiting = useRef<Upload[]>([]);
  const running = useRef(0);
  const inFlight = useRef(new Set<AbortController>());
  // Uploads finish after renders the callbacks were created in; the latest props are read from here.
  const latest = useRef({ apiBase, target, onUploaded: props.onUploaded, onRemoved: props.onRemoved });
  useEffect(() => {
    latest.current = { apiBase, target, onUploaded: props.onUploaded, onRemoved: props.onRemoved };
  });

  // Leaving the page (or the question being hidden) stops what is still uploading.
  useEffect(() => {
    const queue = waiting;
    const controllers = inFlight.current;
    return () => {
      queue.current = [];
      for (const c of controllers) c.abort();
    };
  }, []);

  const patch = (key: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));
  const drop = (key: number) => setUploads((list) => list.filter((u) => u.key !== key));
  const addProblem = (key: string, message: string) =>
    setProblems((list) => [...list.filter((p) => p.key !== key), { key, message }]);

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

  async function run(upload: Upload) {
    const { file, key, controller } = upload;
    if (controller.signal.aborted) return;
    patch(key, { started: true });
    inFlight.current.add(controller);
    try {
      const view = await uploadFile({
        apiBase: latest.current.apiBase,
        target: latest.current.target,
        file,
        signal: controller.signal,
        onProgress: (loaded) => patch(key, { loaded }),
      });
      drop(key);
      latest.current.onUploaded(view);
      setStatus(`${file.name} uploaded`);
    } catch (e) {
      drop(key);
      if (controller.signal.aborted) return;
      addProblem(`upload-${key}`, `${file.name} was not uploaded. ${messageOf(e)}`);
    } finally {
      inFlight.current.delete(controller);
    }
  }

  function add(chosen: File[], how: string) {
    if (chosen.length === 0) return;
    const checks = checkFilesBeforeUpload(chosen, { already: files.length + uploads.length, maxFiles, multiple });
    const batch = nextKey.current++;
    // A new choice replaces the refusals of the last one, which the user has read by now.
    setProblems(checks.flatMap((c, i) => (c.ok ? [] : [{ key: `check-${batch}-${i}`, message: c.message }])));
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
      `${count(checks.length)} ${how}. ` +
        (accepted.length > 0 ? `Uploading ${count(accepted.length)}. ` : '') +
        (refused > 0 ? `${count(refused)} not accepted.` : ''),
    );
  }

  function cancel(upload: Upload) {
    waiting.current = waiting.current.filter((u) => u.key !== upload.key);
    upload.controller.abort();
    drop(upload.key);
    setStatus(`Upload of ${upload.file.name} cancelled`);
    // The cancel button is gone; the chooser is the natural next stop.
    inputRef.current?.focus();
  }

  async function remove(file: FileView) {
    if (removing.has(file.id)) return;
    setRemoving((s) => new Set(s).add(file.id));
    setProblems((list) => list.filter((p) => p.key !== `remove-${file.id}`));
    try {
      await removeFile(latest.current.apiBase, file.id);
      latest.current.onRemoved(file.id);
      setStatus(`${file.filename} removed`);
      inputRef.current?.focus();
    } catch (e) {
      addProblem(`remove-${file.id}`, `${file.filename} was not removed. ${messageOf(e)}`);
    } finally {
      setRemoving((s) => {
        const next = new Set(s);
        next.delete(file.id);
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
    // dragleave also fires when the pointer moves onto a child of the zone.
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  }

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setDragging(false);
    add(Array.from(e.dataTransfer.files), 'dropped');
  }

  const describedBy =
    [helpText && ids.help, hint && ids.hint, error && ids.error, problems.length > 0 && ids.problems].filter(Boolean).join(' ') ||
    undefined;

  return (
    <fieldset className="file-field">
      <legend>
        {label}
        {required && (
          <>
            <span aria-hidden="true"> *</span>
            <span className="file-field-sr-only"> (required)</span>
          </>
        )}
      </legend>
      {helpText && (
        <p id={ids.help} className="muted file-field-text">
          {helpText}
        </p>
      )}
      {hint && (
        <p id={ids.hint} className="muted file-field-text">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.error} className="field-error">
          {error}
        </p>
      )}

      {files.length > 0 ? (
        <ul className="file-field-list" aria-label="Attached files">
          {files.map((f) => {
            const busy = removing.has(f.id);
            return (
              <li key={f.id}>
                <a href={fileDownloadUrl(apiBase, f.id)}>{f.filename}</a>
                <span className="muted"> ({formatBytes(f.size)})</span>
                {!readOnly && (
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`${busy ? 'Removing' : 'Remove'} ${f.filename}`}
                    // aria-disabled rather than disabled: a disabled button drops the keyboard focus.
                    aria-disabled={busy || undefined}
                    onClick={() => void remove(f)}
                  >
                    {busy ? 'Removing…' : 'Remove'}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        readOnly && <p className="muted file-field-text">No files attached.</p>
      )}

      {uploads.length > 0 && (
        <ul className="file-field-list" aria-label="Uploading">
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

      {!readOnly && (
        <div
          className={dragging ? 'file-field-zone file-field-zone-active' : 'file-field-zone'}
          onDragEnter={onDragOver}
          onDragOver={onDragOver}
          onDragLeave={onDragLeave}
          onDrop={onDrop}
        >
          <span className="muted">Drag and drop {multiple ? 'files' : 'a file'} here, or</span>
          <label htmlFor={inputId}>{multiple ? 'Choose files' : 'Choose a file'}</label>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            multiple={multiple}
            accept={ACCEPT}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={(e) => {
              add(Array.from(e.currentTarget.files ?? []), 'chosen');
              // Cleared so that choosing the same file again (after a failure) fires change again.
              e.currentTarget.value = '';
            }}
          />
        </div>
      )}

      {/* Both regions are always there: screen readers only announce changes to regions they already know. */}
      <div id={ids.problems} role="alert" className="file-field-problems">
        {problems.length > 0 && (
          <ul>
            {problems.map((p) => (
              <li key={p.key} className="field-error">
                {p.message}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p role="status" className="file-field-sr-only">
        {status}
      </p>
    </fieldset>
  );
}

const count = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

function messageOf(e: unknown): string {
  return e instanceof ApiError ? e.message : 'Something went wrong. Try again.';
}
