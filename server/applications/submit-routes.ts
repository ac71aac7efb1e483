import 'server-only';
import { formApi } from '@/lib/api/endpoints';
import { withConflictReply } from '@/server/http/conflict-reply';
import { etagHeader, requireIdempotencyKey, requireIfMatch } from '@/server/http/headers';
import { portalRequest } from '@/server/portal';
import { recordSubmitted } from '@/server/read-model/record';
import { stopReminders } from '@/server/reminders/reminders';
import { invitationClientSubmits, markSubmitted } from '@/server/review/review-state';
import { AppError } from '@/server/http/app-error';
import type { SubmittedKind } from './kind';
import { kindRoute } from './kind-route';
import { applicationAudit, kindParams } from './kind-params';

/**
 * POST …/submit (If-Match: the application's ETag; Idempotency-Key, both passed on unchanged, so a retry
 * of the same click replays the first reply): missing answers come back as a 422 listing each of them, a
 * 412 with the application as it is now.
 */
export function submitRoutes<Id extends string>(kind: SubmittedKind<Id>) {
  const POST = kindRoute(
    kind,
    formApi.submit.POST,
    { roles: kind.roles.write, params: kindParams(kind).application, audit: applicationAudit(kind, kind.audit.application.submit) },
    async ({ id, db, links, req, session }) => {
      const ifMatch = requireIfMatch(req);
      const idempotencyKey = requireIdempotencyKey(req);
      // A client invited to send for review does not submit: staff do, from the review.
      if (kind.reviewed && session?.kind === 'client' && !(await invitationClientSubmits(db, session.invitationId))) {
        const message = 'Send this application for review: your broker checks it and submits it to the Portal.';
        throw new AppError('conflict', message, [{ code: 'review_required', message }]);
      }
      const { submit } = await links();
      const send = async () => {
        const res = await portalRequest({ method: 'POST', url: submit, schema: kind.upstream.schema, ifMatch, idempotencyKey });
        const etag = res.etag ?? '';
        const app = kind.upstream.unwrap(res.data);
        await recordSubmitted(db, id, app.submitted_at);
        // Submitted is done: no more reminders of it (a step that wakes later finds nothing scheduled).
        await stopReminders(db, { applicationId: id }, 'The application was submitted.');
        if (kind.reviewed) await markSubmitted(db, id, session?.kind === 'user' ? { kind: 'staff', name: session.userName } : { kind: 'client', name: null });
        return { body: { application: kind.view(app, etag) }, headers: etagHeader(etag) };
      };
      // Answers changed since the browser's read: the application as it is now, with the ETag to retry with.
      const current = async () => {
        const now = await kind.read(id);
        return { current: kind.view(now.app, now.etag ?? ''), etag: now.etag };
      };
      return withConflictReply(send, current);
    },
  );
  return { POST };
}
