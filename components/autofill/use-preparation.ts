'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiFetch } from '@/lib/api/api-fetch';
import { PreparationReply, type PreparationUpdate } from '@/lib/bff/autofill';
import { preparationKey, type AutofillApiBase } from '@/lib/queries/autofill';
import { preparationConflictOf } from './errors';

export type SaveOutcome = { ok: true; reply: PreparationReply } | { ok: false; current: PreparationReply };

/**
 * The preparation as the page last read it, and writes to it with If-Match. A 412 puts the preparation as
 * it is now in the cache and hands it back, so the caller can decide whether its change still applies.
 */
export function usePreparationWrites(base: AutofillApiBase) {
  const queryClient = useQueryClient();
  const latest = useCallback(() => queryClient.getQueryData<PreparationReply>(preparationKey(base)), [queryClient, base]);
  // A poll still under way began before this write: its older preparation must not land after it.
  const remember = useCallback(
    async (reply: PreparationReply) => {
      await queryClient.cancelQueries({ queryKey: preparationKey(base) });
      queryClient.setQueryData<PreparationReply>(preparationKey(base), reply);
    },
    [queryClient, base],
  );

  const update = useCallback(
    async (body: PreparationUpdate): Promise<SaveOutcome> => {
      const etag = latest()?.etag;
      try {
        const reply = await apiFetch(`${base}/preparation`, {
          method: 'PATCH',
          body,
          headers: etag ? { 'If-Match': etag } : {},
          schema: PreparationReply,
        });
        await remember(reply);
        return { ok: true, reply };
      } catch (e) {
        const current = preparationConflictOf(e);
        if (!current) throw e;
        await remember(current);
        return { ok: false, current };
      }
    },
    [base, latest, remember],
  );

  return { latest, remember, update };
}
