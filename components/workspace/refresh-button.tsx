'use client';

import { useRouter } from 'next/navigation';
import { useRefreshWorkspace } from '@/lib/queries/mutations/use-refresh-workspace';

/**
 * "Refresh now": asks for a reconcile pass, waits for it to finish, then shows the page again from the
 * refreshed rows. What happens is announced in a status region.
 */
export function RefreshButton() {
  const router = useRouter();
  const refresh = useRefreshWorkspace();
  const busy = refresh.isPending;
  const message = busy
    ? 'Checking every business against the Portal…'
    : refresh.isError
      ? `The check did not finish: ${refresh.error.message}`
      : refresh.data?.freshness.last_error
        ? 'The check stopped before the end; the lists show what it reached.'
        : refresh.isSuccess
          ? 'Up to date with the Portal.'
          : '';
  return (
    <div className="ws-refresh">
      <button type="button" className="secondary" aria-disabled={busy} onClick={() => !busy && refresh.mutate(undefined, { onSuccess: () => router.refresh() })}>
        {busy ? 'Refreshing…' : 'Refresh now'}
      </button>
      <p role="status" className="muted">
        {message}
      </p>
    </div>
  );
}
