import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { ApplicationView } from '@/lib/bff/applications';
import type { FormApiBase } from './form-snapshot';

export const applicationKey = (apiBase: FormApiBase) => ['application', apiBase] as const;

/** The application itself (status, the Portal's progress, its ETag for submit): refetched after saves. */
export const applicationQuery = (apiBase: FormApiBase) =>
  queryOptions({
    queryKey: applicationKey(apiBase),
    queryFn: ({ signal }) =>
      apiFetch(apiBase, { signal }).then((body) => ApplicationView.parse((body as { application: unknown }).application)),
  });
