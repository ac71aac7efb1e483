'use client';

import type { QueuedUpload } from './use-upload-queue';

/** Files waiting or uploading, each with its progress bar and a cancel button. */
export function UploadProgressList({ uploads, onCancel, className }: { uploads: readonly QueuedUpload[]; onCancel(u: QueuedUpload): void; className: string }) {
  if (uploads.length === 0) return null;
  return (
    <ul className={className} aria-label="Uploading">
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
          <button type="button" className="link-button" aria-label={`Cancel upload of ${u.file.name}`} onClick={() => onCancel(u)}>
            Cancel
          </button>
        </li>
      ))}
    </ul>
  );
}
