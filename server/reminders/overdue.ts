import 'server-only';
import type { OverdueApplication } from '@/lib/bff/reminders';
import type { Db } from '@/server/db/types';

interface OverdueRow {
  application_id: string;
  business_id: string | null;
  business_name: string | null;
  client_name: string | null;
  client_email: string | null;
  due_at: Date;
  progress_percent: number | null;
}

/**
 * Applications past their due date and not submitted, the most overdue first: per application its newest
 * invitation with a due date that is not revoked. "Past due" is the due date, or its overdue reminder having
 * gone (under REMINDER_TIME_SCALE the schedule's clock runs ahead of the calendar).
 */
export async function overdueApplications(db: Db, now: Date = new Date(), limit = 50): Promise<OverdueApplication[]> {
  const rows = await db.query<OverdueRow>(
    `SELECT DISTINCT ON (i.application_id) i.application_id, i.business_id, w.name AS business_name, i.client_name, i.client_email, i.due_at, w.progress_percent
     FROM invitations i
     LEFT JOIN workspace_businesses w ON w.application_id = i.application_id
     WHERE i.due_at IS NOT NULL AND i.revoked_at IS NULL AND w.submitted_at IS NULL
       AND (i.due_at <= $1 OR EXISTS (SELECT 1 FROM reminder_steps s WHERE s.invitation_id = i.id AND s.kind = 'overdue' AND s.status = 'sent'))
     ORDER BY i.application_id, i.created_at DESC`,
    [now],
  );
  return rows
    .sort((a, b) => a.due_at.getTime() - b.due_at.getTime())
    .slice(0, limit)
    .map((r) => ({
      application_id: r.application_id,
      business_id: r.business_id,
      business_name: r.business_name,
      client: r.client_name ?? r.client_email,
      due_at: r.due_at.toISOString(),
      progress_percent: r.progress_percent,
    }));
}
