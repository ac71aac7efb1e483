import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api/api-error';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths, type FormApiBase } from '@/lib/api/paths';
import type { ApplicationView } from '@/lib/bff/applications';
import { type ApplicationReply, applicationKey, applicationQuery } from '../application';

/**
 * Submits the application, quoting the ETag of a fresh read; when the application moved since (an answer
 * saved a moment ago, 412) it is read again, once. The cached application becomes the submitted one.
 */
export function useSubmitApplication(apiBase: FormApiBase) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<ApplicationView> => {
      // One key for this click: only an identical retry (same ETag) may reuse it.
      const send = (etag: string) =>
        apiFetch<ApplicationReply>(apiPaths.form(apiBase).submit(), {
          method: 'POST',
          headers: { 'If-Match': etag, 'Idempotency-Key': crypto.randomUUID() },
        });
      const fresh = async () => (await queryClient.fetchQuery({ ...applicationQuery(apiBase), staleTime: 0 })).etag;
      try {
        return (await send(await fresh())).application;
      } catch (e) {
        if (!(e instanceof ApiError && e.status === 412)) throw e;
        return (await send(await fresh())).application;
      }
    },
    onSuccess: (app) => queryClient.setQueryData(applicationKey(apiBase), app),
  });
}
