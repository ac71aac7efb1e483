import { queryOptions } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';

export const invitationsKey = (applicationId: string) => ['invitations', applicationId] as const;

/** An application's client invitations, newest first. Statuses move with time, so they are read fresh. */
export const invitationsQuery = (applicationId: string) =>
  queryOptions({
    queryKey: invitationsKey(applicationId),
    queryFn: ({ signal }) => callApi(applicationApi.invitations.GET, { params: { applicationId }, signal }),
    staleTime: 0,
  });
