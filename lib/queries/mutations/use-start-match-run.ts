import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi, projectRunsApi } from '@/lib/api/endpoints';
import { projectCriteriaFormBase } from '@/lib/api/form-base';
import { ApiError } from '@/lib/api/api-error';
import { latestRunKey, putStartedRun, startRunKey } from '../projects';

/**
 * Starts a match run ("Find funders", "Recalculate"). It quotes the criteria's revision as saved now: read
 * at the click, so a save that landed a moment ago counts; a change between that read and the start is a
 * 412, never retried here (the page says so and the person starts again).
 */
export function useStartMatchRun(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: startRunKey(projectId),
    mutationFn: async () => {
      const { application } = await callApi(formApi.application.GET, { params: { form: projectCriteriaFormBase(projectId) } });
      const { run } = await callApi(projectRunsApi.POST, {
        params: { projectId },
        body: { expected_criteria_revision: application.revision },
        headers: { 'Idempotency-Key': crypto.randomUUID() },
      });
      return run;
    },
    onSuccess: (run) => putStartedRun(queryClient, projectId, run),
    onError: (e) => {
      if (e instanceof ApiError && e.status === 412) void queryClient.invalidateQueries({ queryKey: latestRunKey(projectId) });
    },
  });
}
