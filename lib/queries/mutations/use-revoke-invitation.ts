import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { invitationRevokeApi } from '@/lib/api/endpoints';
import { invitationsKey, invitationsQuery } from '../invitations';

/** Revokes one of the application's invitations: its link stops working at once. */
export function useRevokeInvitation(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      callApi(invitationRevokeApi.POST, { params: { invitationId } }).then((r) => r.invitation),
    onSuccess: (invitation) => {
      queryClient.setQueryData(invitationsQuery(applicationId).queryKey, (old) =>
        old ? { items: old.items.map((i) => (i.id === invitation.id ? invitation : i)) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: invitationsKey(applicationId) });
    },
  });
}
