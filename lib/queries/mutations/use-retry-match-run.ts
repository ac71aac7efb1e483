import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postWithNewKey } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import { type RunReply, latestRunKey } from '../projects';

/** Retries a failed match run; the run shown takes the reply (and is read again while it works). */
export function useRetryMatchRun(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => postWithNewKey<RunReply>(apiPaths.project(projectId).run(runId).retry()).then((r) => r.run),
    onSuccess: (run) => queryClient.setQueryData(latestRunKey(projectId), run),
  });
}
