import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import { ContractView } from '@/lib/bff/applications';

const ContractReply = z.object({ contract: ContractView });

/** An intake application's contract (its questions), e.g. to name the document slots of a new business. */
export const applicationContractQuery = (applicationId: string) =>
  queryOptions({
    queryKey: ['application-contract', applicationId] as const,
    queryFn: ({ signal }) => apiFetch(apiPaths.application(applicationId).contract(), { schema: ContractReply, signal }).then((r) => r.contract),
    staleTime: 10 * 60_000,
  });
