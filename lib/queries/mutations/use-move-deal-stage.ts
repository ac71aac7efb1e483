import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { dealStageTransitionsApi } from '@/lib/api/endpoints';
import { ApiError, conflictCurrent } from '@/lib/api/api-error';
import type { DealView } from '@/lib/bff/deals';
import { dealKey, dealQuery } from '../deals';

export interface DealStageMove {
  /** The deal as the page showed it: its ETag goes in If-Match. */
  before: DealView;
  stageId: string;
}

/** Moved (the deal after the move), or refused because someone changed the deal first (412): the deal now. */
export type DealStageMoveOutcome = { kind: 'moved'; deal: DealView } | { kind: 'changed'; current: DealView };

/** Moves a deal to another stage, one Idempotency-Key per click; the cached deal follows the outcome. */
export function useMoveDealStage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ before, stageId }: DealStageMove): Promise<DealStageMoveOutcome> => {
      try {
        const { deal } = await callApi(dealStageTransitionsApi.POST, {
          params: { dealId: before.id },
          body: { stage_id: stageId },
          headers: { 'If-Match': before.etag, 'Idempotency-Key': crypto.randomUUID() },
        });
        return { kind: 'moved', deal };
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 412)) throw e;
        const current = conflictCurrent<DealView>(e) ?? (await queryClient.fetchQuery({ ...dealQuery(before.id), staleTime: 0 }));
        return { kind: 'changed', current };
      }
    },
    onSuccess: (outcome) => {
      const deal = outcome.kind === 'moved' ? outcome.deal : outcome.current;
      queryClient.setQueryData(dealKey(deal.id), deal);
    },
  });
}
