import 'server-only';
import { newId } from '@/server/db/ids';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import { isPortalError } from '@/server/portal';
import { refreshBusiness } from './refresh';
import { saveDeal, saveProject, setDealBusiness, syncInvitationState } from './store';
import { dealFacts, listBusinessPage, listDealPage, listProjectPage, projectFacts, type CallCounter } from './upstream';

/** Advisory lock key of the reconciler ('bffr' in ASCII), one instance at a time on a shared PostgreSQL. */
const RECONCILE_LOCK_KEY = 0x6266_6672;
/** Businesses read at once: enough to overlap round trips, few enough to stay inside the Portal's rate limit. */
const DEFAULT_CONCURRENCY = 8;
// Bounds that only a misbehaving upstream reaches (a cursor that never ends).
const MAX_PAGES = 10_000;

export interface ReconcileResult {
  pass: string;
  resumed: boolean;
  businesses: number;
  deals: number;
  projects: number;
  upstreamCalls: number;
  durationMs: number;
}

export interface ReconcileOptions {
  concurrency?: number;
}

interface SyncRow {
  pass_id: string | null;
  pass_started_at: Date | null;
  cursor: string | null;
  businesses_done: number;
  upstream_calls: number;
}

/** Runs fn on every item, `limit` at a time. */
async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * One pass over the Portal: every business page by page (each business's status, people, application and
 * pending suggestions), then every deal and project. The business list cursor is stored after each page, so
 * a pass stopped by an error or a restart resumes where it was; rows the complete pass did not find (and
 * nothing touched meanwhile) are removed at its end.
 */
async function runPass(db: Db, concurrency: number): Promise<ReconcileResult> {
  const started = Date.now();
  const sync = await db.one<SyncRow>(
    'SELECT pass_id, pass_started_at, cursor, businesses_done, upstream_calls FROM workspace_sync WHERE name = $1',
    ['reconcile'],
  );
  const resumed = !!(sync?.pass_id && sync.cursor && sync.pass_started_at);
  const pass = resumed ? sync!.pass_id! : newId('pass');
  const passStartedAt = resumed ? sync!.pass_started_at! : new Date(started);
  // A pass that stopped keeps its id and cursor but has last_error set: clearing it says this one is running.
  if (resumed) await db.query('UPDATE workspace_sync SET last_error = NULL, updated_at = $2 WHERE name = $1', ['reconcile', new Date()]);
  else {
    await db.query(
      `UPDATE workspace_sync SET pass_id = $2, pass_started_at = $3, cursor = NULL, businesses_done = 0, upstream_calls = 0, last_error = NULL, updated_at = $3
        WHERE name = $1`,
      ['reconcile', pass, passStartedAt],
    );
  }
  const counter: CallCounter = { calls: 0 };
  let reported = 0;
  const progress = async (cursor: string | null, done: number) => {
    await db.query(
      `UPDATE workspace_sync SET cursor = $2, businesses_done = businesses_done + $3, upstream_calls = upstream_calls + $4, updated_at = $5
        WHERE name = $1`,
      ['reconcile', cursor, done, counter.calls - reported, new Date()],
    );
    reported = counter.calls;
  };

  let cursor = resumed ? sync!.cursor : null;
  try {
    let businesses = 0;
    for (let n = 0; n < MAX_PAGES; n++) {
      let page;
      try {
        page = await listBusinessPage(counter, cursor);
      } catch (e) {
        // A stored cursor the Portal no longer takes (its secret changed): start the list again, same pass.
        if (cursor && isPortalError(e) && e.status === 400) {
          cursor = null;
          continue;
        }
        throw e;
      }
      await eachBounded(page.items, concurrency, (b) => refreshBusiness(db, b.id, counter, pass));
      businesses += page.items.length;
      cursor = page.next_cursor;
      await progress(cursor, page.items.length);
      if (!cursor) break;
    }
    await syncInvitationState(db, null);
    const deals = await reconcileDeals(db, counter, pass, concurrency);
    const projects = await reconcileProjects(db, counter, pass, concurrency);
    for (const table of ['workspace_businesses', 'workspace_deals', 'workspace_projects']) {
      await db.query(`DELETE FROM ${table} WHERE seen_pass IS DISTINCT FROM $1 AND updated_at < $2`, [pass, passStartedAt]);
    }
    await db.query(
      `DELETE FROM workspace_suggestions s WHERE NOT EXISTS (SELECT 1 FROM workspace_businesses b WHERE b.application_id = s.application_id)`,
    );
    const total = (sync && resumed ? sync.upstream_calls : 0) + counter.calls;
    const durationMs = Date.now() - started;
    await db.query(
      `UPDATE workspace_sync SET pass_id = NULL, pass_started_at = NULL, cursor = NULL, last_completed_at = $2, last_duration_ms = $3,
              last_calls = $4, last_error = NULL, updated_at = $2
        WHERE name = $1`,
      ['reconcile', new Date(), durationMs, total],
    );
    return { pass, resumed, businesses: (resumed ? sync!.businesses_done : 0) + businesses, deals, projects, upstreamCalls: total, durationMs };
  } catch (e) {
    // The cursor stays: the next pass resumes after the last page that was finished.
    await progress(cursor, 0).catch(() => undefined);
    const message = isPortalError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    await db.query('UPDATE workspace_sync SET last_error = $2, updated_at = $3 WHERE name = $1', ['reconcile', message.slice(0, 500), new Date()]);
    throw e;
  }
}

/**
 * Every deal, then the business of those whose business is not known yet (a deal does not name it): the
 * per-business deal lists are read until none is left unknown, most recently active businesses first.
 */
async function reconcileDeals(db: Db, counter: CallCounter, pass: string, concurrency: number): Promise<number> {
  let cursor: string | null = null;
  let count = 0;
  const now = new Date();
  for (let n = 0; n < MAX_PAGES; n++) {
    const page = await listDealPage(counter, cursor);
    for (const d of page.items) await saveDeal(db, dealFacts(d, null), now, pass);
    count += page.items.length;
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  const unknown = new Set(
    (await db.query<{ id: string }>('SELECT id FROM workspace_deals WHERE business_id IS NULL AND seen_pass = $1', [pass])).map((r) => r.id),
  );
  if (unknown.size === 0) return count;
  const businesses = await db.query<{ id: string }>('SELECT id FROM workspace_businesses ORDER BY last_activity_at DESC NULLS LAST, id');
  for (let i = 0; i < businesses.length && unknown.size > 0; i += concurrency) {
    await eachBounded(businesses.slice(i, i + concurrency), concurrency, async ({ id }) => {
      let c: string | null = null;
      for (let n = 0; n < MAX_PAGES; n++) {
        const page = await listDealPage(counter, c, id);
        const found = page.items.map((d) => d.id);
        await setDealBusiness(db, found, id);
        for (const f of found) unknown.delete(f);
        c = page.next_cursor;
        if (!c) break;
      }
    });
  }
  return count;
}

/** Every project (a project names its business), with the best fit of the matched ones. */
async function reconcileProjects(db: Db, counter: CallCounter, pass: string, concurrency: number): Promise<number> {
  let cursor: string | null = null;
  let count = 0;
  try {
    for (let n = 0; n < MAX_PAGES; n++) {
      const page = await listProjectPage(counter, cursor);
      await eachBounded(page.items, concurrency, async (p) => saveProject(db, await projectFacts(counter, p), new Date(), pass));
      count += page.items.length;
      cursor = page.next_cursor;
      if (!cursor) break;
    }
  } catch (e) {
    // A Portal without projects (or a key without projects:read) still gets its businesses and deals reconciled.
    if (isPortalError(e) && (e.status === 403 || e.status === 404)) {
      log.info('read model: projects not readable, skipped', { code: e.code });
      return count;
    }
    throw e;
  }
  return count;
}

async function withReconcileLock<T>(db: Db, fn: () => Promise<T>): Promise<T | null> {
  // The embedded database is opened by one process only, so the in-process guard below is the whole lock;
  // a transaction there would hold its only connection and stall every other query.
  if (db.kind !== 'postgres') return fn();
  return db.transaction(async (tx) => {
    const got = await tx.one<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RECONCILE_LOCK_KEY]);
    if (!got?.locked) return null;
    return fn();
  });
}

let running: Promise<ReconcileResult | null> | null = null;

/**
 * Reconciles the read model with the Portal. A second call while a pass runs in this process joins it; with
 * PostgreSQL, a pass running on another instance makes this one return null at once (the other does the work).
 */
export function reconcile(db: Db, options: ReconcileOptions = {}): Promise<ReconcileResult | null> {
  running ??= withReconcileLock(db, () => runPass(db, options.concurrency ?? DEFAULT_CONCURRENCY)).finally(() => {
    running = null;
  });
  return running;
}

/** Whether this process is reconciling now. */
export const isReconcilingHere = () => running !== null;
