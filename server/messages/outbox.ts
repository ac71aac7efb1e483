import 'server-only';
import { newId } from '@/server/db/ids';
import { getEnv } from '@/server/env';
import type { Db } from '@/server/db/types';
import type { MessageStatus, MessageView } from '@/lib/bff/messages';
import type PgBoss from 'pg-boss';
import { DELIVER_CHUNK_QUEUE, DELIVER_QUEUE, DELIVERY_CHUNK, bossDb } from './job-queue';
import { deferredLanguage, isDeferred, renderDeferred, type DeferredMail } from './templates/deferred-mail';
import type { RenderedMail } from './templates/invitation-mail';

/** A message as shown and sent: its bodies rendered. */
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

/** A message as stored: a deferred one has its template's input and no bodies until it is sent. */
export type StoredOutboxRow = Omit<OutboxRow, 'subject' | 'text_body' | 'html_body'> & {
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  mail_input: DeferredMail | null;
};

export const OUTBOX_COLUMNS =
  'id, template, language, recipient, recipient_name, subject, text_body, html_body, application_id, invitation_id, created_by, status, attempts, last_error, smtp_message_id, next_attempt_at, claimed_at, sent_at, created_at, updated_at, action_url, list_unsubscribe, held_reason, mail_input';

/** A stored message's subject: as kept, or rendered from its input. */
export const subjectOf = (row: Pick<StoredOutboxRow, 'subject' | 'mail_input'>): string => row.subject ?? (row.mail_input ? renderDeferred(row.mail_input).subject : '');

/** A stored message with its bodies: as kept, or rendered from its input (the same words each time). */
export function rendered(row: StoredOutboxRow): OutboxRow {
  const { mail_input, ...rest } = row;
  if (row.subject !== null && row.text_body !== null && row.html_body !== null) return { ...rest, subject: row.subject, text_body: row.text_body, html_body: row.html_body };
  if (!mail_input) throw new Error(`outbox row ${row.id} has neither bodies nor the input to render them`);
  const mail = renderDeferred(mail_input);
  return { ...rest, subject: mail.subject, text_body: mail.text, html_body: mail.html };
}

export interface NewMessage {
  template: string;
  recipient: string;
  recipientName: string | null;
  /** The rendered message, or what its template needs to render it when it is shown or sent (bulk reminders). */
  mail: RenderedMail | DeferredMail;
  applicationId: string | null;
  invitationId: string | null;
  createdBy: string | null;
  /** The link the message exists to carry (an invitation's), kept so later mail of the same invitation can repeat it. */
  actionUrl?: string | null;
  /** The one-click unsubscribe address (RFC 8058) sent as List-Unsubscribe. */
  listUnsubscribe?: string | null;
  /** The row's id when the caller names it first (queueMessages: a reminder step records it as it is claimed). */
  id?: string;
}

const DAY_MS = 86_400_000;
const startOfUtcDay = (t: Date) => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);

/**
 * When a message may go, given how many messages to its address are already due on each UTC day (keyed by day
 * number since the epoch): now, unless `cap` are already due today; then the first later day with room, at its
 * start. Counted by the day each message is due, so the messages held for tomorrow fill tomorrow's cap and not today's.
 */
function firstDayWithRoom(due: ReadonlyMap<number, number>, cap: number, now: Date): Date {
  const first = startOfUtcDay(now).getTime() / DAY_MS;
  for (let day = 0; day < 366; day++) {
    if ((due.get(first + day) ?? 0) < cap) return day === 0 ? now : new Date((first + day) * DAY_MS);
  }
  throw new Error('no day with room for this message within a year');
}

/**
 * Messages to each of `recipients` already due per UTC day from today on: one read for them all. The addresses
 * are locked first (until the transaction ends, in one order so two batches cannot deadlock): two actions at
 * once would otherwise both count the same day's room and together pass the cap.
 */
async function dueByDay(tx: Db, recipients: readonly string[], now: Date): Promise<Map<string, Map<number, number>>> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('outbox-recipient:' || r, 0))
       FROM (SELECT DISTINCT r FROM unnest($1::text[]) AS r ORDER BY r) AS sorted`,
    [recipients],
  );
  const rows = await tx.query<{ recipient: string; day: number; n: number }>(
    `SELECT recipient, floor(extract(epoch FROM next_attempt_at) / 86400)::int AS day, count(*)::int AS n
       FROM outbox WHERE recipient = ANY($1::text[]) AND status <> 'suppressed' AND next_attempt_at >= $2 GROUP BY 1, 2`,
    [recipients, startOfUtcDay(now)],
  );
  const byRecipient = new Map<string, Map<number, number>>();
  for (const r of rows) {
    const days = byRecipient.get(r.recipient) ?? new Map<number, number>();
    days.set(Number(r.day), Number(r.n));
    byRecipient.set(r.recipient, days);
  }
  return byRecipient;
}

const heldReason = (cap: number, at: Date) => `More than ${cap} messages to this address today (the daily cap): this one goes on ${at.toISOString().slice(0, 10)}.`;

/**
 * The delivery jobs of messages queued at once: a job of its own for a lone message and for each held for a later
 * day (due then), and a job per DELIVERY_CHUNK for the rest, due now.
 */
function deliveryJobs(rows: readonly Pick<StoredOutboxRow, 'id' | 'held_reason' | 'next_attempt_at'>[]): PgBoss.JobInsert[] {
  const alone = (r: (typeof rows)[number]): PgBoss.JobInsert => ({ name: DELIVER_QUEUE, data: { id: r.id }, singletonKey: r.id, ...(r.held_reason ? { startAfter: r.next_attempt_at } : {}) });
  const now = rows.filter((r) => !r.held_reason);
  const jobs = rows.filter((r) => r.held_reason).map(alone);
  if (now.length === 1) return [...jobs, alone(now[0]!)];
  for (let i = 0; i < now.length; i += DELIVERY_CHUNK) jobs.push({ name: DELIVER_CHUNK_QUEUE, data: { ids: now.slice(i, i + DELIVERY_CHUNK).map((r) => r.id) } });
  return jobs;
}

/**
 * Queues a message: its row and its delivery job, on `tx`, the transaction of the action that causes it
 * (both commit with the action or neither exists). `boss` is the started queue (jobQueue(), awaited before
 * the transaction opens: starting it inside one would wait on the embedded database's single connection).
 */
export async function queueMessage(tx: Db, boss: PgBoss, message: NewMessage, now: Date = new Date()): Promise<OutboxRow> {
  const [row] = await queueMessages(tx, boss, [message], now);
  return rendered(row!);
}

/**
 * Queues many messages at once (a reminder tick's): their rows in one INSERT and their delivery jobs in one, on
 * `tx`, with the daily cap read once for every recipient and counted on across the batch (two messages to one
 * address in a batch count as two). The queue's own retries (its settings: job-queue.ts) carry the back-off of
 * temporary refusals.
 */
export async function queueMessages(tx: Db, boss: PgBoss, messages: readonly NewMessage[], now: Date = new Date()): Promise<StoredOutboxRow[]> {
  if (messages.length === 0) return [];
  const cap = getEnv().mailDailyCap;
  const due = await dueByDay(tx, [...new Set(messages.map((m) => m.recipient))], now);
  const rows = messages.map((m): StoredOutboxRow => {
    const days = due.get(m.recipient) ?? new Map<number, number>();
    due.set(m.recipient, days);
    const at = firstDayWithRoom(days, cap, now);
    const day = Math.floor(at.getTime() / DAY_MS);
    days.set(day, (days.get(day) ?? 0) + 1);
    const deferred = isDeferred(m.mail) ? m.mail : null;
    const mail = isDeferred(m.mail) ? null : m.mail;
    return {
      id: m.id ?? newId('msg'),
      template: m.template,
      language: deferred ? deferredLanguage(deferred) : mail!.language,
      recipient: m.recipient,
      recipient_name: m.recipientName,
      subject: mail?.subject ?? null,
      text_body: mail?.text ?? null,
      html_body: mail?.html ?? null,
      mail_input: deferred,
      application_id: m.applicationId,
      invitation_id: m.invitationId,
      created_by: m.createdBy,
      status: 'queued',
      attempts: 0,
      last_error: null,
      smtp_message_id: null,
      next_attempt_at: at,
      claimed_at: null,
      sent_at: null,
      created_at: now,
      updated_at: now,
      action_url: m.actionUrl ?? null,
      list_unsubscribe: m.listUnsubscribe ?? null,
      held_reason: at.getTime() > now.getTime() ? heldReason(cap, at) : null,
    };
  });
  // One JSON document carries the batch (the rows as returned: json_to_recordset takes the columns it names and
  // leaves the rest), cheaper to send and to take apart than an array per column. Nothing is read back: the rows
  // are what was written, and 10,000 bodies returned cost as much again as writing them.
  await tx.query(
    `INSERT INTO outbox (id, template, language, recipient, recipient_name, subject, text_body, html_body, application_id, invitation_id, created_by, next_attempt_at, created_at, updated_at, action_url, list_unsubscribe, held_reason, mail_input)
     SELECT id, template, language, recipient, recipient_name, subject, text_body, html_body, application_id, invitation_id, created_by, next_attempt_at, $2, $2, action_url, list_unsubscribe, held_reason, mail_input
       FROM json_to_recordset($1::json) AS x(id text, template text, language text, recipient text, recipient_name text, subject text, text_body text, html_body text, application_id text,
                                            invitation_id text, created_by text, next_attempt_at timestamptz, action_url text, list_unsubscribe text, held_reason text, mail_input jsonb)`,
    [JSON.stringify(rows), now],
  );
  await boss.insert(deliveryJobs(rows), { db: bossDb(tx) });
  return rows;
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
  db
    .query<StoredOutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox WHERE invitation_id = $1 AND template = $2 ORDER BY created_at DESC, id DESC LIMIT 1`, [invitationId, template])
    .then((rows) => (rows[0] ? rendered(rows[0]) : null));

/** An invitation's messages not yet claimed for sending stay unsent (it was revoked): `suppressed`. */
export async function suppressQueuedMessages(tx: Db, invitationId: string, now: Date = new Date()): Promise<void> {
  await tx.query(`UPDATE outbox SET status = 'suppressed', updated_at = $2, last_error = 'The invitation was revoked before this was sent.' WHERE invitation_id = $1 AND status = 'queued'`, [invitationId, now]);
}

/** The newest messages first. */
export const listOutbox = (db: Db, limit = 200) =>
  db.query<StoredOutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM outbox ORDER BY created_at DESC, id DESC LIMIT $1`, [limit]).then((rows) => rows.map(rendered));

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
