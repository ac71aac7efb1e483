import 'server-only';
import type { Db } from '@/server/db/types';
import { subjectOf, type StoredOutboxRow } from '@/server/messages/outbox';
import type { ReviewEventKind } from '@/server/review/review-state';
import type { Actor } from './history-events';
import { historySettled } from './history-recorder';

/** What happened to an application, from the BFF's own records (the Portal keeps no such log). */
export type TimelineEvent =
  | {
      kind: 'answer';
      at: Date;
      by: Actor;
      schema_key: string;
      field_key: string;
      item_id: string | null;
      old: { known: boolean; value: unknown };
      new_value: unknown;
    }
  | { kind: 'invited'; at: Date; by: string | null; to: string | null }
  | { kind: 'link_opened'; at: Date }
  | { kind: 'invitation_revoked'; at: Date }
  | { kind: 'mail'; at: Date; to: string; subject: string; status: 'queued' | 'sending' | 'sent' | 'failed' | 'suppressed' }
  | { kind: 'action'; at: Date; by: { kind: 'user' | 'invitation'; label: string }; operation: TimelineOperation }
  | { kind: 'review'; at: Date; by: { kind: 'staff' | 'client'; name: string | null }; step: ReviewEventKind; detail: string | null };

/** The writes through the BFF a timeline names (answer and item values are in the answers' history instead). */
export const TIMELINE_OPERATIONS = [
  'application.submit',
  'deal_application.submit',
  'files.upload',
  'files.delete',
  'deal_application.file_upload',
  'deal_application.file_delete',
  'items.create',
  'items.delete',
  'deal_application.item_create',
  'deal_application.item_delete',
  'autofill.start',
  'autofill.suggestion_accept',
  'autofill.suggestion_dismiss',
] as const;
export type TimelineOperation = (typeof TIMELINE_OPERATIONS)[number];

interface Page {
  events: TimelineEvent[];
  /** Pass as `before` for older events; null when there are none. */
  nextBefore: Date | null;
}

/**
 * The newest `limit` events before `before`, newest first: each source is read newest first up to `limit`
 * (indexes on application and time), and the merge keeps the newest `limit` of them all.
 */
export async function applicationTimeline(db: Db, applicationId: string, limit: number, before: Date | null): Promise<Page> {
  // Only the conditions that apply (a far-future stand-in for "no bound" is not a date every driver can send).
  const beforeAt = (column: string, n: number) => (before ? `AND ${column} < $${n}` : `AND $${n}::timestamptz IS NULL`);
  // What was noted up to this read is in before it is read, so a write just made is on the page.
  await historySettled(db);
  const [answers, invitations, actions, mails, reviews] = await Promise.all([
    db.query<{ at: Date; actor_kind: Actor['kind']; actor_name: string | null; schema_key: string; field_key: string; item_id: string; old_known: boolean; old_value: unknown; new_value: unknown }>(
      `SELECT at, actor_kind, actor_name, schema_key, field_key, item_id, old_known, old_value, new_value
         FROM answer_history WHERE application_id = $1 ${beforeAt('at', 2)} ORDER BY at DESC, id DESC LIMIT $3`,
      [applicationId, before, limit + 1],
    ),
    db.query<{ created_at: Date; client_email: string | null; inviter: string | null; first_used_at: Date | null; revoked_at: Date | null }>(
      `SELECT i.created_at, i.client_email, u.name AS inviter, i.first_used_at, i.revoked_at
         FROM invitations i LEFT JOIN users u ON u.id = i.created_by
        WHERE i.application_id = $1 ORDER BY i.created_at DESC LIMIT 200`,
      [applicationId],
    ),
    db.query<{ at: Date; actor_kind: 'user' | 'invitation'; actor_label: string; operation: TimelineOperation }>(
      `SELECT a.at, a.actor_kind, coalesce(u.name, a.actor_label) AS actor_label, a.operation
         FROM audit_log a LEFT JOIN users u ON a.actor_kind = 'user' AND u.id = a.actor_id
        WHERE a.application_id = $1 AND a.outcome = 'success' ${beforeAt('a.at', 2)} AND a.operation = ANY($3::text[])
        ORDER BY a.id DESC LIMIT $4`,
      [applicationId, before, TIMELINE_OPERATIONS, limit + 1],
    ),
    db.query<Pick<StoredOutboxRow, 'created_at' | 'recipient' | 'subject' | 'mail_input' | 'status'>>(
      `SELECT created_at, recipient, subject, mail_input, status FROM outbox WHERE application_id = $1 ${beforeAt('created_at', 2)} ORDER BY created_at DESC LIMIT $3`,
      [applicationId, before, limit + 1],
    ),
    db.query<{ at: Date; kind: ReviewEventKind; actor_kind: 'staff' | 'client'; actor_name: string | null; detail: string | null }>(
      `SELECT at, kind, actor_kind, actor_name, detail FROM review_events WHERE application_id = $1 ${beforeAt('at', 2)} ORDER BY at DESC, id DESC LIMIT $3`,
      [applicationId, before, limit + 1],
    ),
  ]);
  const events: TimelineEvent[] = [
    ...answers.map((r): TimelineEvent => ({
      kind: 'answer',
      at: r.at,
      by: { kind: r.actor_kind, name: r.actor_name },
      schema_key: r.schema_key,
      field_key: r.field_key,
      item_id: r.item_id === '' ? null : r.item_id,
      old: { known: r.old_known, value: r.old_value },
      new_value: r.new_value,
    })),
    ...invitations.flatMap((r): TimelineEvent[] => [
      { kind: 'invited', at: r.created_at, by: r.inviter, to: r.client_email },
      ...(r.first_used_at ? [{ kind: 'link_opened' as const, at: r.first_used_at }] : []),
      ...(r.revoked_at ? [{ kind: 'invitation_revoked' as const, at: r.revoked_at }] : []),
    ]),
    ...actions.map((r): TimelineEvent => ({ kind: 'action', at: r.at, by: { kind: r.actor_kind, label: r.actor_label }, operation: r.operation })),
    ...mails.map((r): TimelineEvent => ({ kind: 'mail', at: r.created_at, to: r.recipient, subject: subjectOf(r), status: r.status })),
    ...reviews.map((r): TimelineEvent => ({ kind: 'review', at: r.at, by: { kind: r.actor_kind, name: r.actor_name }, step: r.kind, detail: r.detail })),
  ]
    .filter((e) => before === null || e.at < before)
    .sort((a, b) => b.at.getTime() - a.at.getTime());
  const page = events.slice(0, limit);
  return { events: page, nextBefore: events.length > limit ? page.at(-1)!.at : null };
}
