import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { businessesApi, dealApi, dealsApi, recipientsApi, type DealReply } from '@/lib/api/endpoints';
import { newestDealsFirst } from '@/lib/bff/deal-order';
import { objectQuery } from './object-query';

/** Query factories of the deals pages: one per resource, keyed so a write can update or invalidate it. */

export type { DealReply };

export const dealKey = (dealId: string) => ['deal', dealId] as const;

/** One deal with the ETag a stage move quotes in If-Match. */
export const dealQuery = (dealId: string) => objectQuery(dealKey(dealId), dealApi.GET, { dealId }, (r) => r.deal);

/**
 * One business's deals, newest first: a business has few, so one page of the most the Portal gives is
 * read and ordered here (the Portal lists oldest first). More than that is said, not hidden.
 */
export const businessDealsKey = (businessId?: string) => (businessId ? (['business-deals', businessId] as const) : (['business-deals'] as const));

export const businessDealsQuery = (businessId: string) =>
  queryOptions({
    queryKey: businessDealsKey(businessId),
    queryFn: ({ signal }) => callApi(dealsApi.GET, { query: { business_id: businessId, page_size: 100 }, signal }),
    select: (page) => ({ items: newestDealsFirst(page.items), more: page.next_cursor !== null }),
  });

/** A list to choose from, a page at a time ("load more"). */
const choicesQuery = <T extends { next_cursor: string | null }>(
  key: string,
  read: (page: { page_size: number; cursor: string | null }, signal: AbortSignal) => Promise<T>,
  staleTime?: number,
) =>
  infiniteQueryOptions({
    queryKey: [key] as const,
    queryFn: ({ pageParam, signal }) => read({ page_size: 100, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    // Unset, the client's default applies (an explicit undefined would override it).
    ...(staleTime === undefined ? {} : { staleTime }),
  });

/** The recipients a deal can be made for. */
export const recipientsQuery = () => choicesQuery('recipients', (query, signal) => callApi(recipientsApi.GET, { query, signal }), 5 * 60_000);

/** The businesses to choose a deal's business from. */
export const businessChoicesQuery = () => choicesQuery('business-choices', (query, signal) => callApi(businessesApi.GET, { query, signal }));
