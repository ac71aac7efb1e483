import 'server-only';
import { z } from 'zod';
import type { Db } from '@/server/db/types';
import type { RefreshTarget } from './refresh';
import { touchActivity } from './store';

/** A stored delivery's body: `{ type, timestamp, data }` (DESIGN.md §5). */
export interface PortalEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

const Ref = z.object({ id: z.string(), name: z.string() });
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const ref = (v: unknown) => {
  const r = Ref.safeParse(v);
  return r.success ? r.data : null;
};

/**
 * Applies one webhook event to the read model inside the transaction that stores its delivery, so it is
 * applied once per delivery (a replayed webhook-id never gets here). What the event says is written at once;
 * what it only hints at (progress after answers, a new business's name and contact, suggestion counts after a
 * run) is returned as targets to re-read from the Portal once the transaction has committed. Out-of-order
 * deliveries are harmless: stage moves carry a revision and only a newer one is kept; activity only moves forward.
 */
export async function applyEvent(tx: Db, e: PortalEvent, receivedAt: Date): Promise<RefreshTarget[]> {
  const d = e.data;
  const at = new Date(e.timestamp);
  const businessId = str(d.business_id);
  const applicationId = str(d.application_id);
  await tx.query('UPDATE workspace_sync SET last_event_at = GREATEST(last_event_at, $1) WHERE name = $2', [receivedAt, 'reconcile']);
  switch (e.type) {
    case 'business.created': {
      if (!businessId) return [];
      await tx.query(
        `INSERT INTO workspace_businesses (id, application_id, created_at, last_activity_at, updated_at)
         VALUES ($1, $2, $3, $3, $4) ON CONFLICT DO NOTHING`,
        [businessId, applicationId, at, receivedAt],
      );
      return [{ businessId }];
    }
    case 'business.stage_changed': {
      const stage = ref(d.stage);
      const revision = int(d.revision);
      if (!businessId || !stage || revision === null) return businessId ? [{ businessId }] : [];
      const moved = await tx.one<{ id: string }>(
        `UPDATE workspace_businesses SET stage_id = $2, stage_name = $3, revision = $4,
                last_activity_at = GREATEST(last_activity_at, $5), updated_at = $6
          WHERE id = $1 AND (revision IS NULL OR revision < $4) RETURNING id`,
        [businessId, stage.id, stage.name, revision, at, receivedAt],
      );
      const known = moved ?? (await tx.one<{ id: string }>('SELECT id FROM workspace_businesses WHERE id = $1', [businessId]));
      return known ? [] : [{ businessId }];
    }
    case 'application.answers_updated': {
      if (!applicationId) return [];
      const revision = int(d.answers_revision);
      await tx.query(
        `UPDATE workspace_businesses SET answers_revision = GREATEST(answers_revision, $2),
                last_activity_at = GREATEST(last_activity_at, $3), updated_at = $4
          WHERE application_id = $1`,
        [applicationId, revision, at, receivedAt],
      );
      // Progress, status and suggestions that the new answers made stale are read again.
      return [{ applicationId }];
    }
    case 'application.submitted': {
      if (!applicationId) return [];
      const submittedAt = str(d.submitted_at);
      await tx.query(
        `UPDATE workspace_businesses SET submitted_at = COALESCE($2::timestamptz, submitted_at),
                last_activity_at = GREATEST(last_activity_at, $3), updated_at = $4
          WHERE application_id = $1`,
        [applicationId, submittedAt, at, receivedAt],
      );
      return [{ applicationId, businessId }];
    }
    case 'autofill_run.completed':
    case 'autofill_run.failed':
      return applicationId ? [{ applicationId }] : [];
    case 'deal.created':
    case 'deal.stage_changed': {
      const dealId = str(d.deal_id);
      if (!dealId) return [];
      const stage = ref(d.stage);
      const changed = await tx.one<{ id: string }>(
        `UPDATE workspace_deals SET business_id = COALESCE($2, business_id), stage_id = COALESCE($3, stage_id),
                stage_name = COALESCE($4, stage_name), status = $5, updated_at = $6
          WHERE id = $1 RETURNING id`,
        [dealId, businessId, stage?.id ?? null, stage?.name ?? null, str(d.status), receivedAt],
      );
      if (businessId) await touchActivity(tx, { businessId }, at);
      return changed ? [] : [{ deal: { id: dealId, businessId } }];
    }
    case 'project.created': {
      const projectId = str(d.project_id);
      const name = str(d.name);
      if (!projectId || !businessId || !name) return [];
      await tx.query(
        `INSERT INTO workspace_projects (id, business_id, name, status, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        [projectId, businessId, name, str(d.status) ?? 'draft', at, receivedAt],
      );
      await touchActivity(tx, { businessId }, at);
      return [];
    }
    case 'project.criteria_updated': {
      const projectId = str(d.project_id);
      const status = str(d.project_status);
      if (projectId && status) {
        await tx.query('UPDATE workspace_projects SET status = $2, updated_at = $3 WHERE id = $1', [projectId, status, receivedAt]);
      }
      return [];
    }
    case 'match_run.completed': {
      const projectId = str(d.project_id);
      if (!projectId) return [];
      const best = z.object({ fit: z.string(), score: z.number() }).nullable().safeParse(d.best);
      await tx.query(
        `UPDATE workspace_projects SET status = 'matched', best_fit = $2, best_score = $3, match_count = $4, updated_at = $5 WHERE id = $1`,
        [projectId, best.success ? (best.data?.fit ?? null) : null, best.success ? (best.data?.score ?? null) : null, int(d.match_count), receivedAt],
      );
      return [];
    }
    default:
      // match_run.failed and deal_application.submitted change nothing the workspace shows; unknown types are kept in the log only.
      return [];
  }
}
