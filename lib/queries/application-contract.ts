import { z } from 'zod';
import { apiPaths } from '@/lib/api/paths';
import { ContractView } from '@/lib/bff/applications';
import { objectQuery } from './object-query';

const ContractReply = z.object({ contract: ContractView });

/** An intake application's contract (its questions), e.g. to name the document slots of a new business. */
export const applicationContractQuery = (applicationId: string) => ({
  ...objectQuery(['application-contract', applicationId], apiPaths.application(applicationId).contract(), ContractReply, (r) => r.contract),
  staleTime: 10 * 60_000,
});
