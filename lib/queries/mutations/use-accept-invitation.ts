import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api/api-fetch';
import { apiPaths } from '@/lib/api/paths';
import type { InvitationAcceptBody, InvitationAccepted } from '@/lib/bff/invitations';

/** Replaces this browser's session with the invited client's of a link; the BFF sets the new session cookie. */
export function useAcceptInvitation() {
  return useMutation({
    mutationFn: (body: InvitationAcceptBody) => apiFetch<InvitationAccepted>(apiPaths.acceptInvitation(), { method: 'POST', body }),
  });
}
