import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { ContractView } from '@/lib/bff/applications';

/** An intake application's contract (its questions), e.g. to name the document slots of a new business. */
export const applicationContractQuery = (applicationId: string) =>
  queryOptions({
    queryKey: ['application-contract', applicationId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`/api/applications/${applicationId}/contract`, { signal }).then((body) => ContractView.parse((body as { contract: unknown }).contract)),
    staleTime: 10 * 60_000,
  });
