import 'server-only';
import type { Transporter } from 'nodemailer';
import type PgBoss from 'pg-boss';
import type { Db } from '@/server/db/types';
import { clip, log } from '@/server/log';
import { observedJob } from '@/server/ops/job-telemetry';
import { recordMailDelivery } from '@/server/ops/metrics';
import { DELIVER_CHUNK_QUEUE, DELIVER_QUEUE, MAX_ATTEMPTS } from './job-queue';
import { OUTBOX_COLUMNS, rendered, type StoredOutboxRow } from './outbox';

export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'not-queued';

interface SmtpError {
  responseCode?: number;
  response?: string;
  code?: string;
  message?: string;
}

/** 5xx is the server's final word on this message; anything else (4xx, no connection, a timeout) may pass later. */
function classify(e: unknown): { permanent: boolean; reason: string } {
  const err = (e ?? {}) as SmtpError;
  const code = typeof err.responseCode === 'number' ? err.responseCode : null;
  const reason = clip(err.response ?? (err.code ? `${err.code}: ${err.message ?? ''}` : (err.message ?? String(e))), 500) ?? 'unknown error';
  return { permanent: code !== null && code >= 500 && code < 600, reason };
}

export interface DeliverOptions {
  from: string;
  /** Host part of Message-ID: the app's public host, so replies and bounces name this app. */
  messageIdHost: string;
  /** First wait after a temporary refusal, doubled per attempt (shown as the next try). */
  retrySeconds: number;
}

/**
 * Delivers one outbox row, at most once: the UPDATE that moves it from `queued` to `sending` is the claim,
 * and only its winner sends (a second instance, or a replayed job, finds it no longer queued). A row left in
 * `sending` by a process that died mid-send is never sent again (sweepAbandoned marks it failed instead):
 * whether the SMTP server took it cannot be known, and twice is worse than asking staff to resend.
 */
export async function deliverMessage(db: Db, transport: Transporter, id: string, options: DeliverOptions, now = () => new Date()): Promise<DeliveryOutcome> {
  const stored = await db.one<StoredOutboxRow>(
    `UPDATE outbox SET status = 'sending', attempts = attempts + 1, claimed_at = $2, updated_at = $2
     WHERE id = $1 AND status = 'queued' RETURNING ${OUTBOX_COLUMNS}`,
    [id, now()],
  );
  if (!stored) return 'not-queued';
  try {
    const claimed = rendered(stored);
    const info = (await transport.sendMail({
      from: options.from,
      to: claimed.recipient_name ? { name: claimed.recipient_name, address: claimed.recipient } : claimed.recipient,
      subject: claimed.subject,
      text: claimed.text_body,
      html: claimed.html_body,
      messageId: `<${claimed.id}@${options.messageIdHost}>`,
      headers: {
        'Content-Language': claimed.language,
        'Auto-Submitted': 'auto-generated',
        // RFC 8058: the address takes a POST of List-Unsubscribe=One-Click, so a mail client's button needs no page.
        ...(claimed.list_unsubscribe ? { 'List-Unsubscribe': `<${claimed.list_unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {}),
      },
      disableFileAccess: true,
      disableUrlAccess: true,
    })) as { messageId?: string };
    // A message queued as its template's input keeps the words it was sent with, whatever the template says later.
    const bodies = stored.mail_input ? [claimed.subject, claimed.text_body, claimed.html_body] : [null, null, null];
    await db.query(
      `UPDATE outbox SET status = 'sent', sent_at = $2, updated_at = $2, last_error = NULL, smtp_message_id = $3,
              subject = COALESCE(subject, $4), text_body = COALESCE(text_body, $5), html_body = COALESCE(html_body, $6) WHERE id = $1`,
      [id, now(), info.messageId ?? null, ...bodies],
    );
    return 'sent';
  } catch (e) {
    const { permanent, reason } = classify(e);
    if (permanent || stored.attempts >= MAX_ATTEMPTS) {
      await db.query(`UPDATE outbox SET status = 'failed', updated_at = $2, last_error = $3 WHERE id = $1`, [id, now(), reason]);
      return 'failed';
    }
    const next = new Date(now().getTime() + options.retrySeconds * 1000 * 2 ** (stored.attempts - 1));
    await db.query(`UPDATE outbox SET status = 'queued', updated_at = $2, last_error = $3, next_attempt_at = $4 WHERE id = $1`, [id, now(), reason, next]);
    return 'retry';
  }
}

/**
 * Rows claimed longer ago than `leaseMs` whose sender is gone (a crash mid-send): marked failed with the reason,
 * never sent again, so staff see them and can resend.
 */
export async function sweepAbandoned(db: Db, leaseMs: number, now = new Date()): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE outbox SET status = 'failed', updated_at = $1,
       last_error = 'Delivery was interrupted (the app stopped while sending): it may or may not have arrived. Resend it if needed.'
     WHERE status = 'sending' AND claimed_at < $2 RETURNING id`,
    [now, new Date(now.getTime() - leaseMs)],
  );
  return rows.length;
}

/** Jobs taken per fetch: the queue waits its polling interval only after a fetch that found fewer. */
const BATCH = 25;

/** Delivers one message of a job, counted, logged and traced like every other. */
async function deliverCounted(db: Db, transport: Transporter, id: string, options: DeliverOptions): Promise<DeliveryOutcome> {
  const outcome = await deliverMessage(db, transport, id, options);
  recordMailDelivery(outcome);
  log.info('message delivery', { message_id: id, outcome });
  return outcome;
}

/**
 * A message of a chunk refused for now gets a job of its own, due when the row says its next try is, with the
 * back-off carried on from there (the queue doubles `retryDelay` at each further refusal), and only the tries
 * left. Keyed by the row like every single job, so a chunk tried again cannot give it two.
 */
async function retryAlone(boss: PgBoss, db: Db, id: string, retrySeconds: number): Promise<void> {
  const row = await db.one<{ attempts: number; next_attempt_at: Date }>(`SELECT attempts, next_attempt_at FROM outbox WHERE id = $1 AND status = 'queued'`, [id]);
  if (!row) return;
  await boss.send(DELIVER_QUEUE, { id }, { singletonKey: id, startAfter: row.next_attempt_at, retryDelay: retrySeconds * 2 ** row.attempts, retryLimit: Math.max(0, MAX_ATTEMPTS - row.attempts - 1) });
}

/**
 * Works the delivery queues on this instance. Single jobs: up to BATCH per fetch, delivered one after another
 * over the transport's connection; a temporary refusal fails only its own job, so the queue's back-off schedules
 * its next try while the rest of the batch completes. Chunk jobs (messages queued together): one at a time, a
 * chunk being as many messages as a fetch of single jobs. After a full fetch the next is at once (the queue
 * would otherwise wait its polling interval between fetches: one batch a second). Returns the workers' ids.
 */
export async function workDeliveries(boss: PgBoss, db: Db, transport: Transporter, options: () => DeliverOptions, pollingIntervalSeconds = 1): Promise<string[]> {
  let single: string | null = null;
  single = await boss.work<{ id: string }>(DELIVER_QUEUE, { batchSize: BATCH, pollingIntervalSeconds }, async (jobs) => {
    for (const job of jobs) {
      await observedJob(DELIVER_QUEUE, job.id, async (span) => {
        const outcome = await deliverCounted(db, transport, job.data.id, options());
        span?.setAttribute('mail.outcome', outcome);
        if (outcome !== 'retry') return 'completed';
        await boss.fail(DELIVER_QUEUE, job.id, { message: 'the SMTP server refused for now' });
        return 'failed';
      });
    }
    if (jobs.length === BATCH && single) boss.notifyWorker(single);
  });
  let chunks: string | null = null;
  chunks = await boss.work<{ ids: string[] }>(DELIVER_CHUNK_QUEUE, { batchSize: 1, pollingIntervalSeconds }, async ([job]) => {
    await observedJob(DELIVER_CHUNK_QUEUE, job!.id, async (span) => {
      let retried = 0;
      for (const id of job!.data.ids) {
        const outcome = await deliverCounted(db, transport, id, options());
        if (outcome !== 'retry') continue;
        retried++;
        await retryAlone(boss, db, id, options().retrySeconds);
      }
      span?.setAttribute('mail.retried', retried);
      return 'completed';
    });
    if (chunks) boss.notifyWorker(chunks);
  });
  return [single, chunks];
}
