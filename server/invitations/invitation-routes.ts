import 'server-only';
import { NextResponse } from 'next/server';
import { InvitationAcceptBody, InvitationCreateBody, ClientPlaceBody, type InvitationAccepted } from '@/lib/bff/invitations';
import { writeSessionCookie } from '@/server/auth';
import { cookieSettings } from '@/server/auth/session-settings';
import { openInvitation } from '@/server/invitations/open-invitation';
import { ApplicationEnvelope } from '@/lib/portal';
import { AppError } from '@/server/http/app-error';
import { ApplicationParams, InvitationParams } from '@/server/http/path-params';
import { route, sessionOf } from '@/server/http/route';
import { createInvitation, listInvitations, revokeInvitation } from '@/server/invitations';
import { rememberSection } from '@/server/invitations/client-welcome';
import { invitationView } from '@/server/invitations/invitation-views';
import { portalRequest, routes } from '@/server/portal';
import { recordInvitationChanged } from '@/server/read-model/record';
import { api } from '@/lib/api/endpoints';
import { organisationName } from '@/server/invitations/organisation-name';
import { jobQueue } from '@/server/messages/job-queue';
import { queueMessage } from '@/server/messages/outbox';
import { invitationMail } from '@/server/messages/templates/invitation-mail';
import { getEnv } from '@/server/env';
import { learnTimeZone, scheduleReminders } from '@/server/reminders/reminders';
import { endOfLocalDay, isTimeZone } from '@/server/reminders/schedule';

const fieldError = (parameter: string, message: string) => new AppError('validation_failed', 'Some fields are not valid.', [{ code: 'invalid', message, parameter }]);

// GET /api/applications/[applicationId]/invitations – the application's invitations, newest first, with their status
const application_invitations_GET = route(api.application.invitations.GET, { roles: ['staff'], params: ApplicationParams }, async ({ params, db }) => {
  const now = new Date();
  const invitations = await listInvitations(db, params.applicationId, now);
  return { body: { items: invitations.map((i) => invitationView(i, now)) } };
});

// POST /api/applications/[applicationId]/invitations – invites a client; the reply's link is the only time the token is shown
const application_invitations_POST = route(
  api.application.invitations.POST,
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
    const application = res.data.application;
    const mailed = body.client_email && body.delivery === 'email';
    const env = getEnv();
    const timeZone = body.time_zone ?? env.reminderTimeZone;
    if (!isTimeZone(timeZone)) throw fieldError('time_zone', 'Enter an IANA time zone such as Europe/London.');
    const dueAt = body.due_date ? endOfLocalDay(body.due_date, timeZone) : null;
    if (dueAt && dueAt.getTime() <= Date.now()) throw fieldError('due_date', 'The due date has passed: choose today or a later day.');
    const organisation = mailed ? await organisationName() : null;
    const boss = mailed ? await jobQueue() : null;
    // The invitation and its mail commit together: no invitation whose mail was lost, no mail of an invitation that is not.
    const { invitation, token, message } = await db.transaction(async (tx) => {
      const created = await createInvitation(tx, {
        applicationId: params.applicationId,
        businessId: application.business.id,
        clientEmail: body.client_email,
        clientName: body.client_name,
        createdBy: session.userId,
        ttlHours: body.ttl_hours,
        clientSubmits: body.client_submits,
      });
      const link = `${origin}/invite/${created.token}`;
      const message =
        boss && created.invitation.clientEmail
          ? await queueMessage(tx, boss, {
              template: 'invitation',
              recipient: created.invitation.clientEmail,
              recipientName: created.invitation.clientName,
              mail: invitationMail({
                clientName: created.invitation.clientName,
                inviterName: session.userName,
                organisationName: organisation,
                businessName: application.business.name,
                progress: application.progress ? { completed: application.progress.completed_items, total: application.progress.total_items } : null,
                link,
                expiresAt: created.invitation.expiresAt,
              }),
              applicationId: params.applicationId,
              invitationId: created.invitation.id,
              createdBy: session.userId,
              actionUrl: link,
            })
          : null;
      // Reminders follow the mail: an invitation whose link was copied by hand has nothing to remind of.
      if (boss && message) {
        await scheduleReminders(tx, boss, created.invitation, { dueAt, timeZone, timeZoneGiven: body.time_zone != null, days: body.reminder_days ?? env.reminderScheduleDays }, env);
      }
      return { ...created, message };
    });
    auditObject({ id: invitation.id });
    await recordInvitationChanged(db, params.applicationId);
    return {
      status: 201,
      body: { invitation: invitationView(invitation), link: `${origin}/invite/${token}`, message: message ? { id: message.id, status: message.status } : null },
    };
  },
);

// PUT /api/applications/[applicationId]/place – the invited client opened a section: the form reopens there next time.
// Not audited: a bookmark in the BFF's own database, no change to the application (the audit log is of writes that matter).
const application_place_PUT = route(
  api.application.place.PUT,
  { roles: ['client'], params: ApplicationParams, body: ClientPlaceBody, application: ({ params }) => params.applicationId },
  async ({ params, body, db, session }) => {
    if (session?.kind !== 'client') throw new AppError('forbidden', 'Only the invited client has a place in the form.');
    await rememberSection(db, { id: session.invitationId, applicationId: params.applicationId }, body.section_key);
    if (body.time_zone) await learnTimeZone(db, session.invitationId, body.time_zone);
    return { body: { section_key: body.section_key } };
  },
);

// POST /api/invitations/[invitationId]/revoke – withdraws the link and ends every client session opened with it
const invitationRevoke_POST = route(
  api.invitationRevoke.POST,
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

// POST /api/invitations/accept – the confirmation page's "continue as the invited client": ends the session the
// browser held and opens the link's client session. A write like any other (X-CSRF, same Origin), so no other
// site can make a signed-in browser switch; opening the link (a GET) only ever asks.
const invitationAccept_POST = route(api.invitationAccept.POST, { roles: 'public', body: InvitationAcceptBody }, async ({ body, req, db, origin }) => {
  const previous = await sessionOf(req, db, origin);
  const opened = await openInvitation(db, body.token, previous);
  if (!opened.ok) {
    throw new AppError('not_found', 'This invitation link cannot be opened.', [{ code: `invitation_${opened.reason}`, message: `The link is ${opened.reason}.`, parameter: 'token' }]);
  }
  const reply: InvitationAccepted = { location: opened.location };
  const response = NextResponse.json(reply, { headers: { 'Cache-Control': 'private, no-store' } });
  await writeSessionCookie(response.cookies, opened.sid, cookieSettings(origin));
  return response;
});

/** The route handlers of invitation: each route file under app/api re-exports its methods. */
export const invitationRoutes = {
  invitations: { GET: application_invitations_GET, POST: application_invitations_POST },
  place: { PUT: application_place_PUT },
  invitationRevoke: { POST: invitationRevoke_POST },
  invitationAccept: { POST: invitationAccept_POST },
};
