import { randomBytes } from 'node:crypto';
import type { Sandbox } from '../sandbox';
import type { State } from '../store/types';
import type { ApplicationAutofill, AutofillState, PreparationRec } from './types';

/**
 * Simulated durations of Autofill's work, in sandbox clock milliseconds (tests speed the clock up rather
 * than changing these). A run has one unit per evidence source read, one per contract section matched, and
 * one to draft the suggestions; thinking mode spends longer on each.
 */
interface AutofillTiming {
  /** A file waits this long in `pending` before it is read. */
  filePendingMs: number;
  /** Reading a file (`running`) takes this long. */
  fileReadingMs: number;
  /** A run waits this long in `pending` before it starts. */
  runQueuedMs: number;
  /** One unit of a run's progress. */
  runUnitMs: { fast: number; thinking: number };
}

export const DEFAULT_AUTOFILL_TIMING: AutofillTiming = {
  filePendingMs: 1_500,
  fileReadingMs: 2_000,
  runQueuedMs: 500,
  runUnitMs: { fast: 400, thinking: 1_200 },
};

const timings = new WeakMap<Sandbox, AutofillTiming>();

/** Changes a sandbox's Autofill durations (for tests and demos); unspecified ones keep their value. */
export function configureAutofill(sb: Sandbox, timing: Partial<AutofillTiming>) {
  timings.set(sb, { ...autofillTiming(sb), ...timing });
}

export const autofillTiming = (sb: Sandbox): AutofillTiming => timings.get(sb) ?? DEFAULT_AUTOFILL_TIMING;

/** Evidence source ids: `afev_` + the state's sequence + random characters; the text input is `afev_text`. */
export const TEXT_SOURCE_ID = 'afev_text';
export function newEvidenceId(state: State) {
  state.seq += 1;
  return `afev_${state.seq.toString(36)}${randomBytes(4).readUInt32BE(0).toString(36)}`;
}

type ResumeHook = (sb: Sandbox, st: AutofillState) => void;
let resumeHook: ResumeHook | null = null;
const resumed = new WeakSet<State>();

/** Set once by the Autofill module: restarts simulated work that was under way when the state was saved. */
export function setResumeHook(hook: ResumeHook) {
  resumeHook = hook;
}

/** The Autofill part of the sandbox's state, created on first use. */
export function autofillState(sb: Sandbox): AutofillState {
  const state = sb.state;
  const st = (state.autofill ??= { applications: {}, uploads: {} });
  if (!resumed.has(state)) {
    resumed.add(state);
    resumeHook?.(sb, st);
  }
  return st;
}

function newPreparation(appId: string, now: string): PreparationRec {
  return {
    application_id: appId,
    revision: 1,
    text_input: null,
    ai_mode: 'fast',
    text_updated_at: now,
    files: [],
    signature: '',
    created_at: now,
    updated_at: now,
  };
}

/** An application's Autofill records; its preparation is created on first use with revision 1. */
export function autofillOf(sb: Sandbox, appId: string): ApplicationAutofill {
  const st = autofillState(sb);
  let a = st.applications[appId];
  if (!a) {
    a = { preparation: newPreparation(appId, sb.now()), runs: {}, suggestions: {} };
    st.applications[appId] = a;
  }
  return a;
}

/** The records of an application if it has any (timers use it: after a reset they find nothing). */
export const existingAutofillOf = (sb: Sandbox, appId: string): ApplicationAutofill | undefined =>
  autofillState(sb).applications[appId];
