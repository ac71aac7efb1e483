import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { conflictCurrent } from '@/lib/api/api-error';
import { callApi } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';
import type { FormBase } from '@/lib/api/form-base';
import type { ChangeRequestCreateBody, ChangeRequestReplyBody, ChangeRequestResolveBody, ReviewReply, ReviewView } from '@/lib/bff/review';

/**
 * An application's review (DESIGN.md §9). The key holds the form's base, so the form's live events (another
 * page sending, requesting, resolving) read it again.
 */
export const reviewQuery = (apiBase: FormBase, applicationId: string) =>
  queryOptions({
    queryKey: ['review', apiBase, applicationId] as const,
    queryFn: ({ signal }) => callApi(applicationApi.review.GET, { params: { applicationId }, signal }).then((r) => r.review),
  });

export type ReviewAction =
  | { kind: 'send' }
  | { kind: 'return' }
  | { kind: 'request'; body: ChangeRequestCreateBody }
  | { kind: 'reply'; body: ChangeRequestReplyBody }
  | { kind: 'resolve'; body: ChangeRequestResolveBody };

function send(applicationId: string, etag: string, action: ReviewAction): Promise<ReviewReply> {
  const base = { params: { applicationId }, headers: { 'If-Match': etag } };
  switch (action.kind) {
    case 'send':
      return callApi(applicationApi.reviewSend.POST, base);
    case 'return':
      return callApi(applicationApi.reviewReturn.POST, base);
    case 'request':
      return callApi(applicationApi.reviewRequests.POST, { ...base, body: action.body });
    case 'reply':
      return callApi(applicationApi.reviewReplies.POST, { ...base, body: action.body });
    case 'resolve':
      return callApi(applicationApi.reviewResolve.POST, { ...base, body: action.body });
  }
}

/**
 * A review action quoting the revision this page shows. A 412 is not retried: the review as it is now
 * replaces the page's, and the error says it changed, so the person sees what happened before acting again.
 */
export function useReviewAction(apiBase: FormBase, applicationId: string) {
  const queryClient = useQueryClient();
  const key = reviewQuery(apiBase, applicationId).queryKey;
  return useMutation({
    mutationFn: async (action: ReviewAction): Promise<ReviewView> => {
      const etag = queryClient.getQueryData<ReviewView>(key)?.etag ?? '"review-0"';
      try {
        return (await send(applicationId, etag, action)).review;
      } catch (e) {
        const current = conflictCurrent<{ review: ReviewView }>(e);
        if (current?.review) queryClient.setQueryData(key, current.review);
        throw e;
      }
    },
    onSuccess: (review) => queryClient.setQueryData(key, review),
  });
}
