import 'server-only';
import PgBoss from 'pg-boss';
import { appDb } from '@/server/db/app-db';
import { getEnv } from '@/server/env';
import type { Db, SqlParam } from '@/server/db/types';
import { log } from '@/server/log';
import { processWide } from '@/server/process-wide';

/** The queue of message deliveries: one job per outbox row, keyed by the row's id. */
export const DELIVER_QUEUE = 'mail-deliver';

/**
 * The queue of messages queued together (a reminder tick's): one job per DELIVERY_CHUNK rows due at once, so a
 * tick writes a job per chunk instead of one per message. A message of a chunk refused for now is retried on
 * its own, through a DELIVER_QUEUE job.
 */
export const DELIVER_CHUNK_QUEUE = 'mail-deliver-chunk';

/** Messages per chunk job: as many as the delivery worker takes in one fetch of single jobs. */
export const DELIVERY_CHUNK = 25;

/** The queue of reminder steps: one job per invitation step, keyed `<invitation>:<step>`, due at the step's time. */
export const REMINDER_QUEUE = 'reminder-step';

/** A script of several statements (pg-boss's migrations and locked sections), which takes no parameters. */
const isScript = (sql: string) => /;\s*\S/.test(sql.trim());

/**
 * pg-boss over the BFF's own Db (either driver), so jobs live in the same database as the rows they act on
 * and a job can be sent inside the transaction that writes its row: both commit or neither does. PGlite
 * takes scripts only through exec, so a parameterless script goes there.
 */
export function bossDb(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      if (values.length === 0 && isScript(text)) {
        await db.exec(text);
        return { rows: [] };
      }
      // pg-boss binds strings, numbers, dates, arrays and JSON objects; both drivers serialise those as pg does.
      return { rows: await db.query(text, values as SqlParam[]) };
    },
  };
}

/**
 * pg-boss's schema beside the app's tables: `pgboss` when the app uses the default schema, else one named
 * after the app's (several apps in one database, each on its own search_path, keep their jobs apart).
 */
async function bossSchema(db: Db): Promise<string> {
  const row = await db.one<{ schema: string }>('SELECT current_schema() AS schema');
  const current = row?.schema ?? 'public';
  return current === 'public' ? 'pgboss' : `${current}_pgboss`;
}

/** How many times a temporarily refused message is tried before it ends `failed`. */
export const MAX_ATTEMPTS = 8;

/**
 * A started job queue over `db` (its schema created or migrated, the delivery queue made). A delivery job is
 * retried by the queue after a temporary refusal: `retrySeconds`, then doubling, MAX_ATTEMPTS tries in all.
 */
export async function startJobQueue(db: Db, retrySeconds: number): Promise<PgBoss> {
  const boss = new PgBoss({ db: bossDb(db), schema: await bossSchema(db), schedule: false, supervise: true, migrate: true });
  boss.on('error', (e: Error) => log.warn('job queue error', { error: e.message }));
  await boss.start();
  // 'short': at most one queued job per key, so an outbox row has one delivery job however often it is asked for,
  // and an invitation's step one waiting job whoever schedules it.
  await ensureQueue(boss, { name: DELIVER_QUEUE, policy: 'short', retryLimit: MAX_ATTEMPTS - 1, retryDelay: retrySeconds, retryBackoff: true, expireInSeconds: 120 });
  // A chunk is made once, in the transaction that queues its rows: no key to keep it single.
  await ensureQueue(boss, { name: DELIVER_CHUNK_QUEUE, policy: 'standard', retryLimit: MAX_ATTEMPTS - 1, retryDelay: retrySeconds, retryBackoff: true, expireInSeconds: 120 });
  await ensureQueue(boss, { name: REMINDER_QUEUE, policy: 'short', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 });
  return boss;
}

async function ensureQueue(boss: PgBoss, queue: PgBoss.Queue & { name: string }): Promise<void> {
  if (await boss.getQueue(queue.name)) await boss.updateQueue(queue.name, queue);
  else {
    // Another instance may create it at the same moment: only its absence afterwards is a failure.
    await boss.createQueue(queue.name, queue).catch(async (e: unknown) => {
      if (!(await boss.getQueue(queue.name))) throw e;
    });
  }
}

const holder = processWide('job-queue', () => ({ boss: null as Promise<PgBoss> | null }));

/** The process's job queue, started (schema created or migrated) on first use; a failed start is tried again next time. */
export function jobQueue(): Promise<PgBoss> {
  holder.boss ??= appDb().then((db) => startJobQueue(db, getEnv().mailRetrySeconds)).catch((e: unknown) => {
    holder.boss = null;
    throw e;
  });
  return holder.boss;
}

/** Stops the queue (its workers finish the job in hand first). */
export async function stopJobQueue(): Promise<void> {
  const boss = await holder.boss?.catch(() => null);
  holder.boss = null;
  await boss?.stop({ graceful: true, wait: true, close: false, timeout: 20_000 });
}
