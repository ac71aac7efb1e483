import { formApi } from '@/lib/api/endpoints';
import { intakeFormBase } from '@/lib/api/form-base';
import { objectQuery } from './object-query';

/** An intake application's contract (its questions), e.g. to name the document slots of a new business. */
export const applicationContractQuery = (applicationId: string) => ({
  ...objectQuery(['application-contract', applicationId], formApi.contract.GET, { form: intakeFormBase(applicationId) }, (r) => r.contract),
  staleTime: 10 * 60_000,
});
