import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { BusinessView, PeopleView, PortalView, StagesView } from '@/lib/bff/businesses';
import { objectQuery } from './object-query';

interface BusinessReply {
  business: BusinessView;
}

export const businessKey = (businessId: string) => ['business', businessId] as const;

/** The business (name, status, workflow stage, its ETag for stage moves). */
export const businessQuery = (businessId: string) =>
  objectQuery(businessKey(businessId), apiPaths.business(businessId).self(), (r: BusinessReply) => r.business);

/** The stages of the business's pipeline in order; which one is current comes from businessQuery. */
export const businessStagesQuery = (businessId: string) =>
  queryOptions({
    queryKey: [...businessKey(businessId), 'stages'] as const,
    queryFn: ({ signal }) => apiFetch<StagesView>(apiPaths.business(businessId).stages(), { signal }),
    staleTime: 5 * 60_000,
  });

export const businessPeopleQuery = (businessId: string) =>
  queryOptions({
    queryKey: [...businessKey(businessId), 'people'] as const,
    queryFn: ({ signal }) => apiFetch<PeopleView>(apiPaths.business(businessId).people(), { signal }),
  });

/** Which Portal the app works for and what its key may do (lead sources of a source key). */
export const portalQuery = () =>
  queryOptions({
    queryKey: ['portal'] as const,
    queryFn: ({ signal }) => apiFetch<PortalView>(apiPaths.portal(), { signal }),
    staleTime: 10 * 60_000,
  });
