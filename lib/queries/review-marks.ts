import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { conflictCurrent } from '@/lib/api/api-error';
import { callApi } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';
import type { ReviewAnswerView, ReviewMarksView } from '@/lib/bff/review-marks';

/**
 * Review mode's answers and marks, read only once review mode is opened (the form's page never carries
 * them). The key holds the form's base, so the form's live events (another reviewer's mark, a changed value)
 * read it again.
 */
export const reviewMarksQuery = (apiBase: FormBase, applicationId: string) =>
  queryOptions({
    queryKey: ['review-marks', apiBase, applicationId] as const,
    queryFn: ({ signal }) => callApi(applicationApi.reviewMarks.GET, { params: { applicationId }, signal }).then((r) => r.marks),
  });

/**
 * Marks one answer "Looks right" (or takes the mark back), quoting the ETag the page shows for it. A 412 is
 * not retried: the marks as they are now replace the page's, so the person sees what changed first.
 */
export function useReviewMark(apiBase: FormBase, applicationId: string) {
  const queryClient = useQueryClient();
  const key = reviewMarksQuery(apiBase, applicationId).queryKey;
  return useMutation({
    mutationFn: async ({ answer, looksRight }: { answer: ReviewAnswerView; looksRight: boolean }): Promise<ReviewMarksView> => {
      try {
        const body = { schema_key: answer.schema_key, field_key: answer.field_key, item_id: answer.item_id, file_id: answer.file_id, looks_right: looksRight };
        return (await callApi(applicationApi.reviewMarks.POST, { params: { applicationId }, headers: { 'If-Match': answer.etag }, body })).marks;
      } catch (e) {
        const current = conflictCurrent<{ marks: ReviewMarksView }>(e);
        if (current?.marks) queryClient.setQueryData(key, current.marks);
        throw e;
      }
    },
    onSuccess: (marks) => queryClient.setQueryData(key, marks),
  });
}
