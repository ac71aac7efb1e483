'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { uploadEvidence } from '@/lib/api/upload-evidence';
import type { EvidenceSourceView, PreparationView } from '@/lib/bff/autofill';
import { EVIDENCE_UPLOAD_TYPES, MAX_EVIDENCE_BYTES } from '@/lib/bff/file-transfer';
import { acceptAttribute, checkFilesBeforeUpload, choiceSummary, describeTypes, formatBytes } from '@/lib/forms/file-checks';
import { putPreparation } from '@/lib/queries/autofill';
import { useDeleteEvidence } from '@/lib/queries/mutations/use-delete-evidence';
import { TableHead } from '../ui/table-head';
import { FileInput } from '../uploads/file-input';
import { RemoveFileButton } from '../uploads/remove-file-button';
import { UploadProgressList } from '../uploads/upload-progress-list';
import { useFileDrop } from '../uploads/use-file-drop';
import { useUploadQueue, type QueuedUpload } from '../uploads/use-upload-queue';
import { messageOf } from './errors';

interface Props {
  applicationId: string;
  preparation: PreparationView;
  canEdit: boolean;
}

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
export function EvidencePanel({ applicationId, preparation, canEdit }: Props) {
  const queryClient = useQueryClient();
  const deletion = useDeleteEvidence(applicationId);
  const [problems, setProblems] = useState<string[]>([]);
  const [status, setStatus] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const files = useMemo(() => preparation.evidence_sources.filter((s) => s.kind !== 'text'), [preparation.evidence_sources]);

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

  const { uploads, enqueue, cancel: stop } = useUploadQueue(
    async (file, signal, onProgress) => {
      const reply = await uploadEvidence({ applicationId, file, signal, onProgress });
      await putPreparation(queryClient, applicationId, { preparation: reply.preparation, etag: reply.etag });
      setStatus(`${file.name} uploaded; waiting to be read.`);
    },
    (file, e) => setProblems((list) => [...list, `${file.name} was not uploaded. ${messageOf(e)}`]),
  );
  const { dragging, zoneProps } = useFileDrop((dropped) => add(dropped, 'dropped'));

  function add(chosen: File[], how: 'chosen' | 'dropped') {
    if (chosen.length === 0) return;
    const checks = checkFilesBeforeUpload(chosen, {
      already: 0,
      maxFiles: undefined,
      multiple: true,
      allowedTypes: EVIDENCE_UPLOAD_TYPES,
      maxBytes: MAX_EVIDENCE_BYTES,
    });
    setProblems(checks.flatMap((c) => (c.ok ? [] : [c.message])));
    const accepted = checks.flatMap((c) => (c.ok ? [c.file] : []));
    enqueue(accepted);
    setStatus(choiceSummary(checks, how));
  }

  function cancel(upload: QueuedUpload) {
    stop(upload);
    setStatus(`Upload of ${upload.file.name} cancelled.`);
    inputRef.current?.focus();
  }

  async function remove(file: EvidenceSourceView) {
    const id = file.id;
    if (!id || deletion.removing.includes(id)) return;
    const name = file.name ?? 'The file';
    try {
      if ((await deletion.mutateAsync(id)) === 'already-removed') {
        setStatus(`${name} had already been removed.`);
        return;
      }
      setStatus(`${name} removed.`);
      inputRef.current?.focus();
    } catch (e) {
      setProblems((list) => [...list, `${name} was not removed. ${messageOf(e)}`]);
    }
  }

  return (
    <section className="autofill-panel" aria-labelledby="autofill-evidence-title">
      <h2 id="autofill-evidence-title">Evidence documents</h2>
      {files.length === 0 ? (
        <p className="muted">No documents yet.</p>
      ) : (
        <table className="table stacked autofill-files">
          <TableHead caption="Evidence documents and whether Autofill could read them" columns={['Document', 'Size', 'Status']} actions={canEdit} />
          <tbody>
            {files.map((f) => {
              const busy = f.id !== null && deletion.removing.includes(f.id);
              return (
                <tr key={f.id ?? f.name} data-status={f.status ?? undefined}>
                  <td data-label="Document">{f.name ?? 'Unnamed document'}</td>
                  <td data-label="Size">{f.size !== null ? formatBytes(f.size) : ''}</td>
                  <td data-label="Status">
                    <span className={`autofill-badge autofill-file-${f.status ?? 'unknown'}`}>{STATUS_TEXT[f.status ?? ''] ?? 'Unknown'}</span>
                    {f.status === 'failed' && f.failure_reason && <span className="autofill-reason"> {f.failure_reason}</span>}
                  </td>
                  {canEdit && (
                    <td>
                      <RemoveFileButton fileName={f.name ?? 'document'} busy={busy} onRemove={() => void remove(f)} />
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <UploadProgressList uploads={uploads} onCancel={cancel} className="autofill-uploads" />
      {canEdit && (
        <div
          className={dragging ? 'autofill-zone autofill-zone-active' : 'autofill-zone'}
          {...zoneProps}
          data-testid="evidence-drop-zone"
        >
          <label htmlFor="autofill-evidence-input">Add documents</label>
          <FileInput
            ref={inputRef}
            id="autofill-evidence-input"
            multiple
            accept={ACCEPT}
            describedBy="autofill-evidence-help"
            onFiles={(chosen) => add(chosen, 'chosen')}
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
