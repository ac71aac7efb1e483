'use client';

import { useFormEnv, useRuntime } from './runtime-context';

const TEXT = {
  idle: 'Answers save automatically as you type.',
  saving: 'Saving…',
  saved: 'All changes saved.',
  offline: 'Offline — kept on this device. Your changes will be sent when the connection returns.',
  error: 'Not saved.',
} as const;

/** Where autosave is at, announced politely; a failed save offers a retry at once. */
export function SaveStatus() {
  const { runtime } = useFormEnv();
  const status = useRuntime((r) => r.autosave.status);
  const lastError = useRuntime((r) => r.autosave.lastError);
  return (
    <div className={`save-status ${status}`} data-status={status}>
      <p role="status" aria-live="polite">
        {TEXT[status]}
        {status === 'error' && lastError ? ` ${lastError}` : ''}
      </p>
      {status === 'error' && (
        <button type="button" className="secondary" onClick={() => runtime.retryNow()}>
          Retry now
        </button>
      )}
    </div>
  );
}
