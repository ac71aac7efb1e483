import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import { conflictCurrent } from '@/lib/api/api-error';
import type { PreparationReply } from '@/lib/bff/autofill';
import { latestPreparation, putPreparation } from '../autofill';

/**
 * Removes an evidence document from the preparation. When the preparation moved on meanwhile (another
 * file was read: 412), removing this one is still what was asked, so it goes again with the new ETag,
 * unless the file is gone already. `removing` lists the documents whose removal is under way.
 */
export function useDeleteEvidence(applicationId: string) {
  const queryClient = useQueryClient();
  const mutationKey = ['delete-evidence', applicationId] as const;
  const mutation = useMutation({
    mutationKey,
    mutationFn: async (evidenceId: string): Promise<'removed' | 'already-removed'> => {
      const attempt = () =>
        callApi(autofillApi.evidenceFile.DELETE, {
          params: { applicationId, evidenceId },
          headers: { 'If-Match': latestPreparation(queryClient, applicationId)?.etag ?? '*' },
        });
      let reply: PreparationReply;
      try {
        reply = await attempt();
      } catch (e) {
        const current = conflictCurrent<PreparationReply>(e);
        if (!current) throw e;
        await putPreparation(queryClient, applicationId, current);
        if (!current.preparation.evidence_sources.some((s) => s.id === evidenceId)) return 'already-removed';
        reply = await attempt();
      }
      await putPreparation(queryClient, applicationId, reply);
      return 'removed';
    },
  });
  const removing = useMutationState({ filters: { mutationKey, status: 'pending' }, select: (m) => m.state.variables as string });
  return { ...mutation, removing };
}
