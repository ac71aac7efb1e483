'use client';

import { useRef, useState } from 'react';
import { ApiError } from '@/lib/api/api-error';
import { apiUrl } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import type { FormBase, UploadTarget } from '@/lib/api/form-base';
import { uploadFile } from '@/lib/api/upload-file';
import type { FileView } from '@/lib/bff/files';
import { acceptAttribute, checkFilesBeforeUpload, choiceSummary, formatBytes } from '@/lib/forms/file-checks';
import { useDeleteFile } from '@/lib/queries/mutations/use-delete-file';
import { FileInput } from '../uploads/file-input';
import { RemoveFileButton } from '../uploads/remove-file-button';
import { UploadProgressList } from '../uploads/upload-progress-list';
import { useFileDrop } from '../uploads/use-file-drop';
import { useUploadQueue, type QueuedUpload } from '../uploads/use-upload-queue';
import './file-field.css';

export interface FileFieldProps {
  apiBase: FormBase;
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
  /** What staff asked the client to change here (review before submit), shown and read with the control. */
  changeComment?: string;
  onUploaded(file: FileView): void;
  onRemoved(fileId: string): void;
}

interface Problem {
  key: string;
  message: string;
}

const ACCEPT = acceptAttribute();

export function FileField(props: FileFieldProps) {
  const { apiBase, inputId, label, helpText, hint, required, target, maxFiles, readOnly, files, error, changeComment } = props;
  const ids = { change: `${inputId}-change`, help: `${inputId}-help`, hint: `${inputId}-hint`, error: `${inputId}-error`, problems: `${inputId}-problems` };
  const multiple = maxFiles !== 1;

  const [problems, setProblems] = useState<Problem[]>([]);
  const deletion = useDeleteFile(apiBase);
  const [status, setStatus] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const nextCheck = useRef(0);

  const addProblem = (key: string, message: string) =>
    setProblems((list) => [...list.filter((p) => p.key !== key), { key, message }]);

  const { uploads, enqueue, cancel: stop } = useUploadQueue(
    async (file, signal, onProgress) => {
      const view = await uploadFile({ apiBase, target, file, signal, onProgress });
      props.onUploaded(view);
      setStatus(`${file.name} uploaded`);
    },
    (file, e) => addProblem(`upload-${file.name}-${nextCheck.current++}`, `${file.name} was not uploaded. ${messageOf(e)}`),
  );
  const { dragging, zoneProps } = useFileDrop((dropped) => add(dropped, 'dropped'));

  function add(chosen: File[], how: 'chosen' | 'dropped') {
    if (chosen.length === 0) return;
    const checks = checkFilesBeforeUpload(chosen, { already: files.length + uploads.length, maxFiles, multiple });
    const batch = nextCheck.current++;
    // A new choice replaces the refusals of the last one, which the user has read by now.
    setProblems(checks.flatMap((c, i) => (c.ok ? [] : [{ key: `check-${batch}-${i}`, message: c.message }])));
    const accepted = checks.flatMap((c) => (c.ok ? [c.file] : []));
    enqueue(accepted);
    setStatus(choiceSummary(checks, how));
  }

  function cancel(upload: QueuedUpload) {
    stop(upload);
    setStatus(`Upload of ${upload.file.name} cancelled`);
    // The cancel button is gone; the chooser is the natural next stop.
    inputRef.current?.focus();
  }

  async function remove(file: FileView) {
    if (deletion.removing.includes(file.id)) return;
    setProblems((list) => list.filter((p) => p.key !== `remove-${file.id}`));
    try {
      await deletion.mutateAsync(file.id);
      props.onRemoved(file.id);
      setStatus(`${file.filename} removed`);
      inputRef.current?.focus();
    } catch (e) {
      addProblem(`remove-${file.id}`, `${file.filename} was not removed. ${messageOf(e)}`);
    }
  }

  const describedBy =
    [changeComment !== undefined && ids.change, helpText && ids.help, hint && ids.hint, error && ids.error, problems.length > 0 && ids.problems].filter(Boolean).join(' ') ||
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
      {changeComment !== undefined && (
        <p id={ids.change} className="field-change-request">
          <strong>Change requested:</strong> {changeComment}
        </p>
      )}
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
            const busy = deletion.removing.includes(f.id);
            return (
              <li key={f.id}>
                <a href={apiUrl(formApi.fileDownload.GET, { params: { form: apiBase, fileId: f.id } })}>{f.filename}</a>
                <span className="muted"> ({formatBytes(f.size)})</span>
                {!readOnly && (
                  <RemoveFileButton fileName={f.filename} busy={busy} onRemove={() => void remove(f)} />
                )}
              </li>
            );
          })}
        </ul>
      ) : (
        readOnly && <p className="muted file-field-text">No files attached.</p>
      )}

      <UploadProgressList uploads={uploads} onCancel={cancel} className="file-field-list" />

      {!readOnly && (
        <div
          className={dragging ? 'file-field-zone file-field-zone-active' : 'file-field-zone'}
          {...zoneProps}
        >
          <span className="muted">Drag and drop {multiple ? 'files' : 'a file'} here, or</span>
          <label htmlFor={inputId}>{multiple ? 'Choose files' : 'Choose a file'}</label>
          <FileInput
            ref={inputRef}
            id={inputId}
            multiple={multiple}
            accept={ACCEPT}
            invalid={Boolean(error)}
            describedBy={describedBy}
            onFiles={(chosen) => add(chosen, 'chosen')}
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

function messageOf(e: unknown): string {
  return e instanceof ApiError ? e.message : 'Something went wrong. Try again.';
}
