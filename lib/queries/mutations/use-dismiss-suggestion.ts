import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error';
import { postWithNewKey } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { SuggestionDismissReply } from '@/lib/bff/autofill';
import { putSuggestion, suggestionsKey } from '../autofill';

/** Dismisses a suggestion; the run's list takes its new status (after a 409 the list is read again). */
export function useDismissSuggestion(applicationId: string, runId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (suggestionId: string) =>
      postWithNewKey<SuggestionDismissReply>(apiPaths.application(applicationId).autofill.suggestion(suggestionId).dismiss()),
    onSuccess: (reply) => putSuggestion(queryClient, applicationId, runId, reply.suggestion),
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409) void queryClient.invalidateQueries({ queryKey: suggestionsKey(applicationId, runId) });
    },
  });
}
