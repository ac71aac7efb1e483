import { formApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';
import { objectQuery } from './object-query';

export const applicationKey = (apiBase: FormBase) => ['application', apiBase] as const;

/** The application itself (status, the Portal's progress, its ETag for submit): refetched after saves. */
export const applicationQuery = (apiBase: FormBase) =>
  objectQuery(applicationKey(apiBase), formApi.application.GET, { form: apiBase }, (r) => r.application);
