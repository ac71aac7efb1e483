import 'server-only';
import { ApplicationId, type Deal, type Project } from '@/lib/portal';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import { answersActivity } from './answers-activity';
import { queueRefresh } from './refresh';
import { saveDeal, saveProject, syncInvitationState } from './store';
import { dealFacts } from './upstream';

/*
 * The BFF's own successful writes, recorded in the read model from the Portal's reply at once (the person who
 * wrote sees it on the next page) rather than waiting for the webhook. The write has already happened
 * upstream, so a read model that cannot take it only logs: the webhook or the reconciler brings the row in.
 */
async function bestEffort(what: string, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    log.warn('read model could not record a write', { write: what, error: String(e) });
  }
}

export interface CreatedBusiness {
  businessId: string;
  applicationId: string;
  name: string | null;
  contact?: { full_name?: string | null; email?: string | null } | null;
}

export function recordBusinessCreated(db: Db, b: CreatedBusiness, now: Date = new Date()) {
  return bestEffort('business.create', async () => {
    const contactName = b.contact?.full_name || null;
    const contactEmail = b.contact?.email || null;
    const search = [b.name, contactName, contactEmail].filter(Boolean).join(' ').toLowerCase();
    await db.query(
      `INSERT INTO workspace_businesses (id, name, contact_name, contact_email, search_text, application_id, created_at, last_activity_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7) ON CONFLICT (id) DO NOTHING`,
      [b.businessId, b.name, contactName, contactEmail, search, b.applicationId, now],
    );
    // Stage, pipeline and the application's status come with the first read.
    queueRefresh([{ businessId: b.businessId }]);
  });
}

export function recordBusinessStage(db: Db, businessId: string, t: { stage: { id: string; name: string }; revision: number; updated_at: string }) {
  return bestEffort('business.stage_transition', async () => {
    await db.query(
      `UPDATE workspace_businesses SET stage_id = $2, stage_name = $3, revision = $4, last_activity_at = GREATEST(last_activity_at, $5), updated_at = now()
        WHERE id = $1 AND (revision IS NULL OR revision < $4)`,
      [businessId, t.stage.id, t.stage.name, t.revision, new Date(t.updated_at)],
    );
  });
}

export function recordDealStage(db: Db, deal: Deal) {
  return bestEffort('deal.stage_transition', () => saveDeal(db, dealFacts(deal, null), new Date()));
}

/**
 * After answers are written the business is read again, but not per keystroke: autosave writes come in
 * bursts, and each read costs several Portal calls. Writes (and their webhooks) within this window share one.
 */
const ANSWERS_REFRESH_DELAY_MS = 1_000;

/**
 * Answers or items written: activity now, progress and suggestion counts re-read once the burst is over.
 * Not awaited by the reply: the row is applied just after it (answers-activity.ts), in order, and reads of
 * the workspace wait for it.
 */
export function recordAnswersWritten(db: Db, applicationId: string, answersRevision: number | null, now: Date = new Date()): void {
  // Deal applications share the answer routes; only intake applications have a row here.
  if (!ApplicationId.safeParse(applicationId).success) return;
  answersActivity(db).note(applicationId, answersRevision, now);
  queueRefresh([{ applicationId }], ANSWERS_REFRESH_DELAY_MS);
}

export function recordSubmitted(db: Db, applicationId: string, submittedAt: string | null, now: Date = new Date()) {
  if (!ApplicationId.safeParse(applicationId).success) return Promise.resolve();
  return bestEffort('application.submit', async () => {
    await db.query(
      `UPDATE workspace_businesses SET submitted_at = COALESCE($2::timestamptz, submitted_at, $3), last_activity_at = GREATEST(last_activity_at, $3), updated_at = $3
        WHERE application_id = $1`,
      [applicationId, submittedAt, now],
    );
    queueRefresh([{ applicationId }]);
  });
}

/** An invitation made, revoked or opened: the BFF's own table says which. */
export function recordInvitationChanged(db: Db, applicationId: string) {
  return bestEffort('invitation', () => syncInvitationState(db, applicationId));
}

/** The business a deal is made for is known only here (the Portal's deal does not name it). */
export function recordDealCreated(db: Db, deal: Deal, businessId: string) {
  return bestEffort('deal.create', () => saveDeal(db, dealFacts(deal, businessId), new Date()));
}

/** A suggestion accepted or dismissed: one fewer waits at once; the count is read again. */
export function recordSuggestionDecided(db: Db, applicationId: string) {
  return bestEffort('autofill.suggestion', async () => {
    await db.query(
      'UPDATE workspace_suggestions SET pending_count = GREATEST(pending_count - 1, 0), updated_at = now() WHERE application_id = $1',
      [applicationId],
    );
    queueRefresh([{ applicationId }]);
  });
}

/** A funding project made here: a new project has no matches yet. */
export function recordProjectCreated(db: Db, p: Project) {
  return bestEffort('project.create', () =>
    saveProject(db, { id: p.id, businessId: p.business.id, name: p.name, status: p.status, createdAt: new Date(p.created_at), best: null }, new Date()),
  );
}
