import 'server-only';
import type { Db } from '@/server/db/types';

/** A business as one upstream read found it (status, people, application, Autofill). */
export interface BusinessFacts {
  id: string;
  name: string | null;
  contactName: string | null;
  contactEmail: string | null;
  pipeline: { id: string; name: string };
  stage: { id: string; name: string };
  revision: number;
  isSample: boolean;
  statusUpdatedAt: Date;
  application: {
    id: string;
    statusKey: string | null;
    statusLabel: string | null;
    progressPercent: number | null;
    answersRevision: number | null;
    submittedAt: Date | null;
    updatedAt: Date;
  } | null;
  pending: PendingFacts | null;
}

export interface PendingFacts {
  count: number;
  oldest: Date | null;
}

export interface DealFacts {
  id: string;
  businessId: string | null;
  name: string;
  recipientName: string | null;
  pipelineId: string;
  stage: { id: string; name: string };
  status: string | null;
  projectId: string | null;
  isSample: boolean;
  createdAt: Date;
}

export interface ProjectFacts {
  id: string;
  businessId: string;
  name: string;
  status: string;
  createdAt: Date;
  /** Undefined: not read this time (keep what the row has). */
  best?: { fit: string; score: number; matchCount: number | null } | null;
}

const searchText = (...parts: Array<string | null>) =>
  parts
    .filter((p): p is string => !!p)
    .join(' ')
    .toLowerCase();

/**
 * Writes a business as the Portal showed it. Last activity only moves forward (an event may already have
 * recorded something newer than this read); the invitation columns are the BFF's own and stay.
 */
export async function saveBusiness(db: Db, f: BusinessFacts, now: Date, pass: string | null = null): Promise<void> {
  const app = f.application;
  const activity = new Date(Math.max(f.statusUpdatedAt.getTime(), app?.updatedAt.getTime() ?? 0));
  await db.query(
    `INSERT INTO workspace_businesses AS b (id, name, contact_name, contact_email, search_text, pipeline_id, pipeline_name, stage_id, stage_name,
       revision, is_sample, application_id, application_status, application_status_label, progress_percent, answers_revision, submitted_at,
       created_at, last_activity_at, refreshed_at, seen_pass, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18, $19, $20, $19)
     ON CONFLICT (id) DO UPDATE SET
       name = EXCLUDED.name, contact_name = EXCLUDED.contact_name, contact_email = EXCLUDED.contact_email, search_text = EXCLUDED.search_text,
       pipeline_id = EXCLUDED.pipeline_id, pipeline_name = EXCLUDED.pipeline_name, stage_id = EXCLUDED.stage_id, stage_name = EXCLUDED.stage_name,
       revision = EXCLUDED.revision, is_sample = EXCLUDED.is_sample, application_id = EXCLUDED.application_id,
       application_status = EXCLUDED.application_status, application_status_label = EXCLUDED.application_status_label,
       progress_percent = EXCLUDED.progress_percent, answers_revision = EXCLUDED.answers_revision, submitted_at = EXCLUDED.submitted_at,
       created_at = COALESCE(b.created_at, EXCLUDED.created_at),
       last_activity_at = GREATEST(b.last_activity_at, EXCLUDED.last_activity_at),
       refreshed_at = EXCLUDED.refreshed_at, seen_pass = COALESCE(EXCLUDED.seen_pass, b.seen_pass), updated_at = EXCLUDED.updated_at`,
    [
      f.id,
      f.name,
      f.contactName,
      f.contactEmail,
      searchText(f.name, f.contactName, f.contactEmail),
      f.pipeline.id,
      f.pipeline.name,
      f.stage.id,
      f.stage.name,
      f.revision,
      f.isSample,
      app?.id ?? null,
      app?.statusKey ?? null,
      app?.statusLabel ?? null,
      app?.progressPercent ?? null,
      app?.answersRevision ?? null,
      app?.submittedAt ?? null,
      activity,
      now,
      pass,
    ],
  );
  if (app) {
    await syncInvitationState(db, app.id);
    if (f.pending) await savePending(db, app.id, f.id, f.pending, now);
  }
}

/** The Portal says the business does not exist (any more). */
export async function forgetBusiness(db: Db, businessId: string): Promise<void> {
  await db.query('DELETE FROM workspace_suggestions WHERE business_id = $1', [businessId]);
  await db.query('DELETE FROM workspace_businesses WHERE id = $1', [businessId]);
}

export async function savePending(db: Db, applicationId: string, businessId: string | null, p: PendingFacts, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO workspace_suggestions AS s (application_id, business_id, pending_count, oldest_pending_at, refreshed_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (application_id) DO UPDATE SET business_id = COALESCE(EXCLUDED.business_id, s.business_id),
       pending_count = EXCLUDED.pending_count, oldest_pending_at = EXCLUDED.oldest_pending_at,
       refreshed_at = EXCLUDED.refreshed_at, updated_at = EXCLUDED.updated_at`,
    [applicationId, businessId, p.count, p.oldest, now],
  );
}

/**
 * The invitation columns from the BFF's own invitations (the latest per application): revoked, opened by the
 * client, or sent. Expiry is a matter of the clock, so readers compare invitation_expires_at with now.
 * Null application: every row (the reconciler).
 */
export async function syncInvitationState(db: Db, applicationId: string | null): Promise<void> {
  await db.query(
    `UPDATE workspace_businesses b
        SET invitation_state = CASE WHEN i.revoked_at IS NOT NULL THEN 'revoked' WHEN i.first_used_at IS NOT NULL THEN 'opened' ELSE 'sent' END,
            invitation_sent_at = i.created_at,
            invitation_expires_at = i.expires_at,
            last_activity_at = GREATEST(b.last_activity_at, i.last_used_at)
       FROM (SELECT DISTINCT ON (application_id) application_id, created_at, expires_at, revoked_at, first_used_at, last_used_at
               FROM invitations WHERE ($1::text IS NULL OR application_id = $1) ORDER BY application_id, created_at DESC) i
      WHERE b.application_id = i.application_id`,
    [applicationId],
  );
}

export async function saveDeal(db: Db, d: DealFacts, now: Date, pass: string | null = null): Promise<void> {
  await db.query(
    `INSERT INTO workspace_deals AS d (id, business_id, name, recipient_name, pipeline_id, stage_id, stage_name, status, project_id, is_sample,
       created_at, refreshed_at, seen_pass, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $12)
     ON CONFLICT (id) DO UPDATE SET business_id = COALESCE(EXCLUDED.business_id, d.business_id), name = EXCLUDED.name,
       recipient_name = EXCLUDED.recipient_name, pipeline_id = EXCLUDED.pipeline_id, stage_id = EXCLUDED.stage_id,
       stage_name = EXCLUDED.stage_name, status = EXCLUDED.status, project_id = EXCLUDED.project_id, is_sample = EXCLUDED.is_sample,
       created_at = EXCLUDED.created_at, refreshed_at = EXCLUDED.refreshed_at, seen_pass = COALESCE(EXCLUDED.seen_pass, d.seen_pass),
       updated_at = EXCLUDED.updated_at`,
    [d.id, d.businessId, d.name, d.recipientName, d.pipelineId, d.stage.id, d.stage.name, d.status, d.projectId, d.isSample, d.createdAt, now, pass],
  );
}

/** The business a deal was made for, learned from a per-business deal list or recorded at create. */
export async function setDealBusiness(db: Db, dealIds: readonly string[], businessId: string): Promise<void> {
  if (dealIds.length === 0) return;
  await db.query('UPDATE workspace_deals SET business_id = $2 WHERE id = ANY($1::text[]) AND business_id IS DISTINCT FROM $2', [dealIds, businessId]);
}

export async function saveProject(db: Db, p: ProjectFacts, now: Date, pass: string | null = null): Promise<void> {
  const best = p.best;
  await db.query(
    `INSERT INTO workspace_projects AS p (id, business_id, name, status, best_fit, best_score, match_count, created_at, refreshed_at, seen_pass, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $9)
     ON CONFLICT (id) DO UPDATE SET business_id = EXCLUDED.business_id, name = EXCLUDED.name, status = EXCLUDED.status,
       best_fit = CASE WHEN $11 THEN EXCLUDED.best_fit ELSE p.best_fit END,
       best_score = CASE WHEN $11 THEN EXCLUDED.best_score ELSE p.best_score END,
       match_count = CASE WHEN $11 THEN EXCLUDED.match_count ELSE p.match_count END,
       created_at = EXCLUDED.created_at, refreshed_at = EXCLUDED.refreshed_at, seen_pass = COALESCE(EXCLUDED.seen_pass, p.seen_pass),
       updated_at = EXCLUDED.updated_at`,
    [p.id, p.businessId, p.name, p.status, best?.fit ?? null, best?.score ?? null, best?.matchCount ?? null, p.createdAt, now, pass, best !== undefined],
  );
}

/** Moves last activity forward (never back) and says when the workspace last heard an event. */
export async function touchActivity(db: Db, where: { businessId?: string | null; applicationId?: string | null }, at: Date): Promise<void> {
  await db.query(
    `UPDATE workspace_businesses SET last_activity_at = GREATEST(last_activity_at, $3), updated_at = now()
      WHERE ($1::text IS NOT NULL AND id = $1) OR ($2::text IS NOT NULL AND application_id = $2)`,
    [where.businessId ?? null, where.applicationId ?? null, at],
  );
}

export async function businessOfApplication(db: Db, applicationId: string): Promise<string | null> {
  const row = await db.one<{ id: string }>('SELECT id FROM workspace_businesses WHERE application_id = $1', [applicationId]);
  return row?.id ?? null;
}
