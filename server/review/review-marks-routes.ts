import 'server-only';
import { api } from '@/lib/api/endpoints';
import { ReviewMarkBody, type ReviewMarksView } from '@/lib/bff/review-marks';
import { readFormSnapshot } from '@/server/applications/form-snapshot';
import { intakeApplication } from '@/server/applications/intake-application';
import type { Db } from '@/server/db/types';
import { AppError } from '@/server/http/app-error';
import { staleStateResponse } from '@/server/http/conflict-reply';
import { requireIfMatch } from '@/server/http/headers';
import { ApplicationParams } from '@/server/http/path-params';
import { route, type RouteResult } from '@/server/http/route';
import { answersToReview, type SectionToReview } from './review-answers';
import { answerEtag, listMarks, markOf, marksView, putMark, removeMark } from './review-marks';
import { announceReview, reviewStateOf, type StateRow } from './review-state';

const onApplication = { params: ApplicationParams, application: ({ params }: { params: ApplicationParams }) => params.applicationId };

async function toReview(applicationId: string): Promise<SectionToReview[]> {
  return answersToReview(await readFormSnapshot(intakeApplication, applicationId));
}

async function currentMarks(db: Db, applicationId: string, sections?: SectionToReview[]): Promise<ReviewMarksView> {
  const [read, state, marks] = await Promise.all([sections ?? toReview(applicationId), reviewStateOf(db, applicationId), listMarks(db, applicationId)]);
  return marksView(state.state, read, marks);
}

const reviewing = (state: StateRow['state']) => state === 'in_review' || state === 'changes_requested';

// GET /api/applications/[applicationId]/review/marks – review mode: the answers to review, section by section, with staff's marks
const reviewMarks_GET = route(api.application.reviewMarks.GET, { roles: ['staff', 'reviewer'], ...onApplication }, async ({ params, db }) => ({
  status: 200,
  body: { marks: await currentMarks(db, params.applicationId) },
}));

// POST /api/applications/[applicationId]/review/marks – staff mark one answer "Looks right" or take the mark back (If-Match: the answer's ETag)
const reviewMarks_POST = route(
  api.application.reviewMarks.POST,
  {
    roles: ['staff'],
    ...onApplication,
    body: ReviewMarkBody,
    audit: {
      operation: 'review.mark',
      object: ({ params }: { params: ApplicationParams }) => ({ type: 'application' as const, id: params.applicationId, applicationId: params.applicationId }),
    },
  },
  async ({ params, db, session, req, body }): Promise<RouteResult<{ marks: ReviewMarksView }>> => {
    const ifMatch = requireIfMatch(req).replace(/^W\//, '');
    if (session?.kind !== 'user') throw new AppError('forbidden', 'Only staff mark answers.');
    const id = params.applicationId;
    const sections = await toReview(id);
    const key = { schemaKey: body.schema_key, fieldKey: body.field_key, itemId: body.item_id ?? null, fileId: body.file_id ?? null };
    const answer = sections.flatMap((s) => s.answers).find((a) => a.schemaKey === key.schemaKey && a.fieldKey === key.fieldKey && a.itemId === key.itemId && a.fileId === key.fileId);
    const stale = await db.transaction(async (tx) => {
      // The review's row is the lock: marks of one application are given one at a time, so two staff marking
      // the same answer at once cannot both pass the check. It is not moved on: a mark is no state change.
      const state = await tx.one<StateRow>('SELECT state, revision FROM review_states WHERE application_id = $1 FOR UPDATE', [id]);
      if (!state || !reviewing(state.state)) {
        const message = 'Answers are marked while the application is in review.';
        throw new AppError('conflict', message, [{ code: 'review_state', message }]);
      }
      // An answer emptied, hidden or deleted since the page read it is as stale as one changed.
      if (!answer) return true;
      const mark = markOf(await listMarks(tx, id), key);
      if (ifMatch !== answerEtag(answer, mark)) return true;
      if (body.looks_right) await putMark(tx, id, answer, { id: session.userId, name: session.userName });
      else await removeMark(tx, id, key);
      await announceReview(tx, id);
      return false;
    });
    const marks = await currentMarks(db, id, sections);
    if (stale) {
      return staleStateResponse('This answer changed, or was marked by someone else, since this page read it: see it as it is now, then mark it again.', {
        current: { marks },
        etag: null,
      });
    }
    return { status: 200, body: { marks } };
  },
);

/** The route handlers of review mode's marks (app/api/applications/[applicationId]/review/marks re-exports them). */
export const reviewMarkRoutes = { marks: { GET: reviewMarks_GET, POST: reviewMarks_POST } };
