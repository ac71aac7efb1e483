import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { projectRunRetryApi } from '@/lib/api/endpoints';
import { latestRunKey } from '../projects';

/** Retries a failed match run; the run shown takes the reply (and is read again while it works). */
export function useRetryMatchRun(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => callWithNewKey(projectRunRetryApi.POST, { params: { projectId, runId } }).then((r) => r.run),
    onSuccess: (run) => queryClient.setQueryData(latestRunKey(projectId), run),
  });
}
