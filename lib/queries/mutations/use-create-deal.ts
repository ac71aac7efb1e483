import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callWithNewKey } from '@/lib/api/client';
import { dealsApi } from '@/lib/api/endpoints';
import type { DealCreateInput } from '@/lib/bff/deals';
import { businessDealsKey, dealKey } from '../deals';

/** Creates a deal; the new deal is cached, so its page opens without reading it again. */
export function useCreateDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DealCreateInput) => callWithNewKey(dealsApi.POST, { body }).then((r) => r.deal),
    onSuccess: (deal) => {
      queryClient.setQueryData(dealKey(deal.id), deal);
      // A business page lists its deals (the deal names its business only by id).
      void queryClient.invalidateQueries({ queryKey: businessDealsKey() });
    },
  });
}
