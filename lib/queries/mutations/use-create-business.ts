import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { businessesApi } from '@/lib/api/endpoints';
import type { BusinessCreateInput } from '@/lib/bff/businesses';
import { useIdempotencyKey } from './use-idempotency-key';

/** Creates a business; submitting the very same body again after an unknown outcome cannot create it twice. */
export function useCreateBusiness() {
  const keys = useIdempotencyKey();
  return useMutation({
    mutationFn: (body: BusinessCreateInput) =>
      callApi(businessesApi.POST, {
        body,
        headers: { 'Idempotency-Key': keys.keyFor(JSON.stringify(body)) },
      }),
    onSettled: (_data, error) => keys.settled(error),
  });
}
