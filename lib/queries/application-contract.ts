import { apiPaths } from '@/lib/api/paths';
import type { ContractView } from '@/lib/bff/applications';
import { objectQuery } from './object-query';

interface ContractReply {
  contract: ContractView;
}

/** An intake application's contract (its questions), e.g. to name the document slots of a new business. */
export const applicationContractQuery = (applicationId: string) => ({
  ...objectQuery(['application-contract', applicationId], apiPaths.application(applicationId).contract(), (r: ContractReply) => r.contract),
  staleTime: 10 * 60_000,
});
