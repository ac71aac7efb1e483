import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { workspaceApi } from '@/lib/api/endpoints';

const POLL_MS = 1_000;
// A pass over a large Portal takes minutes; the page stops waiting (and says so) rather than spin for ever.
const MAX_POLLS = 600;

/**
 * "Refresh now": asks for a reconcile pass of the workspace (run by the instance asked, or already running on
 * another) and resolves with the status once no pass runs any more. The instance that takes the request reports
 * its own pass as running before it replies, so the first poll cannot miss it.
 */
export function useRefreshWorkspace() {
  return useMutation({
    mutationFn: async () => {
      await callApi(workspaceApi.reconcile.POST);
      for (let n = 0; n < MAX_POLLS; n++) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const status = await callApi(workspaceApi.reconcile.GET);
        if (!status.freshness.reconciling) return status;
      }
      throw new Error('The check is taking long; the page shows it once it has finished.');
    },
  });
}
