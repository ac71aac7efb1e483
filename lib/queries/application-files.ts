import { infiniteQueryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { formApi } from '@/lib/api/endpoints';
import { intakeFormBase } from '@/lib/api/form-base';

/** Every document attached to an intake application's file questions, a page at a time ("show more"). */
export const applicationFilesQuery = (applicationId: string) =>
  infiniteQueryOptions({
    queryKey: ['application-files', applicationId] as const,
    queryFn: ({ pageParam, signal }) =>
      callApi(formApi.files.GET, { params: { form: intakeFormBase(applicationId) }, query: { page_size: 50, cursor: pageParam }, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
