import 'server-only';
import type { ApplicationView } from '@/lib/bff/applications';
import type { BestMatchView, MatchRunView, MatchView, ProjectView } from '@/lib/bff/projects';
import { fundingMatchEtag, type FundingMatch, type MatchRun, type Project, type ProjectCriteria } from '@/lib/portal';

/** Upstream projects, runs and matches turned into what the browser gets: no Portal URL leaves the server. */

export function projectView(p: Project): ProjectView {
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    revision: p.revision,
    business: { id: p.business.id, name: p.business.name },
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

/**
 * The criteria in the shape of an intake application's view (kind 'criteria'), so one form serves them.
 * `revision` is what a match run quotes; `prefilled_answers` the answers still holding the value copied
 * from the intake application.
 */
export function criteriaView(c: ProjectCriteria, etag: string): ApplicationView {
  return {
    id: c.id,
    kind: 'criteria',
    business: null,
    status: null,
    progress: null,
    submitted_at: null,
    updated_at: c.updated_at,
    revision: c.revision,
    answers_revision: c.answers_revision,
    etag,
    prefilled_answers: c.prefilled_from?.answers ?? [],
  };
}

export function runView(r: MatchRun): MatchRunView {
  return {
    id: r.id,
    status: r.status,
    progress: r.progress,
    match_count: r.match_count,
    can_retry: r.can_retry,
    attempt_sequence: r.attempt_sequence,
    failure: r.failure,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the browser quotes in If-Match to decide on a match: the match's ETag, which its revision gives (DESIGN.md §6). */
export const matchTag = (m: Pick<FundingMatch, 'revision'>) => fundingMatchEtag(m.revision);

export function matchView(m: FundingMatch): MatchView {
  return {
    id: m.id,
    revision: m.revision,
    etag: matchTag(m),
    run_id: m.run.id,
    recipient: { id: m.recipient.id, name: m.recipient.name },
    product: m.product,
    score: m.score,
    fit: m.fit,
    amount_range: m.amount_range,
    rate_range: m.rate_range,
    term_months: m.term_months,
    criteria: m.criteria,
    documents: m.documents,
    decision: m.decision,
    deal: m.deal ? { id: m.deal.id } : null,
    stale: m.stale,
  };
}

export const bestMatchView = (m: FundingMatch): BestMatchView => ({
  recipient: m.recipient.name,
  product: m.product.name,
  fit: m.fit,
  score: m.score,
  stale: m.stale,
});
