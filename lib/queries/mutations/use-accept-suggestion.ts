import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import { intakeFormBase } from '@/lib/api/form-base';
import { ApiError } from '@/lib/api/api-error';
import { putSuggestion, suggestionsKey } from '../autofill';
import { formSnapshotKey } from '../form-snapshot';

export interface AcceptSuggestion {
  suggestionId: string;
  /** One of several accepted in a row: the form's answers are read again once, after the last. */
  inBatch?: boolean;
}

/**
 * Accepts a suggestion: the Portal writes its value as the answer. The run's list takes the suggestion's
 * new status, and the form's answers are read again; a 409 (stale, already decided) re-reads both.
 */
export function useAcceptSuggestion(applicationId: string, runId: string) {
  const queryClient = useQueryClient();
  const refreshForm = () => void queryClient.invalidateQueries({ queryKey: formSnapshotKey(intakeFormBase(applicationId)) });
  return useMutation({
    mutationFn: ({ suggestionId }: AcceptSuggestion) =>
      callWithNewKey(autofillApi.suggestionAccept.POST, { params: { applicationId, suggestionId } }),
    onSuccess: async (reply, { inBatch }) => {
      await putSuggestion(queryClient, applicationId, runId, reply.suggestion);
      if (!inBatch) refreshForm();
    },
    onError: (e) => {
      if (!(e instanceof ApiError && e.status === 409)) return;
      void queryClient.invalidateQueries({ queryKey: suggestionsKey(applicationId, runId) });
      refreshForm();
    },
  });
}
