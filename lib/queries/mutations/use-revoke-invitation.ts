import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { InvitationView } from '@/lib/bff/invitations';
import { invitationsKey, invitationsQuery } from '../invitations';

interface RevokeReply {
  invitation: InvitationView;
}

/** Revokes one of the application's invitations: its link stops working at once. */
export function useRevokeInvitation(applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      apiFetch<RevokeReply>(apiPaths.invitation(invitationId).revoke(), { method: 'POST' }).then((r) => r.invitation),
    onSuccess: (invitation) => {
      queryClient.setQueryData(invitationsQuery(applicationId).queryKey, (old) =>
        old ? { items: old.items.map((i) => (i.id === invitation.id ? invitation : i)) } : old,
      );
      void queryClient.invalidateQueries({ queryKey: invitationsKey(applicationId) });
    },
  });
}
