'use client';

import { useQuery } from '@tanstack/react-query';
import { invitationStateText } from '@/lib/bff/invitation-state';
import { invitationsQuery } from '@/lib/queries/invitations';

/** The client invitation's state for the business's facts (the same read as the invitations list below). */
export function InvitationState({ applicationId }: { applicationId: string }) {
  const { data, isError } = useQuery(invitationsQuery(applicationId));
  if (isError) return <>Not known (the invitations could not be read)</>;
  return <>{data ? invitationStateText(data.items) : 'Reading…'}</>;
}
