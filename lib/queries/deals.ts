import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch } from '@/lib/api/api-fetch';
import { BusinessListView, StagesView } from '@/lib/bff/businesses';
import { DealView, RecipientListView } from '@/lib/bff/deals';

/** Query factories of the deals pages: one per resource, keyed so a write can update or invalidate it. */

const DealReply = z.object({ deal: DealView });

export const dealKey = (dealId: string) => ['deal', dealId] as const;

/** One deal with the ETag a stage move quotes in If-Match. */
export const dealQuery = (dealId: string) =>
  queryOptions({
    queryKey: dealKey(dealId),
    queryFn: ({ signal }) => apiFetch(`/api/deals/${encodeURIComponent(dealId)}`, { schema: DealReply, signal }).then((r) => r.deal),
  });

/** The stages of the deal's pipeline, in order: they change only when the Portal's pipeline does. */
export const dealStagesQuery = (dealId: string) =>
  queryOptions({
    queryKey: ['deal', dealId, 'stages'] as const,
    queryFn: ({ signal }) => apiFetch(`/api/deals/${encodeURIComponent(dealId)}/stages`, { schema: StagesView, signal }),
    staleTime: 5 * 60_000,
  });

const pageQuery = (cursor: string | null) => `?page_size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

/** The recipients a deal can be made for, a page at a time ("load more"). */
export const recipientsQuery = () =>
  infiniteQueryOptions({
    queryKey: ['recipients'] as const,
    queryFn: ({ pageParam, signal }) => apiFetch(`/api/recipients${pageQuery(pageParam)}`, { schema: RecipientListView, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    staleTime: 5 * 60_000,
  });

/** The businesses to choose a deal's business from, a page at a time ("load more"). */
export const businessChoicesQuery = () =>
  infiniteQueryOptions({
    queryKey: ['business-choices'] as const,
    queryFn: ({ pageParam, signal }) => apiFetch(`/api/businesses${pageQuery(pageParam)}`, { schema: BusinessListView, signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
  });
