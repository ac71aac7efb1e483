import 'server-only';
import { randomUUID } from 'node:crypto';
import type { ReviewState } from '@/lib/bff/review';
import { REVIEW_CHANGED } from '@/lib/bff/live-events';
import type { Db } from '@/server/db/types';
import { recordDelivery } from '@/server/webhooks/deliveries';

/** Who acts on a review: staff by name, or the invited client. */
export interface ReviewActor {
  kind: 'staff' | 'client';
  name: string | null;
}

export type ReviewEventKind = 'sent_for_review' | 'changes_requested' | 'request_resolved' | 'submitted';

export interface StateRow {
  state: ReviewState;
  revision: number;
}

/** The ETag of a review state (a strong one: the revision is exact). */
export const reviewEtag = (revision: number) => `"review-${revision}"`;

/** The If-Match did not name the current revision: the state as it is now comes with it. */
export class StaleReviewError extends Error {
  constructor(readonly current: StateRow) {
    super('The review changed since your last read.');
    this.name = 'StaleReviewError';
  }
}

/** An application with no row yet is a draft at revision 0. */
export async function reviewStateOf(db: Db, applicationId: string): Promise<StateRow> {
  const row = await db.one<StateRow>('SELECT state, revision FROM review_states WHERE application_id = $1', [applicationId]);
  return row ?? { state: 'draft', revision: 0 };
}

/**
 * Runs `change` with the application's review state locked, when `ifMatch` is its current ETag; the
 * revision then moves on by one (to `next` when given). Two actions on one revision: the second is stale.
 */
export async function underRevision<T>(
  db: Db,
  applicationId: string,
  ifMatch: string,
  change: (tx: Db, now: StateRow) => Promise<{ next?: ReviewState; result: T }>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query(`INSERT INTO review_states (application_id, state, revision) VALUES ($1, 'draft', 0) ON CONFLICT (application_id) DO NOTHING`, [applicationId]);
    const now = (await tx.one<StateRow>('SELECT state, revision FROM review_states WHERE application_id = $1 FOR UPDATE', [applicationId]))!;
    if (ifMatch.replace(/^W\//, '') !== reviewEtag(now.revision)) throw new StaleReviewError(now);
    const { next, result } = await change(tx, now);
    await tx.query('UPDATE review_states SET state = $2, revision = revision + 1, updated_at = now() WHERE application_id = $1', [applicationId, next ?? now.state]);
    await announceReview(tx, applicationId);
    return result;
  });
}

/**
 * After a submission to the Portal (by whichever path): the review is over, whatever its state was. The
 * timeline has the submission from the audit log; this records that it ended a review.
 */
export async function markSubmitted(db: Db, applicationId: string, actor: ReviewActor): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await tx.one<StateRow>('SELECT state, revision FROM review_states WHERE application_id = $1 FOR UPDATE', [applicationId]);
    await tx.query(
      `INSERT INTO review_states (application_id, state, revision) VALUES ($1, 'submitted', 1)
       ON CONFLICT (application_id) DO UPDATE SET state = 'submitted', revision = review_states.revision + 1, updated_at = now()`,
      [applicationId],
    );
    if (before && (before.state === 'in_review' || before.state === 'changes_requested')) await recordReviewEvent(tx, applicationId, 'submitted', actor, null);
    await announceReview(tx, applicationId);
  });
}

export async function recordReviewEvent(tx: Db, applicationId: string, kind: ReviewEventKind, actor: ReviewActor, detail: string | null): Promise<void> {
  await tx.query('INSERT INTO review_events (application_id, kind, actor_kind, actor_name, detail) VALUES ($1, $2, $3, $4, $5)', [
    applicationId,
    kind,
    actor.kind,
    actor.name,
    detail,
  ]);
}

/**
 * Tells the application's open pages (GET /api/events) that its review moved, the way a Portal event does:
 * a delivery of our own, announced on commit. It names no answers_revision, so a page reads the review again.
 */
export async function announceReview(tx: Db, applicationId: string): Promise<void> {
  const at = new Date();
  await recordDelivery(tx, {
    id: `bff_review_${randomUUID()}`,
    type: REVIEW_CHANGED,
    sentAt: at,
    occurredAt: at,
    applicationId,
    businessId: null,
    dealId: null,
    payload: { type: REVIEW_CHANGED, data: { application_id: applicationId } },
  });
}

/** Whether the client of this invitation submits to the Portal itself (otherwise it sends for review). */
export async function invitationClientSubmits(db: Db, invitationId: string): Promise<boolean> {
  const row = await db.one<{ client_submits: boolean }>('SELECT client_submits FROM invitations WHERE id = $1', [invitationId]);
  return row?.client_submits ?? false;
}

/** For staff: what the application's newest invitation says (no invitation: the default, review). */
export async function applicationClientSubmits(db: Db, applicationId: string): Promise<boolean> {
  const row = await db.one<{ client_submits: boolean }>(
    'SELECT client_submits FROM invitations WHERE application_id = $1 AND revoked_at IS NULL ORDER BY created_at DESC, id LIMIT 1',
    [applicationId],
  );
  return row?.client_submits ?? false;
}
