import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import { runKey } from '../autofill';

/** Retries a failed run; the run shown takes the reply (and polls again while it works). */
export function useRetryRun(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => callWithNewKey(autofillApi.runRetry.POST, { params: { applicationId, runId } }).then((r) => r.run),
    onSuccess: (run, runId) => queryClient.setQueryData(runKey(applicationId, runId), run),
  });
}
