import 'server-only';
import { appDb } from '@/server/db/app-db';
import type { Db } from '@/server/db/types';
import { getEnv } from '@/server/env';
import { log } from '@/server/log';
import { reconcile } from './reconcile';

/** Starts a pass in the background and logs how it went; the caller does not wait for it. */
export function reconcileInBackground(db: Db, why: 'start' | 'schedule' | 'request'): void {
  log.info('read model reconcile requested', { why });
  reconcile(db).then(
    (r) => {
      if (r) log.info('read model reconcile finished', { why, pass: r.pass, resumed: r.resumed, businesses: r.businesses, deals: r.deals, projects: r.projects, upstream_calls: r.upstreamCalls, duration_ms: r.durationMs });
      else log.info('read model reconcile skipped: another instance is reconciling', { why });
    },
    (e) => log.warn('read model reconcile failed', { why, error: e instanceof Error ? e.message : String(e) }),
  );
}

let started = false;

/**
 * A pass at start, then one every WORKSPACE_RECONCILE_MINUTES (0: none; "Refresh now" still works). With
 * several instances each keeps the schedule; a pass finished elsewhere within the interval makes this
 * instance's turn a no-op, and the advisory lock keeps two from overlapping.
 */
export function startReconcileSchedule(): void {
  const minutes = getEnv().reconcileMinutes;
  if (started || minutes === 0) return;
  started = true;
  const intervalMs = minutes * 60_000;
  const turn = async (why: 'start' | 'schedule') => {
    try {
      const db = await appDb();
      const last = await db.one<{ last_completed_at: Date | null }>('SELECT last_completed_at FROM workspace_sync WHERE name = $1', ['reconcile']);
      if (why === 'schedule' && last?.last_completed_at && Date.now() - last.last_completed_at.getTime() < intervalMs / 2) return;
      reconcileInBackground(db, why);
    } catch (e) {
      log.warn('read model schedule could not start a pass', { error: e instanceof Error ? e.message : String(e) });
    }
  };
  setTimeout(() => void turn('start'), 1_000).unref();
  setInterval(() => void turn('schedule'), intervalMs).unref();
}

/**
 * A page of the workspace opened before the first pass ever finished waits for it a little (a new app against
 * a small Portal has its lists at once); past `maxMs` the page shows what there is and says it is not checked yet.
 */
export async function awaitFirstPass(db: Db, maxMs = 5_000): Promise<void> {
  const row = await db.one<{ last_completed_at: Date | null }>('SELECT last_completed_at FROM workspace_sync WHERE name = $1', ['reconcile']);
  if (row?.last_completed_at) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  const pass = reconcile(db).then(
    () => undefined,
    (e) => log.warn('read model first pass failed', { error: e instanceof Error ? e.message : String(e) }),
  );
  await Promise.race([pass, timeout]);
  clearTimeout(timer);
}
