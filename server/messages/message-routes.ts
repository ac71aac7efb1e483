import 'server-only';
import { api } from '@/lib/api/endpoints';
import { getEnv } from '@/server/env';
import { AppError } from '@/server/http/app-error';
import { InvitationParams } from '@/server/http/path-params';
import { route } from '@/server/http/route';
import { findInvitation } from '@/server/invitations';
import { invitationStatus } from '@/server/invitations/invitation-record';
import { jobQueue } from './job-queue';
import { latestMessageOf, listOutbox, messageView, requeueCopy } from './outbox';

// GET /api/outbox – every message the app has sent or is sending, newest first, with its bodies and status
const outbox_GET = route(api.outbox.GET, { roles: ['staff'] }, async ({ db }) => {
  const rows = await listOutbox(db);
  return { body: { items: rows.map(messageView), smtp_configured: getEnv().smtpUrl !== null } };
});

// POST /api/invitations/[invitationId]/resend – mails the invitation's link again (the same message, a new delivery)
const invitationResend_POST = route(
  api.invitationResend.POST,
  {
    roles: ['staff'],
    params: InvitationParams,
    audit: { operation: 'invitation.resend', object: ({ params }) => ({ type: 'invitation', id: params.invitationId, applicationId: null }) },
  },
  async ({ params, db, session, auditObject }) => {
    if (session?.kind !== 'user') throw new AppError('forbidden', 'Only staff may resend invitations.');
    const invitation = await findInvitation(db, params.invitationId);
    if (!invitation) throw new AppError('not_found', 'No such invitation.');
    auditObject({ applicationId: invitation.applicationId });
    const status = invitationStatus(invitation, new Date());
    if (status !== 'active') throw new AppError('conflict', `This invitation is ${status}: its link no longer opens, so it is not mailed again. Invite the client anew.`);
    // The link's token is kept only as a hash; the first mail holds the link, so a resend copies that mail.
    const original = await latestMessageOf(db, invitation.id, 'invitation');
    if (!original) throw new AppError('conflict', 'This invitation was never mailed (its link was copied by hand), so there is no mail to send again. Invite the client anew by email.');
    const boss = await jobQueue();
    const copy = await db.transaction((tx) => requeueCopy(tx, boss, original, session.userId));
    return { status: 201, body: { message: messageView(copy) } };
  },
);

/** The route handlers of messages: each route file under app/api re-exports its methods. */
export const messageRoutes = {
  outbox: { GET: outbox_GET },
  invitationResend: { POST: invitationResend_POST },
};
