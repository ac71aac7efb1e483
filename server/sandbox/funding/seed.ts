import type { SeedFunding, SeedMatchRun } from '../seed/types';
import type { ApplicationRec, State } from '../store/types';
import { newProject, snapshotOf } from './projects';
import { screenAll, storeMatches } from './runs';
import { emptyFundingState } from './state';
import type { MatchRunRec, ProjectRec } from './types';

/** A seeded run, worked out at once with the same rules a live run uses. */
function seedRun(state: State, p: ProjectRec, criteria: ApplicationRec, seeded: SeedMatchRun, at: string) {
  const st = state.funding!;
  const snapshot = snapshotOf(state, criteria, at);
  const total = st.funders.length;
  const run: MatchRunRec = {
    id: seeded.id,
    seq: ++state.seq,
    project_id: p.id,
    status: seeded.outcome,
    step: seeded.outcome,
    completed_units: seeded.outcome === 'completed' ? total : Math.floor(total / 2),
    total_units: total,
    attempt_sequence: 1,
    failure: seeded.outcome === 'failed' ? { ...seeded.failure } : null,
    match_count: 0,
    criteria_revision: criteria.revision,
    criteria_answers_revision: criteria.answers_revision,
    snapshot,
    funder_ids: st.funders.map((f) => f.recipient_id),
    screened: [],
    match_ids: [],
    version: 3,
    created_at: at,
    updated_at: at,
  };
  st.runs[run.id] = run;
  p.latest_run_id = run.id;
  // draft → matching → matched (or back to draft when the run failed)
  p.revision = 2;
  p.updated_at = at;
  if (seeded.outcome === 'failed') return;
  storeMatches(state, run, p, screenAll(st.funders, snapshot), at);
  p.status = 'matched';
  for (const id of run.match_ids) {
    const m = st.matches[id]!;
    const key = `${m.recipient_id}|${m.product_key}`;
    const decision = seeded.shortlisted.includes(key) ? 'shortlisted' : seeded.dismissed.includes(key) ? 'dismissed' : null;
    if (decision) {
      m.decision = decision;
      m.revision = 1;
    }
  }
}

/** The funding part of a new state: the seeded funders, and the seeded projects whose business is in the state. */
export function seedFunding(state: State, seed: SeedFunding, now: Date) {
  state.funding = emptyFundingState(seed.funders);
  const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
  const ordered = [...seed.projects].sort((a, b) => b.created_minutes_ago - a.created_minutes_ago);
  for (const sp of ordered) {
    if (!state.businesses[sp.business_id]) continue; // an 'empty' seed keeps no businesses, so no projects either
    const created = at(sp.created_minutes_ago);
    const p = newProject(state, { id: sp.id, criteria_id: sp.criteria_id, business_id: sp.business_id, name: sp.name }, created);
    const criteria = state.applications[p.criteria_id]!;
    if (sp.answers.length > 0) {
      for (const a of sp.answers) criteria.answers[`${a.block_key}|${a.schema_key}|${a.field_key}`] = a.value;
      criteria.revision += 1;
      criteria.answers_revision += 1;
      criteria.answers_updated_at = created;
    }
    if (sp.run) seedRun(state, p, criteria, sp.run, at(sp.run.minutes_ago));
  }
}
