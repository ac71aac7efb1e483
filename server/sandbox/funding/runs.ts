import type { Fit, MatchRun, MatchRunCompletedEventData, MatchRunFailedEventData, MatchRunProgressEventData } from '@/lib/portal';
import { versionEtag } from '../http/etag';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq } from '../store/ids';
import type { ApplicationRec, State } from '../store/types';
import { setStatus, snapshotOf } from './projects';
import { compareScreened, factsOf, screenFunder } from './rules';
import { fundingState, matchTiming, setFundingResumeHook } from './state';
import type { CriteriaSnapshot, FunderProfile, MatchRec, MatchRunRec, ProjectRec, ScreenedProduct } from './types';

/*
 * Match runs (DESIGN.md §6), like Autofill runs: pending ("queued") → running, screening funders in about
 * twenty steps on the sandbox clock (progress units = funders screened) → completed, with the ranked matches,
 * or failed, with a failure {code, message}. A retry of the project's latest run, when it failed, is a new
 * attempt of the same run (attempt_sequence + 1) that reads the criteria and the funders again.
 *
 * While it runs it sends `match_run.progress` events, at most one a second, besides `match_run.completed` and
 * `match_run.failed` at the end.
 *
 * Failure trigger: a criteria text answer containing FAIL_TRIGGER makes the run fail once half the funders
 * are screened (every attempt, until the answer no longer contains it).
 */
export const FAIL_TRIGGER = '[[fail]]';

/** About this many progress steps per run, whatever the number of funders. */
const STEPS = 20;

/**
 * A running attempt announces its progress at most this often, in real time whatever the clock's speed: the
 * receivers are real servers, and a sped-up clock must not flood them.
 */
export const PROGRESS_EVERY_MS = 1_000;
/** When each run last announced its progress (real time); forgotten when an attempt starts. */
const lastProgress = new WeakMap<MatchRunRec, number>();

export const runEtag = (r: MatchRunRec) => versionEtag('mrun', r.id, r.version);

/** A run can be retried when it failed and is still its project's latest run. */
export function canRetry(sb: Sandbox, r: MatchRunRec) {
  return r.status === 'failed' && fundingState(sb).projects[r.project_id]?.latest_run_id === r.id;
}

export function runView(sb: Sandbox, r: MatchRunRec): MatchRun {
  return {
    id: r.id,
    object: 'match_run',
    project: { id: r.project_id, object: 'project' },
    status: r.status,
    progress: { step: r.step, completed_units: r.completed_units, total_units: r.total_units },
    match_count: r.match_count,
    can_retry: canRetry(sb, r),
    attempt_sequence: r.attempt_sequence,
    failure: r.failure,
    created_at: r.created_at,
    updated_at: r.updated_at,
    url: sb.urls.matchRun(r.id),
    matches_url: sb.urls.matchRunMatches(r.id),
    retry_url: sb.urls.matchRunRetry(r.id),
  };
}

/** A run or an attempt in progress blocks another start. */
export function runInProgress(sb: Sandbox, p: ProjectRec): MatchRunRec | undefined {
  const latest = p.latest_run_id ? fundingState(sb).runs[p.latest_run_id] : undefined;
  return latest && (latest.status === 'pending' || latest.status === 'running') ? latest : undefined;
}

const carriesTrigger = (snapshot: CriteriaSnapshot) =>
  Object.values(snapshot.answers).some((v) =>
    typeof v === 'string' ? v.includes(FAIL_TRIGGER) : Array.isArray(v) && v.some((x) => typeof x === 'string' && x.includes(FAIL_TRIGGER)),
  );

const batchOf = (r: MatchRunRec) => Math.max(1, Math.ceil(r.total_units / STEPS));

/** Ranked matches of a set of funders for a snapshot (the whole screening at once; the seed uses it). */
export function screenAll(funders: readonly FunderProfile[], snapshot: CriteriaSnapshot): ScreenedProduct[] {
  const facts = factsOf(snapshot);
  return funders.flatMap((f) => screenFunder(f, facts)).sort(compareScreened);
}

/**
 * Stores a completed run's matches in rank order. A funder's product that the project's previous completed
 * run matched keeps its decision and deal.
 */
export function storeMatches(state: State, run: MatchRunRec, p: ProjectRec, ranked: ScreenedProduct[], now: string) {
  const st = state.funding!;
  const previous = p.latest_completed_run_id ? st.runs[p.latest_completed_run_id] : undefined;
  const carried = new Map<string, MatchRec>();
  for (const id of previous?.match_ids ?? []) {
    const m = st.matches[id];
    if (m) carried.set(`${m.recipient_id}|${m.product_key}`, m);
  }
  run.match_ids = ranked.map((s, i) => {
    const before = carried.get(`${s.recipient_id}|${s.product_key}`);
    const m: MatchRec = {
      ...s,
      id: newId(state, 'match'),
      run_id: run.id,
      project_id: p.id,
      rank: i + 1,
      decision: before?.decision ?? 'none',
      deal_id: before?.deal_id ?? null,
      revision: 0,
      created_at: now,
      updated_at: now,
    };
    st.matches[m.id] = m;
    return m.id;
  });
  run.match_count = run.match_ids.length;
  p.latest_completed_run_id = run.id;
}

function changed(sb: Sandbox, run: MatchRunRec) {
  run.version += 1;
  run.updated_at = sb.now();
  sb.changed();
}

function schedule(sb: Sandbox, run: MatchRunRec, ms: number) {
  const { id, attempt_sequence: attempt } = run;
  const state = sb.state;
  sb.clock.after(ms, () => {
    // A timer from an earlier attempt, or from before a reset, finds nothing to do.
    if (sb.state === state) tick(sb, id, attempt);
  });
}

function fitCounts(sb: Sandbox, run: MatchRunRec) {
  const counts: Record<Fit, number> = { strong: 0, good: 0, possible: 0, unlikely: 0 };
  for (const id of run.match_ids) {
    const m = fundingState(sb).matches[id];
    if (m) counts[m.fit] += 1;
  }
  return counts;
}

/** The progress event of a running attempt, unless one went out less than PROGRESS_EVERY_MS ago. */
function announceProgress(sb: Sandbox, run: MatchRunRec, p: ProjectRec) {
  const now = Date.now();
  const last = lastProgress.get(run);
  if (last !== undefined && now - last < PROGRESS_EVERY_MS) return;
  lastProgress.set(run, now);
  const data: MatchRunProgressEventData = {
    run_id: run.id,
    project_id: p.id,
    business_id: p.business_id,
    status: run.status,
    attempt_sequence: run.attempt_sequence,
    progress: { step: run.step, completed_units: run.completed_units, total_units: run.total_units },
  };
  sb.events.publish('match_run.progress', data);
}

function complete(sb: Sandbox, run: MatchRunRec, p: ProjectRec) {
  storeMatches(sb.state, run, p, run.screened.sort(compareScreened), sb.now());
  run.status = 'completed';
  run.step = 'completed';
  run.completed_units = run.total_units;
  run.screened = [];
  changed(sb, run);
  setStatus(sb, p, 'matched');
  const best = run.match_ids[0] ? fundingState(sb).matches[run.match_ids[0]] : undefined;
  const data: MatchRunCompletedEventData = {
    run_id: run.id,
    project_id: p.id,
    business_id: p.business_id,
    match_count: run.match_count,
    fit_counts: fitCounts(sb, run),
    best: best ? { match_id: best.id, recipient_id: best.recipient_id, score: best.score, fit: best.fit } : null,
  };
  sb.events.publish('match_run.completed', data);
}

function fail(sb: Sandbox, run: MatchRunRec, p: ProjectRec, code: string, message: string) {
  run.status = 'failed';
  run.step = 'failed';
  run.failure = { code, message };
  run.screened = [];
  changed(sb, run);
  setStatus(sb, p, p.latest_completed_run_id ? 'matched' : 'draft');
  const data: MatchRunFailedEventData = {
    run_id: run.id,
    project_id: p.id,
    business_id: p.business_id,
    failure: { code, message },
    can_retry: canRetry(sb, run),
  };
  sb.events.publish('match_run.failed', data);
}

/** One step of a run's attempt: pending → running, or the next batch of funders screened. */
function tick(sb: Sandbox, runId: string, attempt: number) {
  const st = fundingState(sb);
  const run = st.runs[runId];
  const p = run && st.projects[run.project_id];
  if (!run || !p || run.attempt_sequence !== attempt) return;
  const unitMs = matchTiming(sb, p.id).funderMs;
  if (run.status === 'pending') {
    run.status = 'running';
    run.step = 'screening_funders';
    changed(sb, run);
    announceProgress(sb, run, p);
    schedule(sb, run, Math.min(batchOf(run), run.total_units) * unitMs);
    return;
  }
  if (run.status !== 'running') return;
  const from = run.completed_units;
  let to = Math.min(run.total_units, from + batchOf(run));
  const failAt = carriesTrigger(run.snapshot) ? Math.floor(run.total_units / 2) : -1;
  const failing = failAt >= from && failAt < to;
  if (failing) to = failAt;
  const byId = new Map(st.funders.map((f) => [f.recipient_id, f]));
  const facts = factsOf(run.snapshot);
  for (const id of run.funder_ids.slice(from, to)) {
    const f = byId.get(id); // a generated funder removed since the start is skipped
    if (f) run.screened.push(...screenFunder(f, facts));
  }
  run.completed_units = to;
  if (failing) {
    fail(
      sb,
      run,
      p,
      'matching_failed',
      `Matching failed after screening ${to} of ${run.total_units} funders: the criteria contain the sandbox's failure trigger ${FAIL_TRIGGER}. Remove it and retry the run.`,
    );
    return;
  }
  if (run.completed_units >= run.total_units) {
    complete(sb, run, p);
    return;
  }
  changed(sb, run);
  announceProgress(sb, run, p);
  schedule(sb, run, Math.min(batchOf(run), run.total_units - run.completed_units) * unitMs);
}

/** Points an attempt at the criteria and funders as they are now. */
function readInputs(sb: Sandbox, run: MatchRunRec, criteria: ApplicationRec) {
  const st = fundingState(sb);
  run.criteria_revision = criteria.revision;
  run.criteria_answers_revision = criteria.answers_revision;
  run.snapshot = snapshotOf(sb.state, criteria, sb.now());
  run.funder_ids = st.funders.map((f) => f.recipient_id);
  run.total_units = run.funder_ids.length;
  run.completed_units = 0;
  run.screened = [];
  lastProgress.delete(run);
}

/** Creates a run (pending) for the criteria as they are now, and schedules it. */
export function startRun(sb: Sandbox, p: ProjectRec, criteria: ApplicationRec): MatchRunRec {
  const now = sb.now();
  const run: MatchRunRec = {
    id: newId(sb.state, 'matchRun'),
    seq: nextSeq(sb.state),
    project_id: p.id,
    status: 'pending',
    step: 'queued',
    completed_units: 0,
    total_units: 0,
    attempt_sequence: 1,
    failure: null,
    match_count: 0,
    criteria_revision: 0,
    criteria_answers_revision: 0,
    snapshot: { answers: {}, intake_files: [], as_of: now.slice(0, 10) },
    funder_ids: [],
    screened: [],
    match_ids: [],
    version: 1,
    created_at: now,
    updated_at: now,
  };
  readInputs(sb, run, criteria);
  fundingState(sb).runs[run.id] = run;
  p.latest_run_id = run.id;
  setStatus(sb, p, 'matching');
  sb.changed();
  schedule(sb, run, matchTiming(sb, p.id).runQueuedMs);
  return run;
}

/** A new attempt of a failed run: same id, attempt_sequence + 1, from the start with the current criteria. */
export function retryRun(sb: Sandbox, run: MatchRunRec, p: ProjectRec, criteria: ApplicationRec) {
  run.attempt_sequence += 1;
  run.status = 'pending';
  run.step = 'queued';
  run.failure = null;
  readInputs(sb, run, criteria);
  changed(sb, run);
  setStatus(sb, p, 'matching');
  schedule(sb, run, matchTiming(sb, p.id).runQueuedMs);
}

/* After a restart from the data file, runs that were under way carry on. */
setFundingResumeHook((sb, st) => {
  for (const run of Object.values(st.runs)) {
    const timing = matchTiming(sb, run.project_id);
    if (run.status === 'pending') schedule(sb, run, timing.runQueuedMs);
    else if (run.status === 'running') schedule(sb, run, batchOf(run) * timing.funderMs);
  }
});
