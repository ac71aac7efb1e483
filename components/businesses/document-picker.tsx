'use client';

import { useState, type DragEvent } from 'react';
import { MAX_UPLOAD_BYTES } from '@/lib/bff/file-transfer';
import { acceptAttribute, checkFilesBeforeUpload, describeTypes, formatBytes } from '@/lib/forms/file-checks';

const ACCEPT = acceptAttribute();

interface Props {
  files: readonly File[];
  onChange(files: File[]): void;
  disabled: boolean;
}

/**
 * The documents a new business starts with, chosen or dropped before it exists: they are sent once the
 * Portal has created the business and issued its document slots. Files the app would refuse are refused here.
 */
export function DocumentPicker({ files, onChange, disabled }: Props) {
  const [problems, setProblems] = useState<string[]>([]);
  const [status, setStatus] = useState('');
  const [dragging, setDragging] = useState(false);

  function add(chosen: File[], how: string) {
    if (chosen.length === 0) return;
    const checks = checkFilesBeforeUpload(chosen, { already: files.length, maxFiles: undefined, multiple: true });
    const accepted = checks.flatMap((c) => (c.ok ? [c.file] : []));
    setProblems(checks.flatMap((c) => (c.ok ? [] : [c.message])));
    onChange([...files, ...accepted]);
    setStatus(`${chosen.length} ${chosen.length === 1 ? 'file' : 'files'} ${how}, ${accepted.length} added.`);
  }

  function remove(index: number) {
    const file = files[index]!;
    onChange(files.filter((_, i) => i !== index));
    setStatus(`${file.name} removed.`);
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled) add([...e.dataTransfer.files], 'dropped');
  };

  return (
    <fieldset className="biz-docs" aria-describedby="biz-docs-hint">
      <legend>Initial documents (optional)</legend>
      <p id="biz-docs-hint" className="field-hint">
        {describeTypes()}, up to {formatBytes(MAX_UPLOAD_BYTES)} each. Once the business is created you say what each document is, and
        it is uploaded to the business’s application.
      </p>
      <div
        className={dragging ? 'biz-docs-zone biz-docs-zone-active' : 'biz-docs-zone'}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label htmlFor="biz-docs-input">Choose documents</label>
        <input
          id="biz-docs-input"
          type="file"
          multiple
          accept={ACCEPT}
          disabled={disabled}
          onChange={(e) => {
            add([...(e.target.files ?? [])], 'chosen');
            // The same file can be chosen again after it was removed.
            e.target.value = '';
          }}
        />
        <span className="muted">or drop them here</span>
      </div>
      {problems.length > 0 && (
        <div role="alert" className="form-error">
          <p>Some files were not added:</p>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}
      {files.length > 0 && (
        <ul className="biz-docs-list" aria-label="Documents to upload">
          {files.map((f, i) => (
            <li key={`${f.name}-${f.size}-${f.lastModified}-${i}`}>
              <span>{f.name}</span> <span className="muted">({formatBytes(f.size)})</span>
              <button type="button" className="link-button" disabled={disabled} onClick={() => remove(i)}>
                Remove<span className="visually-hidden"> {f.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p role="status" className="visually-hidden">
        {status}
      </p>
    </fieldset>
  );
}
