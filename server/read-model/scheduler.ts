import 'server-only';
import { appDb } from '@/server/db/app-db';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import { log } from '@/server/log';
import { reconcile } from './reconcile';

/** After a failed pass the schedule tries again sooner than its interval: 1, 2, 4 … minutes, never past the interval. */
const FIRST_RETRY_MS = 60_000;
let failures = 0;
let retryTimer: NodeJS.Timeout | null = null;
let retryWith: ((why: 'retry') => void) | null = null;

function scheduleRetry() {
  if (!retryWith || retryTimer) return;
  const intervalMs = getEnv().reconcileMinutes * 60_000;
  const wait = Math.min(intervalMs, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 10));
  retryTimer = setTimeout(() => {
    retryTimer = null;
    retryWith?.('retry');
  }, wait);
  retryTimer.unref();
}

type Why = 'start' | 'schedule' | 'retry' | 'request' | 'first view';

/** Runs (or joins) a pass and logs how it went; a failure schedules a retry. Never rejects. */
function tracked(db: Db, why: Why): Promise<void> {
  log.info('read model reconcile requested', { why });
  return reconcile(db).then(
    (r) => {
      failures = 0;
      if (r) {
        log.info('read model reconcile finished', {
          why,
          pass: r.pass,
          resumed: r.resumed,
          businesses: r.businesses,
          deals: r.deals,
          projects: r.projects,
          upstream_calls: r.upstreamCalls,
          duration_ms: r.durationMs,
          skipped: r.skipped.map((s) => `${s.step} (${s.why})`),
        });
      } else log.info('read model reconcile skipped: another instance is reconciling', { why });
    },
    (e) => {
      failures += 1;
      log.warn('read model reconcile failed', { why, error: e instanceof Error ? e.message : String(e) });
      scheduleRetry();
    },
  );
}

/** Starts a pass in the background and logs how it went; the caller does not wait for it. */
export function reconcileInBackground(db: Db, why: Exclude<Why, 'first view'>): void {
  void tracked(db, why);
}

let started = false;

/**
 * A pass at start, then one every WORKSPACE_RECONCILE_MINUTES (0: none; "Refresh now" still works), and after a
 * failed pass a retry with back-off (it resumes where the failed one stopped). With several instances each keeps
 * the schedule; a pass finished elsewhere within the interval makes this instance's turn a no-op, and the advisory
 * lock keeps two from overlapping.
 */
export function startReconcileSchedule(): void {
  const minutes = getEnv().reconcileMinutes;
  if (started || minutes === 0) return;
  started = true;
  const intervalMs = minutes * 60_000;
  const turn = async (why: 'start' | 'schedule' | 'retry') => {
    try {
      const db = await appDb();
      const last = await db.one<{ last_completed_at: Date | null }>('SELECT last_completed_at FROM workspace_sync WHERE name = $1', ['reconcile']);
      if (why === 'schedule' && last?.last_completed_at && Date.now() - last.last_completed_at.getTime() < intervalMs / 2) return;
      reconcileInBackground(db, why);
    } catch (e) {
      log.warn('read model schedule could not start a pass', { error: e instanceof Error ? e.message : String(e) });
    }
  };
  retryWith = (why) => void turn(why);
  setTimeout(() => void turn('start'), 1_000).unref();
  setInterval(() => void turn('schedule'), intervalMs).unref();
}

/**
 * A page of the workspace opened before the first pass ever finished waits for it a little (a new app against
 * a small Portal has its lists at once); past `maxMs` the page shows what there is and says it is not checked yet.
 * Once a pass has failed, pages do not start one each: the schedule (or "Refresh now") tries again, and a pass
 * under way is joined.
 */
export async function awaitFirstPass(db: Db, maxMs = 5_000): Promise<void> {
  const row = await db.one<{ last_completed_at: Date | null; last_error: string | null }>(
    'SELECT last_completed_at, last_error FROM workspace_sync WHERE name = $1',
    ['reconcile'],
  );
  if (row?.last_completed_at || row?.last_error) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  await Promise.race([tracked(db, 'first view'), timeout]);
  clearTimeout(timer);
}
