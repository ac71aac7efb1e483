import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { DealCreateInput } from '@/lib/bff/deals';
import { DealReply, dealKey } from '../deals';

/** Creates a deal; the new deal is cached, so its page opens without reading it again. */
export function useCreateDeal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DealCreateInput) =>
      // One key for this click: a retry the Portal client makes for it reuses the key, a new click does not.
      apiFetch(apiPaths.deals(), { method: 'POST', body, headers: { 'Idempotency-Key': crypto.randomUUID() }, schema: DealReply }).then((r) => r.deal),
    onSuccess: (deal) => queryClient.setQueryData(dealKey(deal.id), deal),
  });
}
