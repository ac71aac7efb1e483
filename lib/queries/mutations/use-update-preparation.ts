import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { autofillApi } from '@/lib/api/endpoints';
import { conflictCurrent } from '@/lib/api/api-error';
import type { PreparationReply, PreparationUpdate } from '@/lib/bff/autofill';
import { latestPreparation, putPreparation } from '../autofill';

export interface PreparationChange {
  changes: PreparationUpdate;
  /** After a 412: whether the change still stands against the preparation as it is now; then it goes again, once. */
  stillApplies(current: PreparationReply): boolean;
}

/** Saved, or refused by a 412 (someone else changed the preparation first) with the preparation as it is now. */
export type SaveOutcome = { ok: true; reply: PreparationReply } | { ok: false; current: PreparationReply };

/**
 * Writes the preparation (its text or mode) with the ETag the page last read in If-Match. Whatever comes
 * back, the saved preparation or a 412's current one, goes into the cache.
 */
export function useUpdatePreparation(applicationId: string) {
  const queryClient = useQueryClient();
  const save = async (changes: PreparationUpdate): Promise<SaveOutcome> => {
    const etag = latestPreparation(queryClient, applicationId)?.etag;
    try {
      const reply = await callApi(autofillApi.preparation.PATCH, {
        params: { applicationId },
        body: changes,
        headers: etag ? { 'If-Match': etag } : {},
      });
      await putPreparation(queryClient, applicationId, reply);
      return { ok: true, reply };
    } catch (e) {
      const current = conflictCurrent<PreparationReply>(e);
      if (!current) throw e;
      await putPreparation(queryClient, applicationId, current);
      return { ok: false, current };
    }
  };
  return useMutation({
    mutationFn: async ({ changes, stillApplies }: PreparationChange): Promise<SaveOutcome> => {
      const outcome = await save(changes);
      return !outcome.ok && stillApplies(outcome.current) ? save(changes) : outcome;
    },
  });
}
