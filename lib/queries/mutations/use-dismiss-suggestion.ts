import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import { ApiError } from '@/lib/api/api-error';
import { putSuggestion, suggestionsKey } from '../autofill';

/** Dismisses a suggestion; the run's list takes its new status (after a 409 the list is read again). */
export function useDismissSuggestion(applicationId: string, runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (suggestionId: string) =>
      callWithNewKey(autofillApi.suggestionDismiss.POST, { params: { applicationId, suggestionId } }),
    onSuccess: (reply) => putSuggestion(queryClient, applicationId, runId, reply.suggestion),
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409) void queryClient.invalidateQueries({ queryKey: suggestionsKey(applicationId, runId) });
    },
  });
}
