import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { BusinessCreatedView, BusinessCreateInput } from '@/lib/bff/businesses';
import { useIdempotencyKey } from './use-idempotency-key';

/** Creates a business; submitting the very same body again after an unknown outcome cannot create it twice. */
export function useCreateBusiness() {
  const keys = useIdempotencyKey();
  return useMutation({
    mutationFn: (body: BusinessCreateInput) =>
      apiFetch<BusinessCreatedView>(apiPaths.businesses(), {
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': keys.keyFor(JSON.stringify(body)) },
      }),
    onSettled: (_data, error) => keys.settled(error),
  });
}
