import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { InvitationCreated, InvitationCreateBody } from '@/lib/bff/invitations';
import { invitationsKey } from '../invitations';

/** Invites the application's client: the reply holds the link, shown once; the list is read again. */
export function useCreateInvitation(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationCreateBody) =>
      apiFetch<InvitationCreated>(apiPaths.application(applicationId).invitations(), { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: invitationsKey(applicationId) }),
  });
}
