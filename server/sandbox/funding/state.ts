import type { Sandbox } from '../sandbox';
import { CRITERIA_CONTRACT_VERSION, buildCriteriaContract } from '../seed/criteria-contract';
import { buildFunders } from '../seed/funders';
import type { State } from '../store/types';
import type { FunderProfile, FundingState } from './types';

/**
 * Simulated durations of a match run, in sandbox clock milliseconds: a run waits `runQueuedMs` in pending,
 * then screens funders in about twenty steps, each step taking `funderMs` per funder it screens.
 */
export interface MatchTiming {
  runQueuedMs: number;
  funderMs: number;
}

export const DEFAULT_MATCH_TIMING: MatchTiming = { runQueuedMs: 500, funderMs: 20 };

interface Timings {
  all: MatchTiming;
  /** One project's runs timed apart from the rest, so a test can slow its own runs without slowing anyone else's. */
  projects: Map<string, MatchTiming>;
}

const timings = new WeakMap<Sandbox, Timings>();
const timingsOf = (sb: Sandbox): Timings => timings.get(sb) ?? { all: DEFAULT_MATCH_TIMING, projects: new Map() };

/** Changes the match run durations of a sandbox, or of one project's runs only; unspecified ones keep their value. */
export function configureMatching(sb: Sandbox, timing: Partial<MatchTiming>, projectId?: string) {
  const t = timingsOf(sb);
  if (projectId === undefined) t.all = { ...t.all, ...timing };
  else t.projects.set(projectId, { ...(t.projects.get(projectId) ?? t.all), ...timing });
  timings.set(sb, t);
}

/** Forgets the per-project durations (a reset: those projects are gone). */
export function forgetProjectTimings(sb: Sandbox) {
  timings.get(sb)?.projects.clear();
}

/** The durations of a project's runs (its own when set, else the sandbox's). */
export function matchTiming(sb: Sandbox, projectId?: string): MatchTiming {
  const t = timingsOf(sb);
  return (projectId !== undefined ? t.projects.get(projectId) : undefined) ?? t.all;
}

export function matchTimingsView(sb: Sandbox) {
  const t = timingsOf(sb);
  const view = (m: MatchTiming) => ({ run_queued_ms: m.runQueuedMs, funder_ms: m.funderMs });
  return { object: 'sandbox_matching', ...view(t.all), projects: Object.fromEntries([...t.projects].map(([id, m]) => [id, view(m)])) };
}

/** The funding part of a new state: the seeded funders, no projects yet. */
export function emptyFundingState(funders: FunderProfile[]): FundingState {
  return { criteria_contract_version: CRITERIA_CONTRACT_VERSION, funders, generated: null, projects: {}, runs: {}, matches: {} };
}

/** Every funder is a recipient: adds the missing ones to the recipients list, in order. */
export function ensureFunderRecipients(state: State, funders: FunderProfile[]) {
  const known = new Set(state.recipients.map((r) => r.id));
  for (const f of funders) if (!known.has(f.recipient_id)) state.recipients.push({ id: f.recipient_id, name: f.name });
}

type ResumeHook = (sb: Sandbox, st: FundingState) => void;
let resumeHook: ResumeHook | null = null;
const resumed = new WeakSet<State>();

/** Set once by the runs module: carries on runs that were under way when the state was saved. */
export function setFundingResumeHook(hook: ResumeHook) {
  resumeHook = hook;
}

/**
 * The funding part of the sandbox's state. A data file written before projects existed gets it on first
 * use: the seeded funders (as recipients too) and the criteria contract.
 */
export function fundingState(sb: Sandbox): FundingState {
  const state = sb.state;
  if (!state.funding) {
    state.contracts[CRITERIA_CONTRACT_VERSION] ??= buildCriteriaContract();
    state.funding = emptyFundingState(buildFunders());
    ensureFunderRecipients(state, state.funding.funders);
    sb.changed();
  }
  if (!resumed.has(state)) {
    resumed.add(state);
    resumeHook?.(sb, state.funding);
  }
  return state.funding;
}
