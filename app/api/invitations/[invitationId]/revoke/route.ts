import { AppError } from '@/server/http/app-error';
import { InvitationParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { revokeInvitation } from '@/server/invitations';
import { invitationView } from '@/server/invitations/invitation-views';
import { recordInvitationChanged } from '@/server/read-model/record';

// POST /api/invitations/[invitationId]/revoke – withdraws the link and ends every client session opened with it
export const POST = route(
  {
    roles: ['staff'],
    params: InvitationParams,
    audit: { operation: 'invitation.revoke', object: ({ params }) => ({ type: 'invitation', id: params.invitationId, applicationId: null }) },
  },
  async ({ params, db, auditObject }) => {
    const invitation = await revokeInvitation(db, params.invitationId);
    if (!invitation) throw new AppError('not_found', 'No such invitation.');
    // The audit log is listed per application, which only the invitation's record names.
    auditObject({ applicationId: invitation.applicationId });
    await recordInvitationChanged(db, invitation.applicationId);
    return { body: { invitation: invitationView(invitation) } };
  },
);
