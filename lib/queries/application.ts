import { apiPaths, type FormApiBase } from '@/lib/api/paths';
import type { ApplicationView } from '@/lib/bff/applications';
import { objectQuery } from './object-query';

export interface ApplicationReply {
  application: ApplicationView;
}

export const applicationKey = (apiBase: FormApiBase) => ['application', apiBase] as const;

/** The application itself (status, the Portal's progress, its ETag for submit): refetched after saves. */
export const applicationQuery = (apiBase: FormApiBase) =>
  objectQuery(applicationKey(apiBase), apiPaths.form(apiBase).self(), (r: ApplicationReply) => r.application);
