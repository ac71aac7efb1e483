import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import { ApiError, conflictCurrent } from '@/lib/api/api-error';
import type { PreparationReply, RunView, StartRequest } from '@/lib/bff/autofill';
import { preparationKey, putPreparation, runKey, runsKey } from '../autofill';

/** Started (the new run), or refused because the preparation changed after the person saw it (412). */
export type StartOutcome = { kind: 'started'; run: RunView } | { kind: 'stale' };

/**
 * Starts Autofill on the preparation revision the person saw, with a fresh Idempotency-Key per click. The
 * new run goes into the cache at once; after a 412 the preparation as it is now does.
 */
export function useStartAutofill(applicationId: string) {
  const queryClient = useQueryClient();
  const refreshPreparation = () => void queryClient.invalidateQueries({ queryKey: preparationKey(applicationId) });
  return useMutation({
    mutationFn: async (body: StartRequest): Promise<StartOutcome> => {
      try {
        const { run } = await callWithNewKey(autofillApi.start.POST, { params: { applicationId }, body });
        return { kind: 'started', run };
      } catch (e) {
        const current = conflictCurrent<PreparationReply>(e);
        if (!current) throw e;
        await putPreparation(queryClient, applicationId, current);
        return { kind: 'stale' };
      }
    },
    onSuccess: (outcome) => {
      if (outcome.kind !== 'started') return;
      const { run } = outcome;
      queryClient.setQueryData(runKey(applicationId, run.id), run);
      queryClient.setQueryData<RunView[]>(runsKey(applicationId), (list) => [run, ...(list ?? []).filter((r) => r.id !== run.id)]);
      refreshPreparation();
    },
    onError: (e) => {
      // The Portal would not start now (a run under way, nothing readable): what it says may have moved.
      if (e instanceof ApiError && e.status === 409) refreshPreparation();
    },
  });
}
