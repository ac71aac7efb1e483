import { infiniteQueryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { FilesPageView } from '@/lib/bff/files';

/** Every document attached to an intake application's file questions, a page at a time ("show more"). */
export const applicationFilesQuery = (applicationId: string) =>
  infiniteQueryOptions({
    queryKey: ['application-files', applicationId] as const,
    queryFn: ({ pageParam, signal }) =>
      apiFetch<FilesPageView>(apiPaths.application(applicationId).fileList({ page_size: 50, cursor: pageParam }), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
