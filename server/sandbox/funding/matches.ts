import { fundingMatchEtag, type Fit, type FundingMatch, type MatchDecision, type ProductKind } from '@/lib/portal';
import { SandboxError, notFound } from '../http/errors';
import type { Sandbox } from '../sandbox';
import { fundingState } from './state';
import type { MatchRec, MatchRunRec } from './types';

/*
 * Matches (DESIGN.md §6): a completed run's ranked products. A match is stale when the project's criteria
 * answers changed after its run read them; its decision (none, shortlisted, dismissed) and deal are the
 * only things that change on a match itself.
 */

export function matchOf(sb: Sandbox, id: string): MatchRec {
  const m = fundingState(sb).matches[id];
  if (!m) throw notFound('match');
  return m;
}

/** Whether a run's matches are stale: the criteria's answers_revision moved since the run read it. */
export function runIsStale(sb: Sandbox, run: MatchRunRec): boolean {
  const p = fundingState(sb).projects[run.project_id];
  const criteria = p && sb.state.applications[p.criteria_id];
  return !!criteria && criteria.answers_revision !== run.criteria_answers_revision;
}

export function isStale(sb: Sandbox, m: MatchRec): boolean {
  const run = fundingState(sb).runs[m.run_id];
  return !!run && runIsStale(sb, run);
}

/**
 * The ETag follows the revision alone (DESIGN.md §6), so the revision a page shows is a valid If-Match. Going
 * stale does not move it: staleness is the run's, not a change of the match, and a decision on a stale match
 * is still the person's to make (the reply says it is stale).
 */
export const matchEtag = (m: MatchRec) => fundingMatchEtag(m.revision);

export function matchView(sb: Sandbox, m: MatchRec, stale: boolean): FundingMatch {
  return {
    id: m.id,
    object: 'funding_match',
    revision: m.revision,
    run: { id: m.run_id, object: 'match_run' },
    recipient: { id: m.recipient_id, object: 'recipient', name: m.recipient_name },
    product: { ...m.product },
    score: m.score,
    fit: m.fit,
    amount_range: { ...m.amount_range },
    rate_range: m.rate_range && { ...m.rate_range },
    term_months: m.term_months && { ...m.term_months },
    criteria: m.criteria.map((c) => ({ ...c })),
    documents: m.documents.map((d) => ({ ...d })),
    decision: m.decision,
    deal: m.deal_id ? { id: m.deal_id, object: 'deal', url: sb.urls.deal(m.deal_id) } : null,
    stale,
    created_at: m.created_at,
    updated_at: m.updated_at,
    url: sb.urls.match(m.id),
  };
}

/** A run's matches in rank order, filtered by fit and product kind. */
export function runMatches(sb: Sandbox, run: MatchRunRec, filter: { fit?: Fit; product_kind?: ProductKind }): MatchRec[] {
  const all = fundingState(sb).matches;
  const out: MatchRec[] = [];
  for (const id of run.match_ids) {
    const m = all[id];
    if (!m) continue;
    if (filter.fit !== undefined && m.fit !== filter.fit) continue;
    if (filter.product_kind !== undefined && m.product.kind !== filter.product_kind) continue;
    out.push(m);
  }
  return out;
}

/** Shortlists or dismisses a match (409 when it already has that decision, or when a dismissed one would lose its deal). */
export function decide(sb: Sandbox, m: MatchRec, decision: Exclude<MatchDecision, 'none'>) {
  if (m.decision === decision) {
    throw new SandboxError('conflict', `The match is already ${decision}.`, [{ code: 'same_decision', message: `decision is ${decision}.` }]);
  }
  if (decision === 'dismissed' && m.deal_id) {
    throw new SandboxError('conflict', `A deal (${m.deal_id}) was made for this match, so it cannot be dismissed.`, [
      { code: 'match_has_deal', message: 'Matches with a deal stay shortlisted.' },
    ]);
  }
  m.decision = decision;
  m.revision += 1;
  m.updated_at = sb.now();
  sb.changed();
}
