import 'server-only';
import type { LiveEventView, RunProgressView } from '@/lib/bff/live-events';
import { MatchRunProgressEventData } from '@/lib/portal';
import type { Db } from '@/server/db/types';

/** The NOTIFY channel of received deliveries; its payload is the delivery id (the row holds the rest). */
export const LIVE_CHANNEL = 'intake_live_events';

export interface DeliveryRecord {
  id: string;
  type: string;
  /** The delivery's webhook-timestamp. */
  sentAt: Date;
  /** The event's own timestamp, from the payload. */
  occurredAt: Date | null;
  applicationId: string | null;
  businessId: string | null;
  dealId: string | null;
  payload: unknown;
}

/**
 * Stores a verified delivery and announces it, in one transaction: the NOTIFY is sent on commit, so no
 * instance hears of a row it cannot read yet, and a rolled-back insert announces nothing. Returns false
 * when the webhook-id was already received (a replay): nothing is stored or announced again. onStored runs in
 * the same transaction for a new delivery only (the read model is fed there, once per delivery).
 */
export async function recordDelivery(
  db: Db,
  d: DeliveryRecord,
  receivedAt: Date = new Date(),
  onStored?: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx.one<{ id: string }>(
      `INSERT INTO webhook_deliveries (id, received_at, event_type, sent_at, occurred_at, application_id, business_id, deal_id, payload)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [d.id, receivedAt, d.type, d.sentAt, d.occurredAt, d.applicationId, d.businessId, d.dealId, JSON.stringify(d.payload)],
    );
    if (!inserted) return false;
    await onStored?.(tx);
    await tx.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, d.id]);
    return true;
  });
}

interface DeliveryRow {
  id: string;
  event_type: string | null;
  occurred_at: Date | null;
  application_id: string | null;
  business_id: string | null;
  deal_id: string | null;
  project_id: string | null;
  answers_revision: number | null;
  run_data: unknown;
}

// Tolerant: the Portal may add fields to an event's data.
const ProgressData = MatchRunProgressEventData.strip();

/** A match run's progress from a `match_run.progress` event's data; null when it is not one. */
function runProgressOf(data: unknown): RunProgressView | null {
  const d = ProgressData.safeParse(data);
  if (!d.success) return null;
  const { run_id, attempt_sequence, status, progress } = d.data;
  return { run_id, attempt_sequence, status, step: progress.step, completed_units: progress.completed_units, total_units: progress.total_units };
}

/** What browsers are told about a delivery: its ids and type, never the whole payload. Null for an unknown id. */
export async function readLiveEvent(db: Db, id: string): Promise<LiveEventView | null> {
  const row = await db.one<DeliveryRow>(
    // A project's id is read from the payload (no column of its own: project events are few).
    `SELECT id, event_type, occurred_at, application_id, business_id, deal_id,
            CASE WHEN payload #>> '{data,project_id}' ~ '^proj_[a-z0-9]+$' THEN payload #>> '{data,project_id}' END AS project_id,
            CASE WHEN jsonb_typeof(payload #> '{data,answers_revision}') = 'number'
                 THEN (payload #>> '{data,answers_revision}')::int END AS answers_revision,
            CASE WHEN event_type = 'match_run.progress' THEN payload -> 'data' END AS run_data
       FROM webhook_deliveries WHERE id = $1 AND event_type IS NOT NULL`,
    [id],
  );
  if (!row?.event_type) return null;
  return {
    id: row.id,
    type: row.event_type,
    occurred_at: row.occurred_at?.toISOString() ?? null,
    application_id: row.application_id,
    business_id: row.business_id,
    deal_id: row.deal_id,
    project_id: row.project_id,
    answers_revision: row.answers_revision,
    run_progress: row.event_type === 'match_run.progress' ? runProgressOf(row.run_data) : null,
  };
}

/**
 * Deliveries older than this are dropped. A replay of one is refused by its timestamp long before
 * (the tolerance is minutes), so the ids need not be kept longer; a week leaves room to investigate.
 */
export const KEEP_DELIVERIES_MS = 7 * 24 * 3_600_000;

export async function purgeOldDeliveries(db: Db, now: Date = new Date()): Promise<number> {
  const gone = await db.one<{ n: number }>(
    'WITH gone AS (DELETE FROM webhook_deliveries WHERE received_at < $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [new Date(now.getTime() - KEEP_DELIVERIES_MS)],
  );
  return gone?.n ?? 0;
}
