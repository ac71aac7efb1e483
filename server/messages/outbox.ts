import 'server-only';
import { newId } from '@/server/db/ids';
import { getEnv } from '@/server/env';
import type { Db } from '@/server/db/types';
import type { MessageStatus, MessageView } from '@/lib/bff/messages';
import type PgBoss from 'pg-boss';
import { DELIVER_QUEUE, bossDb } from './job-queue';
import type { RenderedMail } from './templates/invitation-mail';

export interface OutboxRow {
  id: string;
  template: string;
  language: string;
  recipient: string;
  recipient_name: string | null;
  subject: string;
  text_body: string;
  html_body: string;
  application_id: string | null;
  invitation_id: string | null;
  created_by: string | null;
  status: MessageStatus;
  attempts: number;
  last_error: string | null;
  smtp_message_id: string | null;
  next_attempt_at: Date;
  claimed_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  updated_at: Date;
  action_url: string | null;
  list_unsubscribe: string | null;
  held_reason: string | null;
}

export const OUTBOX_COLUMNS =
  'id, template, language, recipient, recipient_name, subject, text_body, html_body, application_id, invitation_id, created_by, status, attempts, last_error, smtp_message_id, next_attempt_at, claimed_at, sent_at, created_at, updated_at, action_url, list_unsubscribe, held_reason';

export interface NewMessage {
  template: string;
  recipient: string;
  recipientName: string | null;
  mail: RenderedMail;
  applicationId: string | null;
  invitationId: string | null;
  createdBy: string | null;
  /** The link the message exists to carry (an invitation's), kept so later mail of the same invitation can repeat it. */
  actionUrl?: string | null;
  /** The one-click unsubscribe address (RFC 8058) sent as List-Unsubscribe. */
  listUnsubscribe?: string | null;
}

const DAY_MS = 86_400_000;
const startOfUtcDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

/**
 * When a message to `recipient` may go: now, unless `cap` messages to that address are already due today
 * (UTC); then the first later day with room, at its start. Counted by the day each message is due, so the
 * messages held for tomorrow fill tomorrow's cap and not today's.
 */
async function sendingDay(tx: Db, recipient: string, cap: number, now: Date): Promise<Date> {
  const today = startOfUtcDay(now);
  // Messages to one address are queued one at a time (until the transaction ends): two actions at once would
  // otherwise both count the same day's room and together pass the cap.
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`outbox-recipient:${recipient}`]);
  // One read of the days from today on that already hold messages to this address; the rest have room.
  const rows = await tx.query<{ day: number; n: number }>(
    `SELECT floor(extract(epoch FROM next_attempt_at) / 86400)::int AS day, count(*)::int AS n
       FROM outbox WHERE recipient = $1 AND status <> 'suppressed' AND next_attempt_at >= $2 GROUP BY 1`,
    [recipient, today],
  );
  const due = new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
  const first = today.getTime() / DAY_MS;
  for (let day = 0; day < 366; day++) {
    if ((due.get(first + day) ?? 0) < cap) return day === 0 ? now : new Date((first + day) * DAY_MS);
  }
  throw new Error('no day with room for this message within a year');
}

/**
 * Queues a message: its row and its delivery job, on `tx`, the transaction of the action that causes it
 * (both commit with the action or neither exists). `boss` is the started queue (jobQueue(), awaited before
 * the transaction opens: starting it inside one would wait on the embedded database's single connection).
 */
export async function queueMessage(tx: Db, boss: PgBoss, message: NewMessage, now: Date = new Date()): Promise<OutboxRow> {
  const cap = getEnv().mailDailyCap;
  const at = await sendingDay(tx, message.recipient, cap, now);
  const held = at.getTime() > now.getTime() ? `More than ${cap} messages to this address today (the daily cap): this one goes on ${at.toISOString().slice(0, 10)}.` : null;
  const row = await tx.one<OutboxRow>(
    `INSERT INTO outbox (id, template, language, recipient, recipient_name, subject, text_body, html_body, application_id, invitation_id, created_by, next_attempt_at, created_at, updated_at, action_url, list_unsubscribe, held_reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $15, $16) RETURNING ${OUTBOX_COLUMNS}`,
    [
      newId('msg'),
      message.template,
      message.mail.language,
      message.recipient,
      message.recipientName,
      message.mail.subject,
      message.mail.text,
      message.mail.html,
      message.applicationId,
      message.invitationId,
      message.createdBy,
      at,
      now,
      message.actionUrl ?? null,
      message.listUnsubscribe ?? null,
      held,
    ],
  );
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  // The queue's own retries (its settings: job-queue.ts) carry the back-off of temporary refusals.
  await boss.send(DELIVER_QUEUE, { id: row.id }, { db: bossDb(tx), singletonKey: row.id, ...(held ? { startAfter: at } : {}) });
  return row;
}

/** A copy of a message, queued anew (resend): same recipient and bodies, a fresh row and delivery. */
export async function requeueCopy(tx: Db, boss: PgBoss, original: OutboxRow, createdBy: string, now: Date = new Date()): Promise<OutboxRow> {
  return queueMessage(
    tx,
    boss,
    {
      template: original.template,
      recipient: original.recipient,
      recipientName: original.recipient_name,
      mail: { subject: original.subject, text: original.text_body, html: original.html_body, language: original.language },
      applicationId: original.application_id,
      invitationId: original.invitation_id,
      createdBy,
      actionUrl: original.action_url,
      listUnsubscribe: original.list_unsubscribe,
    },
    now,
  );
}

/** The newest message of an invitation made from a template, or null. */
export const latestMessageOf = (db: Db, invitationId: string, template: string) =>
  db.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE invitation_id = $1 AND template = $2 ORDER BY created_at DESC, id DESC LIMIT 1`, [invitationId, template]).then(
    (rows) => rows[0] ?? null,
  );

/** An invitation's messages not yet claimed for sending stay unsent (it was revoked): `suppressed`. */
export async function suppressQueuedMessages(tx: Db, invitationId: string, now: Date = new Date()): Promise<void> {
  await tx.query(`UPDATE outbox SET status = 'suppressed', updated_at = $2, last_error = 'The invitation was revoked before this was sent.' WHERE invitation_id = $1 AND status = 'queued'`, [invitationId, now]);
}

/** The newest messages first. */
export const listOutbox = (db: Db, limit = 200) => db.query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]);

export function messageView(row: OutboxRow): MessageView {
  return {
    id: row.id,
    template: row.template,
    recipient: row.recipient,
    recipient_name: row.recipient_name,
    subject: row.subject,
    text_body: row.text_body,
    html_body: row.html_body,
    application_id: row.application_id,
    invitation_id: row.invitation_id,
    status: row.status,
    held_reason: row.status === 'queued' ? row.held_reason : null,
    attempts: row.attempts,
    last_error: row.last_error,
    next_attempt_at: row.status === 'queued' ? row.next_attempt_at.toISOString() : null,
    sent_at: row.sent_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
  };
}
