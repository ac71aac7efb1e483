import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { ApplicationView } from '@/lib/bff/applications';
import { type RunReply, latestRunKey } from '../projects';

interface CriteriaReply {
  application: ApplicationView;
}

/**
 * Starts a match run ("Find funders", "Recalculate"). It quotes the criteria's revision as saved now: read
 * at the click, so a save that landed a moment ago counts; a change between that read and the start is a
 * 412, never retried here (the page says so and the person starts again).
 */
export function useStartMatchRun(projectId: string) {
  const queryClient = useQueryClient();
  const paths = apiPaths.project(projectId);
  return useMutation({
    mutationFn: async () => {
      const { application } = await apiFetch<CriteriaReply>(paths.criteria().self());
      const { run } = await apiFetch<RunReply>(paths.runs(), {
        method: 'POST',
        body: { expected_criteria_revision: application.revision },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      return run;
    },
    onSuccess: (run) => queryClient.setQueryData(latestRunKey(projectId), run),
    onError: (e) => {
      if (e instanceof ApiError && e.status === 412) void queryClient.invalidateQueries({ queryKey: latestRunKey(projectId) });
    },
  });
}
