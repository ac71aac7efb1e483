import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import { ApiError } from '@/lib/api/api-error';
import type { FormBase } from '@/lib/api/form-base';
import type { ApplicationView } from '@/lib/bff/applications';
import { applicationKey, applicationQuery } from '../application';

/**
 * Submits the application, quoting the ETag of a fresh read; when the application moved since (an answer
 * saved a moment ago, 412) it is read again, once. The cached application becomes the submitted one.
 */
export function useSubmitApplication(apiBase: FormBase) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<ApplicationView> => {
      // One key for this click: only an identical retry (same ETag) may reuse it.
      const send = (etag: string) =>
        callApi(formApi.submit.POST, {
          params: { form: apiBase },
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
