import 'server-only';
import type { z } from 'zod';
import {
  ApplicationEnvelope,
  AutofillRunPage,
  AutofillSuggestionPage,
  BusinessPage,
  BusinessStatusResult,
  DealPage,
  FundingMatchPage,
  ParticipantList,
  ProjectPage,
  type Deal,
  type Project,
} from '@/lib/portal';
import type { ReconcileStep } from '@/lib/bff/workspace';
import { isPortalError, portalCapabilities, portalRequest, routes, type PortalPath, type PortalQuery } from '@/server/portal';
import { log } from '@/server/log';
import { learnStagesUrl } from '@/server/workflows/stages-urls';
import type { BusinessFacts, DealFacts, PendingFacts, ProjectFacts } from './store';

/** Where a reconcile pass hears of an optional step it skipped (reconcile.ts's PassNotes). */
export interface StepNotes {
  skip(step: ReconcileStep, why: 'not_offered' | 'failed', error?: unknown): void;
}

/** Upstream calls of one piece of work (a pass, a refresh), attempts included. */
export interface CallCounter {
  calls: number;
}

/** How often a read the client already retried on 429 is tried again after waiting Retry-After. */
const RATE_LIMIT_ROUNDS = 5;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One GET for the read model. The Portal client already waits out a short Retry-After; background work has
 * no one waiting, so a longer one is waited out here too (at least what the Portal asked), a few times over.
 */
async function get<S extends z.ZodType>(
  counter: CallCounter,
  target: { path: PortalPath } | { url: string },
  schema: S,
  query?: PortalQuery,
): Promise<z.output<S>> {
  for (let round = 1; ; round++) {
    try {
      const res = await portalRequest({ ...target, schema, query, background: true });
      counter.calls += res.attempts;
      return res.data;
    } catch (e) {
      counter.calls += 1;
      if (!isPortalError(e) || e.status !== 429 || round >= RATE_LIMIT_ROUNDS) throw e;
      await sleep(Math.max(1, e.retryAfter ?? 1) * 1000);
    }
  }
}

export const isNotFound = (e: unknown) => isPortalError(e) && e.status === 404;

export function listBusinessPage(counter: CallCounter, cursor: string | null, pageSize = 100) {
  return get(counter, { path: routes.businesses() }, BusinessPage, { page_size: pageSize, cursor });
}

// Upper bounds on pages walked for one object: only a misbehaving upstream reaches them.
const MAX_RUN_PAGES = 10;
const MAX_SUGGESTION_PAGES = 50;

/**
 * Pending suggestions of an application: counted over its completed runs' suggestions, oldest first. The status
 * filter goes upstream only where the Portal's document lists it; the count is made here either way.
 */
export async function readPending(counter: CallCounter, autofillRunsUrl: string): Promise<PendingFacts> {
  const capabilities = await portalCapabilities();
  let count = 0;
  let oldest: Date | null = null;
  let cursor: string | null = null;
  for (let n = 0; n < MAX_RUN_PAGES; n++) {
    const runs: z.output<typeof AutofillRunPage> = await get(counter, { url: autofillRunsUrl }, AutofillRunPage, { page_size: 100, cursor });
    for (const run of runs.items) {
      if (run.status !== 'completed' || run.suggestion_count === 0) continue;
      let sCursor: string | null = null;
      for (let m = 0; m < MAX_SUGGESTION_PAGES; m++) {
        const byStatus = capabilities.accepts('GET', run.suggestions_url, 'status') ? { status: 'pending' } : {};
        const page: z.output<typeof AutofillSuggestionPage> = await get(counter, { url: run.suggestions_url }, AutofillSuggestionPage, {
          page_size: 100,
          ...byStatus,
          cursor: sCursor,
        });
        for (const s of page.items) {
          if (s.status !== 'pending') continue;
          count += 1;
          const at = new Date(s.created_at);
          if (!oldest || at < oldest) oldest = at;
        }
        sCursor = page.next_cursor;
        if (!sCursor) break;
      }
    }
    cursor = runs.next_cursor;
    if (!cursor) break;
  }
  return { count, oldest };
}

/**
 * Everything the workspace shows of one business, read upstream; null when the Portal has no such business. The
 * pending suggestion count is optional: when it cannot be read, the row keeps the count it had (and `notes` hears).
 */
export async function readBusinessFacts(counter: CallCounter, businessId: string, notes?: StepNotes): Promise<BusinessFacts | null> {
  let status: BusinessStatusResult;
  let people: ParticipantList;
  try {
    [status, people] = await Promise.all([
      get(counter, { path: routes.businessStatus(businessId) }, BusinessStatusResult),
      get(counter, { path: routes.businessPeople(businessId) }, ParticipantList),
    ]);
  } catch (e) {
    if (isNotFound(e)) return null;
    throw e;
  }
  learnStagesUrl(status);
  const b = status.business;
  const contact = people.items.find((p) => p.is_primary) ?? people.items[0] ?? null;
  let application: BusinessFacts['application'] = null;
  let pending: PendingFacts | null = null;
  if (status.application) {
    const { application: app } = await get(counter, { url: status.application.url }, ApplicationEnvelope);
    application = {
      id: app.id,
      statusKey: app.status?.key ?? null,
      statusLabel: app.status?.label ?? null,
      progressPercent: app.progress?.percent ?? null,
      answersRevision: app.answers_revision,
      submittedAt: app.submitted_at ? new Date(app.submitted_at) : null,
      updatedAt: new Date(app.updated_at),
    };
    try {
      pending = await readPending(counter, app.autofill_runs_url);
    } catch (e) {
      // Optional: the row keeps the count it had.
      const why = isPortalError(e) && e.fromUpstream && (e.status === 403 || e.status === 404) ? 'not_offered' : 'failed';
      if (notes) notes.skip('pending_suggestions', why, e);
      else log.warn('read model: pending suggestions not read', { business_id: businessId, error: e instanceof Error ? e.message : String(e) });
    }
  }
  return {
    id: b.id,
    name: b.name,
    contactName: contact?.full_name || null,
    contactEmail: contact?.email || null,
    pipeline: b.workflow.pipeline,
    stage: b.workflow.stage,
    revision: b.revision,
    isSample: b.is_sample ?? false,
    statusUpdatedAt: new Date(b.status.updated_at),
    application,
    pending,
  };
}

const nameOf = (o: Record<string, unknown> | null) => (o && typeof o.name === 'string' ? o.name : null);
const idOf = (o: Record<string, unknown> | null) => (o && typeof o.id === 'string' ? o.id : null);

export function dealFacts(d: Deal, businessId: string | null): DealFacts {
  return {
    id: d.id,
    businessId,
    name: d.name,
    recipientName: nameOf(d.recipient),
    pipelineId: d.workflow.pipeline.id,
    stage: d.workflow.stage,
    status: d.status,
    projectId: idOf(d.project),
    isSample: d.is_sample ?? false,
    createdAt: new Date(d.created_at),
  };
}

export function listDealPage(counter: CallCounter, cursor: string | null, businessId?: string) {
  return get(counter, { path: routes.deals() }, DealPage, { page_size: 100, cursor, business_id: businessId });
}

export function listProjectPage(counter: CallCounter, cursor: string | null) {
  return get(counter, { path: routes.projects() }, ProjectPage, { page_size: 100, cursor });
}

/** A project, with its best match (the first of the latest completed run's, best first) when it has been matched. */
export async function projectFacts(counter: CallCounter, p: Project): Promise<ProjectFacts> {
  const base = { id: p.id, businessId: p.business.id, name: p.name, status: p.status, createdAt: new Date(p.created_at) };
  if (p.status !== 'matched') return { ...base, best: null };
  const matches = await get(counter, { url: p.matches_url }, FundingMatchPage, { page_size: 1 });
  const top = matches.items[0];
  return { ...base, best: top ? { fit: top.fit, score: top.score, matchCount: matches.next_cursor ? null : matches.items.length } : null };
}
