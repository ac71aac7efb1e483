import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postWithNewKey } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { DealCreateInput } from '@/lib/bff/deals';
import { businessDealsKey, type DealReply, dealKey } from '../deals';

/** Creates a deal; the new deal is cached, so its page opens without reading it again. */
export function useCreateDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DealCreateInput) => postWithNewKey<DealReply>(apiPaths.deals(), body).then((r) => r.deal),
    onSuccess: (deal) => {
      queryClient.setQueryData(dealKey(deal.id), deal);
      // A business page lists its deals (the deal names its business only by id).
      void queryClient.invalidateQueries({ queryKey: businessDealsKey() });
    },
  });
}
