import 'server-only';
import { ApplicationEnvelope, Deal } from '@/lib/portal';
import { appDb } from '@/server/db/app-db';
import type { Db } from '@/server/db/types';
import { log } from '@/server/log';
import { portalRequest, routes } from '@/server/portal';
import { businessOfApplication, forgetBusiness, saveBusiness, saveDeal } from './store';
import { dealFacts, isNotFound, readBusinessFacts, type CallCounter, type StepNotes } from './upstream';

/** Reads one business upstream and writes its row (or removes it when the Portal no longer has it). */
export async function refreshBusiness(db: Db, businessId: string, counter: CallCounter, pass: string | null = null, notes?: StepNotes): Promise<void> {
  const facts = await readBusinessFacts(counter, businessId, notes);
  if (facts) await saveBusiness(db, facts, new Date(), pass);
  else await forgetBusiness(db, businessId);
}

/** The business of an application: the row's, else the application's own read. */
export async function findBusinessOfApplication(db: Db, applicationId: string, counter: CallCounter): Promise<string | null> {
  const known = await businessOfApplication(db, applicationId);
  if (known) return known;
  try {
    const res = await portalRequest({ path: routes.application(applicationId), schema: ApplicationEnvelope, background: true });
    counter.calls += res.attempts;
    return res.data.application.business.id;
  } catch {
    return null;
  }
}

// Several events about one business in a burst (answers saved every few seconds) cost one read after the burst.
const CONCURRENCY = 4;
/** A burst that never pauses (a long import, a script) is still read this often. */
const MAX_BURST_WAIT_MS = 5_000;

/** What a write or an event asks to be re-read from the Portal. */
export interface RefreshTarget {
  businessId?: string | null;
  applicationId?: string | null;
  /** A deal to read, with the business it was made for when known. */
  deal?: { id: string; businessId: string | null };
}

async function refreshDeal(db: Db, deal: { id: string; businessId: string | null }, counter: CallCounter) {
  try {
    const res = await portalRequest({ path: routes.deal(deal.id), schema: Deal, background: true });
    counter.calls += res.attempts;
    await saveDeal(db, dealFacts(res.data, deal.businessId), new Date());
  } catch (e) {
    if (isNotFound(e)) await db.query('DELETE FROM workspace_deals WHERE id = $1', [deal.id]);
    else throw e;
  }
}

/**
 * Refreshes rows in the background, after the write or event that made them stale: coalesced per business
 * (a business queued again while it waits is read once), a few at a time. Failures are logged; the next
 * reconcile pass repairs what they left.
 */
export class RefreshQueue {
  /** What waits, and from when it may run (a burst of writes to one application is read once after it). */
  private readonly waiting = new Map<string, { target: RefreshTarget; due: number; since: number }>();
  private running = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = 0;
  private idle: Array<() => void> = [];

  constructor(private readonly refresh: (target: RefreshTarget) => Promise<void>) {}

  add(target: RefreshTarget, delayMs = 0) {
    const key = target.deal ? `deal:${target.deal.id}` : (target.businessId ?? (target.applicationId ? `app:${target.applicationId}` : null));
    if (!key) return;
    const now = Date.now();
    const seen = this.waiting.get(key);
    if (seen) {
      // The burst goes on: its one read moves to its end, but never past MAX_BURST_WAIT_MS after its start.
      if (delayMs > 0) seen.due = Math.max(seen.due, Math.min(now + delayMs, seen.since + MAX_BURST_WAIT_MS));
      return;
    }
    this.waiting.set(key, { target, due: now + delayMs, since: now });
    if (delayMs > 0) this.arm(now + delayMs);
    else this.pump();
  }

  /** One timer, for the earliest read that is due later. */
  private arm(at: number) {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.pump();
    }, Math.max(0, at - Date.now()));
    this.timer.unref?.();
  }

  /** Resolves once nothing is waiting or running (tests, shutdown). */
  settled(): Promise<void> {
    if (this.running === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private pump() {
    const now = Date.now();
    let next = Infinity;
    for (const [key, { target, due }] of this.waiting) {
      if (this.running >= CONCURRENCY) break;
      if (due > now) {
        next = Math.min(next, due);
        continue;
      }
      this.waiting.delete(key);
      this.running += 1;
      void this.run(target).finally(() => {
        this.running -= 1;
        this.pump();
        if (this.running === 0 && this.waiting.size === 0) for (const done of this.idle.splice(0)) done();
      });
    }
    if (next !== Infinity) this.arm(next);
  }

  private async run(target: RefreshTarget) {
    try {
      await this.refresh(target);
    } catch (e) {
      log.warn('read model refresh failed', { business_id: target.businessId ?? null, application_id: target.applicationId ?? null, error: String(e) });
    }
  }
}

/** Reads what one target names from the Portal and writes its rows. */
async function refreshTarget(db: Db, target: RefreshTarget) {
  const counter = { calls: 0 };
  if (target.deal) return refreshDeal(db, target.deal, counter);
  const businessId = target.businessId ?? (target.applicationId ? await findBusinessOfApplication(db, target.applicationId, counter) : null);
  if (businessId) await refreshBusiness(db, businessId, counter);
}

let queue: RefreshQueue | null = null;

/** The process's refresh queue, on the app's database. */
export function refreshQueue(): RefreshQueue {
  queue ??= new RefreshQueue(async (target) => refreshTarget(await appDb(), target));
  return queue;
}

/** Queues re-reads of what a write or an event made stale. */
export function queueRefresh(targets: readonly RefreshTarget[], delayMs = 0): void {
  for (const t of targets) refreshQueue().add(t, delayMs);
}
