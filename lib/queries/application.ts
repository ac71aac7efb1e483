import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths, type FormApiBase } from '@/lib/api/paths';
import { ApplicationView } from '@/lib/bff/applications';

export const ApplicationReply = z.object({ application: ApplicationView });

export const applicationKey = (apiBase: FormApiBase) => ['application', apiBase] as const;

/** The application itself (status, the Portal's progress, its ETag for submit): refetched after saves. */
export const applicationQuery = (apiBase: FormApiBase) =>
  queryOptions({
    queryKey: applicationKey(apiBase),
    queryFn: ({ signal }) => apiFetch(apiPaths.form(apiBase).self(), { schema: ApplicationReply, signal }).then((r) => r.application),
  });
