import { InvitationCreateBody } from '@/lib/bff/invitations';
import { ApplicationEnvelope } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { route } from '@/server/http/route';
import { ApplicationParams } from '@/server/http/path-params';
import { createInvitation, listInvitations } from '@/server/invitations';
import { invitationView } from '@/server/invitations/invitation-views';
import { portalRequest, routes } from '@/server/portal';
import { recordInvitationChanged } from '@/server/read-model/record';

// GET /api/applications/[applicationId]/invitations – the application's invitations, newest first, with their status
export const GET = route({ roles: ['staff'], params: ApplicationParams }, async ({ params, db }) => {
  const now = new Date();
  const invitations = await listInvitations(db, params.applicationId, now);
  return { body: { items: invitations.map((i) => invitationView(i, now)) } };
});

// POST /api/applications/[applicationId]/invitations – invites a client; the reply's link is the only time the token is shown
export const POST = route(
  {
    roles: ['staff'],
    params: ApplicationParams,
    body: InvitationCreateBody,
    audit: {
      operation: 'invitation.create',
      object: ({ params }) => ({ type: 'invitation', id: 'new', applicationId: params.applicationId }),
    },
  },
  async ({ params, body, db, origin, session, auditObject }) => {
    if (session?.kind !== 'user') throw new AppError('forbidden', 'Only staff may invite clients.');
    // The Portal says whether the application exists (a 404 passes through) and whose it is.
    const res = await portalRequest({ path: routes.application(params.applicationId), schema: ApplicationEnvelope });
    const { invitation, token } = await createInvitation(db, {
      applicationId: params.applicationId,
      businessId: res.data.application.business.id,
      clientEmail: body.client_email,
      clientName: body.client_name,
      createdBy: session.userId,
      ttlHours: body.ttl_hours,
    });
    auditObject({ id: invitation.id });
    await recordInvitationChanged(db, params.applicationId);
    return { status: 201, body: { invitation: invitationView(invitation), link: `${origin}/invite/${token}` } };
  },
);
