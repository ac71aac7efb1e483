import type { AutofillRun } from '@/lib/portal';
import type { Reply } from '../http/context';
import { versionEtag } from '../http/etag';
import type { Sandbox } from '../sandbox';
import { newId, nextSeq } from '../store/ids';
import type { ApplicationRec } from '../store/types';
import { proposeAnswers } from './engine';
import { readSource, scheduleReading, touchPreparation } from './preparation';
import { autofillTiming, existingAutofillOf, setResumeHook } from './state';
import { targetsFor } from './targets';
import type { AiModeValue, ApplicationAutofill, RunRec, SuggestionRec } from './types';

/**
 * Runs: pending ("queued") → running, one unit of progress at a time on the sandbox clock (reading each
 * selected evidence source, matching each contract section, drafting the suggestions) → completed, with the
 * engine's suggestions, or failed, with a failure {code, message} and can_retry. A retry is a new attempt of
 * the same run (same id, attempt_sequence + 1) that reads the evidence again.
 */

/** The sandbox's failure trigger: text input containing it makes the run fail while reading it. */
export const FAIL_TRIGGER = '[[fail]]';

const runEtag = (r: RunRec) => versionEtag('afrun', r.id, r.version);

/** A run as a reply, with its ETag; a 201 (the run was just started) also names it in Location. */
export function runReply(sb: Sandbox, r: RunRec, status = 200): Reply {
  const body = runView(sb, r);
  return { status, headers: { ETag: runEtag(r), ...(status === 201 ? { Location: body.url } : {}) }, body };
}

/** Units of a run: one per evidence source, one per contract section, one to draft suggestions. */
export function planRun(sourceCount: number, sectionCount: number) {
  return { reading: sourceCount, matching: sectionCount, drafting: 1, total: sourceCount + sectionCount + 1 };
}

export function stepAt(run: RunRec, completed: number) {
  const reading = run.source_ids.length;
  if (completed < reading) return 'reading_evidence';
  if (completed < run.total_units - 1) return 'matching_fields';
  return 'drafting_suggestions';
}

export function runView(sb: Sandbox, r: RunRec): AutofillRun {
  const appId = r.application_id;
  return {
    id: r.id,
    object: 'client_intake_application_autofill_run',
    application: { id: appId, object: 'client_intake_application' },
    status: r.status,
    progress: { step: r.step, completed_units: r.completed_units, total_units: r.total_units },
    suggestion_count: r.suggestion_count,
    warning_count: r.warning_count,
    can_retry: r.status === 'failed',
    attempt_sequence: r.attempt_sequence,
    failure: r.failure,
    created_at: r.created_at,
    updated_at: r.updated_at,
    url: sb.urls.autofillRun(appId, r.id),
    suggestions_url: sb.urls.autofillRunSuggestions(appId, r.id),
    retry_url: sb.urls.autofillRunRetry(appId, r.id),
  };
}

const unitMs = (sb: Sandbox, mode: AiModeValue) => autofillTiming(sb).runUnitMs[mode];

function changed(sb: Sandbox, run: RunRec) {
  run.version += 1;
  run.updated_at = sb.now();
  sb.changed();
}

function schedule(sb: Sandbox, run: RunRec, ms: number) {
  const { application_id: appId, id, attempt_sequence: attempt } = run;
  sb.clock.after(ms, () => tick(sb, appId, id, attempt));
}

function fail(sb: Sandbox, a: ApplicationAutofill, run: RunRec, code: string, message: string) {
  run.status = 'failed';
  run.step = 'failed';
  run.failure = { code, message };
  run.evidence = [];
  changed(sb, run);
  touchPreparation(sb, a);
  sb.events.publish('autofill_run.failed', { run_id: run.id, application_id: run.application_id, suggestion_count: 0 });
}

function complete(sb: Sandbox, app: ApplicationRec, a: ApplicationAutofill, run: RunRec) {
  const index = sb.index(app);
  const { fields, refs, vocabulary } = targetsFor(app, index);
  const proposals = proposeAnswers(run.evidence, fields, { vocabulary });
  const now = sb.now();
  for (const p of proposals) {
    const ref = refs.get(p.fieldId)!;
    const field = fields.find((f) => f.id === p.fieldId)!;
    const s: SuggestionRec = {
      id: newId(sb.state, 'autofillSuggestion'),
      seq: nextSeq(sb.state),
      run_id: run.id,
      status: 'pending',
      block_key: ref.info.question.block_key,
      schema_key: ref.info.question.schema_key,
      field_key: ref.info.field.field_key,
      item_id: ref.itemId,
      section_label: ref.info.section.label,
      question_label: ref.info.question.label,
      field_label: ref.info.field.label,
      display_order: field.order,
      current_value: (field.currentValue ?? null) as SuggestionRec['current_value'],
      proposed_value: p.value,
      source: {
        kind: p.source.kind,
        evidence_source_id: p.source.docId,
        ...(p.source.kind === 'file' && p.source.name !== null ? { file_name: p.source.name } : {}),
        excerpt: p.source.excerpt,
        confidence: p.confidence,
      },
      concerns: p.concerns.map((c) => ({ code: c.code, message: c.message })),
      created_at: now,
      updated_at: now,
    };
    a.suggestions[s.id] = s;
  }
  run.status = 'completed';
  run.step = 'completed';
  run.completed_units = run.total_units;
  run.suggestion_count = proposals.length;
  run.warning_count = run.skipped + proposals.filter((p) => p.concerns.length > 0).length;
  run.evidence = [];
  changed(sb, run);
  touchPreparation(sb, a);
  sb.events.publish('autofill_run.completed', { run_id: run.id, application_id: run.application_id, suggestion_count: run.suggestion_count });
}

/** One step of a run's attempt; a timer from an earlier attempt, or from before a reset, finds nothing to do. */
function tick(sb: Sandbox, appId: string, runId: string, attempt: number) {
  const a = existingAutofillOf(sb, appId);
  const run = a?.runs[runId];
  const app = sb.state.applications[appId];
  if (!a || !run || !app || run.attempt_sequence !== attempt) return;
  if (run.status === 'pending') {
    run.status = 'running';
    run.step = stepAt(run, 0);
    changed(sb, run);
    schedule(sb, run, unitMs(sb, run.ai_mode));
    return;
  }
  if (run.status !== 'running') return;
  const reading = run.source_ids.length;
  const unit = run.completed_units;
  if (unit < reading) {
    // Evidence is read as it is now: a file removed or replaced by an unreadable one since the start is skipped.
    const source = readSource(a.preparation, run.source_ids[unit]!);
    if (source?.kind === 'text' && source.text.includes(FAIL_TRIGGER)) {
      run.completed_units = unit;
      fail(sb, a, run, 'engine_failure', `The Autofill engine failed while reading the text input (it contains the sandbox's failure trigger ${FAIL_TRIGGER}). Remove it and retry the run.`);
      return;
    }
    if (source) run.evidence.push(source);
    else run.skipped += 1;
    if (unit === reading - 1 && run.evidence.length === 0) {
      run.completed_units = unit + 1;
      fail(sb, a, run, 'no_usable_evidence', 'None of the selected evidence could be read: it was removed or could not be read after the run started. Add readable evidence and retry.');
      return;
    }
  }
  run.completed_units = unit + 1;
  if (run.completed_units >= run.total_units) {
    complete(sb, app, a, run);
    return;
  }
  run.step = stepAt(run, run.completed_units);
  changed(sb, run);
  schedule(sb, run, unitMs(sb, run.ai_mode));
}

/** Creates a run (pending) reading `sourceIds`, and schedules it. */
export function startRun(sb: Sandbox, app: ApplicationRec, a: ApplicationAutofill, mode: AiModeValue, sourceIds: string[]): RunRec {
  const plan = planRun(sourceIds.length, sb.index(app).sectionByKey.size);
  const now = sb.now();
  const run: RunRec = {
    id: newId(sb.state, 'autofillRun'),
    seq: nextSeq(sb.state),
    application_id: app.id,
    status: 'pending',
    step: 'queued',
    completed_units: 0,
    total_units: plan.total,
    ai_mode: mode,
    source_ids: sourceIds,
    attempt_sequence: 1,
    failure: null,
    suggestion_count: 0,
    warning_count: 0,
    evidence: [],
    skipped: 0,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  a.runs[run.id] = run;
  sb.changed();
  touchPreparation(sb, a);
  schedule(sb, run, autofillTiming(sb).runQueuedMs);
  return run;
}

/** A new attempt of a failed run: same id and evidence selection, attempt_sequence + 1, from the start. */
export function retryRun(sb: Sandbox, a: ApplicationAutofill, run: RunRec) {
  run.attempt_sequence += 1;
  run.status = 'pending';
  run.step = 'queued';
  run.completed_units = 0;
  run.failure = null;
  run.suggestion_count = 0;
  run.warning_count = 0;
  run.evidence = [];
  run.skipped = 0;
  changed(sb, run);
  touchPreparation(sb, a);
  schedule(sb, run, autofillTiming(sb).runQueuedMs);
}

/* After a restart from the data file, work that was under way carries on. */
setResumeHook((sb, st) => {
  for (const [appId, a] of Object.entries(st.applications)) {
    for (const f of a.preparation.files) scheduleReading(sb, appId, f);
    for (const run of Object.values(a.runs)) {
      if (run.status === 'pending') schedule(sb, run, autofillTiming(sb).runQueuedMs);
      else if (run.status === 'running') schedule(sb, run, unitMs(sb, run.ai_mode));
    }
  }
});
