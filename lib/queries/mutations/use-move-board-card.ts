import { useMutation, useQueryClient } from '@tanstack/react-query';
import { businessKey, businessQuery } from '../business';
import { postBusinessStageMove, type BusinessStageMoveOutcome } from './use-move-business-stage';
import { useIdempotencyKey } from './use-idempotency-key';

export interface BoardCardMove {
  businessId: string;
  /** The stage the card showed when the person moved it. */
  fromStageId: string;
  stageId: string;
  stageName: string;
}

/**
 * Moves a board card. The board comes from the read model, which holds no ETag, so the business is read
 * first: when it is no longer where the card showed it, that is the answer (as a 412 would be); otherwise the
 * move quotes that read's ETag (If-Match), so a move made meanwhile by someone else is refused by the Portal.
 */
export function useMoveBoardCard() {
  const queryClient = useQueryClient();
  const keys = useIdempotencyKey();
  return useMutation({
    mutationFn: async (m: BoardCardMove): Promise<BusinessStageMoveOutcome> => {
      const now = await queryClient.fetchQuery({ ...businessQuery(m.businessId), staleTime: 0 });
      if (now.workflow.stage.id !== m.fromStageId) return { kind: 'changed', current: now };
      const move = { stageId: m.stageId, stageName: m.stageName, etag: now.etag };
      return postBusinessStageMove(m.businessId, move, keys.keyFor(`${m.businessId} ${m.stageId} ${now.etag}`));
    },
    onSettled: (_outcome, error, m) => {
      keys.settled(error);
      // A business page open in this tab reads it again.
      void queryClient.invalidateQueries({ queryKey: businessKey(m.businessId), exact: true });
    },
  });
}
