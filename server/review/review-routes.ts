import 'server-only';
import { api } from '@/lib/api/endpoints';
import { ChangeRequestCreateBody, ChangeRequestReplyBody, ChangeRequestResolveBody, type ReviewView } from '@/lib/bff/review';
import { fieldForName, formModel } from '@/lib/forms';
import { ApplicationEnvelope, type ErrorDetail } from '@/lib/portal';
import type { ResolvedSession } from '@/server/auth';
import { readContract } from '@/server/applications/contract-cache';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { applicationLinks, intakeApplication } from '@/server/applications/intake-application';
import { snapshotProgress } from '@/server/applications/snapshot-progress';
import type { Db } from '@/server/db/types';
import { historySettled } from '@/server/history/history-recorder';
import { AppError } from '@/server/http/app-error';
import { staleStateResponse } from '@/server/http/conflict-reply';
import { requireIfMatch } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';
import { route, type RouteResult } from '@/server/http/route';
import { jobQueue } from '@/server/messages/job-queue';
import { queueMessage } from '@/server/messages/outbox';
import { changesRequestedMail } from '@/server/messages/templates/changes-requested-mail';
import { stopReminders } from '@/server/reminders/reminders';
import { portalRequest, routes } from '@/server/portal';
import { addReply, createChangeRequest, findChangeRequest, listChangeRequests, resolveByStaff, resolveChangedAnswers } from './change-requests';
import { describeTarget } from './change-target';
import {
  applicationClientSubmits,
  invitationClientSubmits,
  recordReviewEvent,
  reviewEtag,
  reviewStateOf,
  StaleReviewError,
  underRevision,
  type ReviewActor,
} from './review-state';
import { reviewView } from './review-views';

const onApplication = { params: ApplicationParams, application: ({ params }: { params: ApplicationParams }) => params.applicationId };

/** Every review action is audited against its application. */
const auditOf = (operation: string) => ({
  operation,
  object: ({ params }: { params: ApplicationParams }) => ({ type: 'application' as const, id: params.applicationId, applicationId: params.applicationId }),
});

const actorOf = (session: ResolvedSession | null): ReviewActor =>
  session?.kind === 'user' ? { kind: 'staff', name: session.userName } : { kind: 'client', name: null };

/** The review as this session may see it, after any change of a value has resolved the requests on it. */
async function currentReview(db: Db, applicationId: string, session: ResolvedSession | null): Promise<ReviewView> {
  // Every write noted so far is in the known values before they are compared.
  await historySettled(db);
  await resolveChangedAnswers(db, applicationId);
  // The Portal says whether the application exists (a 404 passes through); its contract names the fields.
  const links = await applicationLinks(applicationId);
  const [{ contract }, state, list, clientSubmits] = await Promise.all([
    readContract(links.contract),
    reviewStateOf(db, applicationId),
    listChangeRequests(db, applicationId),
    session?.kind === 'client' ? invitationClientSubmits(db, session.invitationId) : applicationClientSubmits(db, applicationId),
  ]);
  return reviewView(state, clientSubmits, list, formModel(contract), session?.kind === 'client');
}

const reply = (review: ReviewView, status = 200): RouteResult<{ review: ReviewView }> => ({ status, body: { review }, headers: { ETag: review.etag } });

/**
 * A review action under If-Match: the state's revision must be the one the page read, or the reply is a 412
 * with the review as it is now (and its ETag), so the page shows what changed instead of overwriting it.
 */
async function act(
  db: Db,
  applicationId: string,
  session: ResolvedSession | null,
  ifMatch: string,
  change: Parameters<typeof underRevision<void>>[3],
  status = 200,
): Promise<RouteResult<{ review: ReviewView }>> {
  try {
    await underRevision(db, applicationId, ifMatch, change);
  } catch (e) {
    if (!(e instanceof StaleReviewError)) throw e;
    const current = await currentReview(db, applicationId, session);
    return staleStateResponse('The review changed since this page read it: see what it is now, then try again.', { current: { review: current }, etag: current.etag });
  }
  return reply(await currentReview(db, applicationId, session), status);
}

const notNow = (message: string) => new AppError('conflict', message, [{ code: 'review_state', message }]);

/** What the form itself says is missing, as a 422's details (the Portal's submit names them alike). */
async function missingAnswers(applicationId: string): Promise<ErrorDetail[]> {
  const snapshot = await readFormSnapshot(intakeApplication, applicationId);
  const model = formModel(snapshot.contract);
  return snapshotProgress(snapshot).missing.map((m): ErrorDetail => {
    const field = m.kind === 'field' ? fieldForName(model, m.name) : undefined;
    return {
      code: m.kind === 'group' ? 'min_items' : 'required',
      message: m.kind === 'group' ? `Add ${m.label}` : `${m.label} is required`,
      block_key: m.groupKey ?? field?.blockKey,
      ...(field ? { schema_key: field.schemaKey, field_key: field.fieldKey } : {}),
      ...(m.itemId ? { item_id: m.itemId } : {}),
    };
  });
}

// GET /api/applications/[applicationId]/review – the review state (ETag: its revision) and the change requests; the client's without staff notes
const review_GET = route(api.application.review.GET, { roles: ['staff', 'reviewer', 'client'], ...onApplication }, async ({ params, db, session }) =>
  reply(await currentReview(db, params.applicationId, session)),
);

// POST /api/applications/[applicationId]/review/send – the client sends the application for review (If-Match); what is missing comes back as a 422
const reviewSend_POST = route(
  api.application.reviewSend.POST,
  { roles: ['client', 'staff'], ...onApplication, audit: auditOf('review.send') },
  async ({ params, db, session, req }) => {
    const ifMatch = requireIfMatch(req);
    const id = params.applicationId;
    const state = await reviewStateOf(db, id);
    if (ifMatch.replace(/^W\//, '') === reviewEtag(state.revision)) {
      if (state.state === 'in_review') throw notNow('This application is in review already.');
      if (state.state === 'submitted') throw notNow('This application has been submitted.');
      const missing = await missingAnswers(id);
      if (missing.length > 0) {
        throw new AppError('validation_failed', `${missing.length === 1 ? '1 required answer is' : `${missing.length} required answers are`} missing.`, missing);
      }
    }
    return act(db, id, session, ifMatch, async (tx, now) => {
      if (now.state !== 'draft' && now.state !== 'changes_requested') throw notNow('This application cannot be sent for review now.');
      await recordReviewEvent(tx, id, 'sent_for_review', actorOf(session), null);
      // The client has sent what was asked: reminding them now would chase someone who is waiting on staff.
      await stopReminders(tx, { applicationId: id }, 'The client sent the application for review.');
      return { next: 'in_review', result: undefined };
    });
  },
);

// POST /api/applications/[applicationId]/review/requests – staff ask for a change of one answer, item or file (If-Match)
const reviewRequests_POST = route(
  api.application.reviewRequests.POST,
  {
    roles: ['staff'],
    ...onApplication,
    body: ChangeRequestCreateBody,
    audit: auditOf('review.request_create'),
  },
  async ({ params, db, session, req, body }) => {
    const ifMatch = requireIfMatch(req);
    const id = params.applicationId;
    const links = await applicationLinks(id);
    const { label, blockKey } = describeTarget((await readContract(links.contract)).contract, body.target);
    await historySettled(db);
    return act(
      db,
      id,
      session,
      ifMatch,
      async (tx, now) => {
        if (now.state !== 'in_review' && now.state !== 'changes_requested') throw notNow('Changes can be requested once the client has sent the application for review.');
        await createChangeRequest(tx, id, { target: body.target, blockKey, label, comment: body.comment, staffNote: body.staff_note ?? null, createdBy: session!.kind === 'user' ? session!.userId : '' });
        return { result: undefined };
      },
      201,
    );
  },
);

// POST /api/applications/[applicationId]/review/return – staff send the application back to the client with the open requests; the client is mailed (If-Match)
const reviewReturn_POST = route(
  api.application.reviewReturn.POST,
  { roles: ['staff'], ...onApplication, audit: auditOf('review.request_changes') },
  async ({ params, db, session, req, origin }) => {
    const ifMatch = requireIfMatch(req);
    const id = params.applicationId;
    if (session?.kind !== 'user') throw new AppError('forbidden', 'Only staff return an application.');
    const invitation = await db.one<{ id: string; client_email: string; client_name: string | null }>(
      `SELECT id, client_email, client_name FROM invitations WHERE application_id = $1 AND revoked_at IS NULL AND client_email IS NOT NULL ORDER BY created_at DESC, id LIMIT 1`,
      [id],
    );
    const business = invitation ? (await portalRequest({ path: routes.application(id), schema: ApplicationEnvelope })).data.application.business : null;
    // Started before the transaction: starting it inside one would wait on the embedded database's one connection.
    const boss = invitation ? await jobQueue() : null;
    return act(db, id, session, ifMatch, async (tx, now) => {
      if (now.state !== 'in_review') throw notNow('Only an application in review can be returned to the client.');
      const open = (await listChangeRequests(tx, id)).requests.filter((r) => !r.resolved_at);
      if (open.length === 0) throw notNow('Add at least one change request first.');
      await recordReviewEvent(tx, id, 'changes_requested', actorOf(session), `${open.length}`);
      if (boss && invitation) {
        await queueMessage(tx, boss, {
          template: 'changes_requested',
          recipient: invitation.client_email,
          recipientName: invitation.client_name,
          mail: changesRequestedMail({
            clientName: invitation.client_name,
            reviewerName: session.userName,
            businessName: business?.name ?? null,
            requests: open.map((r) => ({ label: r.label, comment: r.comment })),
            link: `${origin}/applications/${id}`,
          }),
          applicationId: id,
          invitationId: invitation.id,
          createdBy: session.userId,
        });
      }
      return { next: 'changes_requested', result: undefined };
    });
  },
);

// POST /api/applications/[applicationId]/review/replies – the client (or staff) answers a change request (If-Match)
const reviewReplies_POST = route(
  api.application.reviewReplies.POST,
  { roles: ['client', 'staff'], ...onApplication, body: ChangeRequestReplyBody },
  async ({ params, db, session, req, body }) => {
    const ifMatch = requireIfMatch(req);
    const request = await findChangeRequest(db, params.applicationId, body.request_id);
    if (!request) throw new AppError('not_found', 'No such change request.');
    return act(db, params.applicationId, session, ifMatch, async (tx) => {
      await addReply(tx, request.id, actorOf(session), body.text);
      return { result: undefined };
    });
  },
);

// POST /api/applications/[applicationId]/review/resolve – staff mark a change request resolved (If-Match)
const reviewResolve_POST = route(
  api.application.reviewResolve.POST,
  {
    roles: ['staff'],
    ...onApplication,
    body: ChangeRequestResolveBody,
    audit: auditOf('review.request_resolve'),
  },
  async ({ params, db, session, req, body }) => {
    const ifMatch = requireIfMatch(req);
    const request = await findChangeRequest(db, params.applicationId, body.request_id);
    if (!request) throw new AppError('not_found', 'No such change request.');
    return act(db, params.applicationId, session, ifMatch, async (tx) => {
      if (!request.resolved_at) await resolveByStaff(tx, params.applicationId, request, actorOf(session));
      return { result: undefined };
    });
  },
);

/** The route handlers of review: each route file under app/api re-exports its methods. */
export const reviewRoutes = {
  review: { GET: review_GET },
  send: { POST: reviewSend_POST },
  requests: { POST: reviewRequests_POST },
  return: { POST: reviewReturn_POST },
  replies: { POST: reviewReplies_POST },
  resolve: { POST: reviewResolve_POST },
};
