import { queryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { businessApi, businessPeopleApi, businessStagesApi, portalApi } from '@/lib/api/endpoints';
import { objectQuery } from './object-query';

export const businessKey = (businessId: string) => ['business', businessId] as const;

/** The business (name, status, workflow stage, its ETag for stage moves). */
export const businessQuery = (businessId: string) =>
  objectQuery(businessKey(businessId), businessApi.GET, { businessId }, (r) => r.business);

/** The stages of the business's pipeline in order; which one is current comes from businessQuery. */
export const businessStagesQuery = (businessId: string) =>
  queryOptions({
    queryKey: [...businessKey(businessId), 'stages'] as const,
    queryFn: ({ signal }) => callApi(businessStagesApi.GET, { params: { businessId }, signal }),
    staleTime: 5 * 60_000,
  });

export const businessPeopleQuery = (businessId: string) =>
  queryOptions({
    queryKey: [...businessKey(businessId), 'people'] as const,
    queryFn: ({ signal }) => callApi(businessPeopleApi.GET, { params: { businessId }, signal }),
  });

/** Which Portal the app works for and what its key may do (lead sources of a source key). */
export const portalQuery = () =>
  queryOptions({
    queryKey: ['portal'] as const,
    queryFn: ({ signal }) => callApi(portalApi.GET, { signal }),
    staleTime: 10 * 60_000,
  });
