import 'server-only';
import type { ReconcileStep, SkippedStep } from '@/lib/bff/workspace';
import { newId } from '@/server/db/ids';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import { isPortalError, portalCapabilities, routes } from '@/server/portal';
import { parseSkipped } from './skipped';
import { refreshBusiness } from './refresh';
import { saveDeal, saveProject, setDealBusiness, syncInvitationState } from './store';
import { dealFacts, listBusinessPage, listDealPage, listProjectPage, projectFacts, type CallCounter } from './upstream';

/** Advisory lock key of the reconciler ('bffr' in ASCII), one instance at a time on a shared PostgreSQL. */
const RECONCILE_LOCK_KEY = 0x6266_6672;
/** Businesses read at once: enough to overlap round trips, few enough to stay inside the Portal's rate limit. */
const DEFAULT_CONCURRENCY = 8;
// Bounds that only a misbehaving upstream reaches (a cursor that never ends).
const MAX_PAGES = 10_000;

/** A pass walks these in order; a stopped pass resumes in the phase where it stopped. */
const PHASES = ['businesses', 'deals', 'deal_businesses', 'projects'] as const;
type Phase = (typeof PHASES)[number];
const isPhase = (p: string | null): p is Phase => (PHASES as readonly string[]).includes(p ?? '');

export interface ReconcileResult {
  pass: string;
  resumed: boolean;
  businesses: number;
  deals: number;
  projects: number;
  upstreamCalls: number;
  durationMs: number;
  /** What the pass could not check, and why. */
  skipped: SkippedStep[];
}

export interface ReconcileOptions {
  concurrency?: number;
}

interface SyncRow {
  pass_id: string | null;
  pass_started_at: Date | null;
  cursor: string | null;
  phase: string | null;
  pass_skipped: string | null;
  businesses_done: number;
  upstream_calls: number;
}

/**
 * What a pass skipped: a step the Portal does not offer (its document lists no such operation, or it refuses it
 * with 403/404) or one that failed. Skipping one never fails the pass; the complete pass names them.
 */
export class PassNotes {
  private readonly skipped = new Map<ReconcileStep, SkippedStep['why']>();
  constructor(earlier: readonly SkippedStep[] = []) {
    for (const s of earlier) this.skipped.set(s.step, s.why);
  }

  skip(step: ReconcileStep, why: SkippedStep['why'], error?: unknown) {
    if (why === 'failed' && !this.skipped.has(step)) {
      log.warn('read model reconcile skipped a step', { step, error: error instanceof Error ? error.message : String(error) });
    }
    if (this.skipped.get(step) !== 'failed') this.skipped.set(step, why);
  }

  list(): SkippedStep[] {
    return [...this.skipped].map(([step, why]) => ({ step, why }));
  }
}

/** A refusal that says the Portal (or this key) does not offer the operation, rather than that it failed. */
const notOffered = (e: unknown) => isPortalError(e) && e.fromUpstream && (e.status === 403 || e.status === 404);

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
 * pending suggestions), then every deal, the businesses of deals not known yet, and every project. Where the pass
 * is (its phase, and the business list cursor) is stored after each page, so a pass stopped by an error or a
 * restart resumes there; the optional steps (deal businesses, pending suggestions, projects) are skipped when
 * they cannot be done and named at the end. Rows the complete pass did not find (and nothing touched meanwhile)
 * are removed at its end, from each list it read in full.
 */
async function runPass(db: Db, concurrency: number): Promise<ReconcileResult> {
  const started = Date.now();
  const sync = await db.one<SyncRow>(
    'SELECT pass_id, pass_started_at, cursor, phase, pass_skipped, businesses_done, upstream_calls FROM workspace_sync WHERE name = $1',
    ['reconcile'],
  );
  const storedPhase: Phase = isPhase(sync?.phase ?? null) ? (sync!.phase as Phase) : 'businesses';
  const resumed = !!(sync?.pass_id && sync.pass_started_at && (sync.cursor || storedPhase !== 'businesses'));
  const pass = resumed ? sync!.pass_id! : newId('pass');
  const passStartedAt = resumed ? sync!.pass_started_at! : new Date(started);
  const notes = new PassNotes(resumed ? parseSkipped(sync!.pass_skipped) : []);
  // A pass that stopped keeps its id and place but has last_error set: clearing it says this one is running.
  if (resumed) await db.query('UPDATE workspace_sync SET last_error = NULL, updated_at = $2 WHERE name = $1', ['reconcile', new Date()]);
  else {
    await db.query(
      `UPDATE workspace_sync SET pass_id = $2, pass_started_at = $3, cursor = NULL, phase = 'businesses', pass_skipped = NULL, businesses_done = 0,
              upstream_calls = 0, last_error = NULL, updated_at = $3
        WHERE name = $1`,
      ['reconcile', pass, passStartedAt],
    );
  }
  const counter: CallCounter = { calls: 0 };
  let reported = 0;
  let phase: Phase = resumed ? storedPhase : 'businesses';
  let cursor = resumed && phase === 'businesses' ? sync!.cursor : null;
  const progress = async (done: number) => {
    await db.query(
      `UPDATE workspace_sync SET phase = $2, cursor = $3, businesses_done = businesses_done + $4, upstream_calls = upstream_calls + $5,
              pass_skipped = $6, updated_at = $7
        WHERE name = $1`,
      ['reconcile', phase, cursor, done, counter.calls - reported, JSON.stringify(notes.list()), new Date()],
    );
    reported = counter.calls;
  };
  const next = async (to: Phase) => {
    phase = to;
    cursor = null;
    await progress(0);
  };

  try {
    let businesses = 0;
    let deals: number | null = 0;
    let projects: number | null = 0;
    if (phase === 'businesses') {
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
        await eachBounded(page.items, concurrency, (b) => refreshBusiness(db, b.id, counter, pass, notes));
        businesses += page.items.length;
        cursor = page.next_cursor;
        await progress(page.items.length);
        if (!cursor) break;
      }
      await next('deals');
    }
    if (phase === 'deals') {
      deals = await reconcileDeals(db, counter, pass, notes);
      await next('deal_businesses');
    }
    if (phase === 'deal_businesses') {
      await learnDealBusinesses(db, counter, pass, concurrency, notes);
      await next('projects');
    }
    projects = await reconcileProjects(db, counter, pass, concurrency, notes);
    await syncInvitationState(db, null);
    // Rows this pass did not find are gone from the Portal, but only from the lists it read in full (in this or an
    // earlier attempt of the same pass): a skipped list says nothing about its rows.
    const skippedSteps = new Set(notes.list().map((s) => s.step));
    const complete = ['workspace_businesses', ...(skippedSteps.has('deals') ? [] : ['workspace_deals']), ...(skippedSteps.has('projects') ? [] : ['workspace_projects'])];
    for (const table of complete) {
      await db.query(`DELETE FROM ${table} WHERE seen_pass IS DISTINCT FROM $1 AND updated_at < $2`, [pass, passStartedAt]);
    }
    await db.query(
      `DELETE FROM workspace_suggestions s WHERE NOT EXISTS (SELECT 1 FROM workspace_businesses b WHERE b.application_id = s.application_id)`,
    );
    const total = (sync && resumed ? sync.upstream_calls : 0) + counter.calls;
    const durationMs = Date.now() - started;
    const skipped = notes.list();
    await db.query(
      `UPDATE workspace_sync SET pass_id = NULL, pass_started_at = NULL, cursor = NULL, phase = NULL, pass_skipped = NULL, last_completed_at = $2,
              last_duration_ms = $3, last_calls = $4, last_error = NULL, skipped = $5, updated_at = $2
        WHERE name = $1`,
      ['reconcile', new Date(), durationMs, total, JSON.stringify(skipped)],
    );
    return {
      pass,
      resumed,
      businesses: (resumed ? sync!.businesses_done : 0) + businesses,
      deals: deals ?? 0,
      projects: projects ?? 0,
      upstreamCalls: total,
      durationMs,
      skipped,
    };
  } catch (e) {
    // The phase and cursor stay: the next pass resumes after the last page that was finished.
    await progress(0).catch(() => undefined);
    const message = isPortalError(e) ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
    await db.query('UPDATE workspace_sync SET last_error = $2, updated_at = $3 WHERE name = $1', ['reconcile', message.slice(0, 500), new Date()]);
    throw e;
  }
}

/** Every deal; null when the Portal does not offer the list (the pass goes on without it). */
async function reconcileDeals(db: Db, counter: CallCounter, pass: string, notes: PassNotes): Promise<number | null> {
  if (!(await portalCapabilities()).has('GET', routes.deals())) {
    notes.skip('deals', 'not_offered');
    return null;
  }
  let cursor: string | null = null;
  let count = 0;
  const now = new Date();
  try {
    for (let n = 0; n < MAX_PAGES; n++) {
      const page = await listDealPage(counter, cursor);
      for (const d of page.items) await saveDeal(db, dealFacts(d, null), now, pass);
      count += page.items.length;
      cursor = page.next_cursor;
      if (!cursor) break;
    }
  } catch (e) {
    if (!notOffered(e)) throw e;
    notes.skip('deals', 'not_offered');
    return null;
  }
  return count;
}

/**
 * The business of each deal not known yet (a deal does not name it; the BFF learns it when a deal is made here or
 * from the Portal's events): the per-business deal lists are read until none is left unknown, most recently active
 * businesses first. Only where the Portal's deal list takes a business filter; otherwise, or when it fails, the
 * step is skipped and those deals show no business.
 */
async function learnDealBusinesses(db: Db, counter: CallCounter, pass: string, concurrency: number, notes: PassNotes): Promise<void> {
  const unknown = new Set(
    (await db.query<{ id: string }>('SELECT id FROM workspace_deals WHERE business_id IS NULL AND seen_pass = $1', [pass])).map((r) => r.id),
  );
  if (unknown.size === 0) return;
  if (!(await portalCapabilities()).accepts('GET', routes.deals(), 'business_id')) {
    notes.skip('deal_businesses', 'not_offered');
    return;
  }
  try {
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
  } catch (e) {
    notes.skip('deal_businesses', notOffered(e) ? 'not_offered' : 'failed', e);
  }
}

/** Every project (a project names its business), with the best fit of the matched ones; null when skipped. */
async function reconcileProjects(db: Db, counter: CallCounter, pass: string, concurrency: number, notes: PassNotes): Promise<number | null> {
  if (!(await portalCapabilities()).has('GET', routes.projects())) {
    notes.skip('projects', 'not_offered');
    return null;
  }
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
    notes.skip('projects', notOffered(e) ? 'not_offered' : 'failed', e);
    return null;
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
