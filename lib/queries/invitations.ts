import { queryOptions } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { InvitationList } from '@/lib/bff/invitations';

export const invitationsKey = (applicationId: string) => ['invitations', applicationId] as const;

/** An application's client invitations, newest first. Statuses move with time, so they are read fresh. */
export const invitationsQuery = (applicationId: string) =>
  queryOptions({
    queryKey: invitationsKey(applicationId),
    queryFn: ({ signal }) => apiFetch<InvitationList>(apiPaths.application(applicationId).invitations(), { signal }),
    staleTime: 0,
  });
