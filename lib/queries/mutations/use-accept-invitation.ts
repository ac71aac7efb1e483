import { useMutation } from '@tanstack/react-query';
import { callApi } from '@/lib/api/client';
import { invitationAcceptApi } from '@/lib/api/endpoints';
import type { InvitationAcceptBody } from '@/lib/bff/invitations';

/** Replaces this browser's session with the invited client's of a link; the BFF sets the new session cookie. */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (body: InvitationAcceptBody) => callApi(invitationAcceptApi.POST, { body }),
  });
}
