import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { applicationApi } from '@/lib/api/endpoints';
import type { InvitationCreateBody } from '@/lib/bff/invitations';
import { invitationsKey } from '../invitations';

/** Invites the application's client: the reply holds the link, shown once; the list is read again. */
export function useCreateInvitation(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InvitationCreateBody) =>
      callApi(applicationApi.invitations.POST, { params: { applicationId }, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: invitationsKey(applicationId) }),
  });
}
