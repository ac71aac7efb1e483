import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { BusinessView, PeopleView, PortalView, StagesView } from '@/lib/bff/businesses';

export const businessKey = (businessId: string) => ['business', businessId] as const;

/** The business (name, status, workflow stage, its ETag for stage moves). */
export const businessQuery = (businessId: string) =>
  queryOptions({
    queryKey: businessKey(businessId),
    queryFn: ({ signal }) =>
      apiFetch(`/api/businesses/${businessId}`, { signal }).then((body) => BusinessView.parse((body as { business: unknown }).business)),
  });

/** The stages of the business's pipeline in order; which one is current comes from businessQuery. */
export const businessStagesQuery = (businessId: string) =>
  queryOptions({
    queryKey: [...businessKey(businessId), 'stages'] as const,
    queryFn: ({ signal }) => apiFetch(`/api/businesses/${businessId}/stages`, { schema: StagesView, signal }),
    staleTime: 5 * 60_000,
  });

export const businessPeopleQuery = (businessId: string) =>
  queryOptions({
    queryKey: [...businessKey(businessId), 'people'] as const,
    queryFn: ({ signal }) => apiFetch(`/api/businesses/${businessId}/people`, { schema: PeopleView, signal }),
  });

/** Which Portal the app works for and what its key may do (lead sources of a source key). */
export const portalQuery = () =>
  queryOptions({
    queryKey: ['portal'] as const,
    queryFn: ({ signal }) => apiFetch('/api/portal', { schema: PortalView, signal }),
    staleTime: 10 * 60_000,
  });
