import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { businessStageTransitionsApi } from '@/lib/api/endpoints';
import { ApiError, conflictCurrent } from '@/lib/api/api-error';
import type { BusinessStageTransitionView, BusinessView } from '@/lib/bff/businesses';
import { businessKey, businessQuery } from '../business';
import { useIdempotencyKey } from './use-idempotency-key';

export interface BusinessStageMove {
  stageId: string;
  stageName: string;
  /** The ETag the page last read: the move is made only if the business is still as it was (If-Match). */
  etag: string;
}

/** Moved, or refused because someone changed the business first (412): then where it is now. */
export type BusinessStageMoveOutcome =
  | { kind: 'moved'; transition: BusinessStageTransitionView }
  | { kind: 'changed'; current: BusinessView };

/** The move itself (If-Match, Idempotency-Key): moved, or refused with the business as it is now. */
export async function postBusinessStageMove(businessId: string, m: BusinessStageMove, idempotencyKey: string): Promise<BusinessStageMoveOutcome> {
  try {
    const { transition } = await callApi(businessStageTransitionsApi.POST, {
      params: { businessId },
      body: { stage_id: m.stageId },
      headers: { 'If-Match': m.etag, 'Idempotency-Key': idempotencyKey },
    });
    return { kind: 'moved', transition };
  } catch (e) {
    const current = conflictCurrent<BusinessView>(e);
    if (current) return { kind: 'changed', current };
    throw e;
  }
}

/**
 * Moves a business to another stage. The cached business follows the outcome: the new stage after a move,
 * the business as it is now after a 412. Retrying the same move after an unknown outcome reuses its key.
 */
export function useMoveBusinessStage(businessId: string) {
  const queryClient = useQueryClient();
  const keys = useIdempotencyKey();
  const { queryKey } = businessQuery(businessId);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: businessKey(businessId), exact: true });
  return useMutation({
    mutationFn: (m: BusinessStageMove) => postBusinessStageMove(businessId, m, keys.keyFor(`${m.stageId} ${m.etag}`)),
    onSettled: (_outcome, error) => keys.settled(error),
    onSuccess: (outcome) => {
      if (outcome.kind === 'changed') {
        queryClient.setQueryData(queryKey, outcome.current);
        return;
      }
      const { transition } = outcome;
      queryClient.setQueryData(queryKey, (old) =>
        old
          ? {
              ...old,
              revision: transition.revision,
              etag: transition.etag,
              workflow: { ...old.workflow, stage: transition.stage },
              status: { ...old.status, stage: transition.stage.name, updated_at: transition.updated_at },
            }
          : old,
      );
      refresh();
    },
    onError: (e) => {
      // A 412 without the business as it is now: read it again.
      if (e instanceof ApiError && e.status === 412) refresh();
    },
  });
}
