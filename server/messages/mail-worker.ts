import 'server-only';
import { appDb } from '@/server/db/app-db';
import { getEnv } from '@/server/env';
import { publicOrigin } from '@/server/http/public-origin';
import { onDrain } from '@/server/lifecycle/drain';
import { log } from '@/server/log';
import { processWide } from '@/server/process-wide';
import { sweepAbandoned, workDeliveries } from './deliver';
import { jobQueue, stopJobQueue } from './job-queue';
import { mailTransport } from './mail-transport';

/** A send takes seconds; one claimed for this long belongs to a process that is gone. */
const SENDING_LEASE_MS = 10 * 60_000;

const state = processWide('mail-worker', () => ({ started: false }));

/**
 * Starts this instance's delivery worker (with SMTP_URL; without it mail stays queued and the Outbox says so).
 * Every instance may run one: the job queue hands each job to one worker, and the outbox row's claim makes a
 * second delivery of the same row a no-op whatever the queue does.
 */
export async function startMailWorker(): Promise<void> {
  const env = getEnv();
  if (state.started) return;
  state.started = true;
  onDrain('mail-worker', stopJobQueue);
  if (!env.smtpUrl) {
    log.warn('SMTP_URL is not set: messages are queued but not delivered (npm start runs a local SMTP server)');
    return;
  }
  const transport = mailTransport(env.smtpUrl);
  const db = await appDb();
  const boss = await jobQueue();
  const swept = await sweepAbandoned(db, SENDING_LEASE_MS);
  if (swept > 0) log.warn('messages interrupted mid-send marked failed', { count: swept });
  // The public origin is known once the server listens (after register() ran): read it per job.
  await workDeliveries(boss, db, transport, () => ({ from: env.mailFrom, messageIdHost: new URL(publicOrigin()).hostname, retrySeconds: env.mailRetrySeconds }));
}
