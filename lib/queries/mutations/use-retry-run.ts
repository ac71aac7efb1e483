import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postWithNewKey } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { RunReply } from '@/lib/bff/autofill';
import { runKey } from '../autofill';

/** Retries a failed run; the run shown takes the reply (and polls again while it works). */
export function useRetryRun(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) => postWithNewKey<RunReply>(apiPaths.application(applicationId).autofill.run(runId).retry()).then((r) => r.run),
    onSuccess: (run, runId) => queryClient.setQueryData(runKey(applicationId, runId), run),
  });
}
